// An editor for the ACP end-to-end tests, built on the official ACP client
// library (@agentclientprotocol/sdk): it starts `mini-claude acp`, runs the
// steps of a scenario file against it and prints, as one JSON object, what
// it saw: the responses, the session/update notifications of each step, the
// permission requests and fs calls it answered, and every line of the
// agent's stdout that was not a JSON-RPC message.
//
// node client.mjs SDK_ENTRY SCENARIO_JSON
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const [sdkEntry, scenarioPath] = process.argv.slice(2);
const acp = await import(pathToFileURL(sdkEntry).href);
const scenario = JSON.parse(readFileSync(scenarioPath, "utf8"));

const agent = spawn(scenario.binary, ["acp", ...(scenario.args ?? [])], {
  cwd: scenario.cwd,
  stdio: ["pipe", "pipe", "pipe"],
});
let stderr = "";
agent.stderr.on("data", (chunk) => (stderr += chunk));
const exited = new Promise((resolve) => agent.on("exit", (code, signal) => resolve(code ?? signal)));

// Every stdout line must be a JSON-RPC 2.0 message; the others are kept.
const badLines = [];
let pending = "";
// open is false once the connection stopped reading or stdout ended.
let open = true;
const checkLine = (line) => {
  if (line.trim() === "") return;
  try {
    if (JSON.parse(line).jsonrpc !== "2.0") badLines.push(line);
  } catch {
    badLines.push(line);
  }
};
const input = new ReadableStream({
  start(controller) {
    agent.stdout.on("data", (chunk) => {
      pending += chunk.toString("utf8");
      let i;
      while ((i = pending.indexOf("\n")) >= 0) {
        checkLine(pending.slice(0, i));
        pending = pending.slice(i + 1);
      }
      if (open) controller.enqueue(new Uint8Array(chunk));
    });
    agent.stdout.on("end", () => {
      checkLine(pending);
      if (open) controller.close();
      open = false;
    });
  },
  cancel() {
    open = false;
  },
});
const stream = acp.ndJsonStream(Writable.toWeb(agent.stdin), input);

const updates = [];
const permissions = [];
const reads = [];
const writes = [];
const answers = [...(scenario.permissionAnswers ?? [])];
const buffers = { ...(scenario.buffers ?? {}) };

const app = acp
  .client({ name: "mini-claude-e2e" })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    updates.push(params);
  })
  .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
    permissions.push(params);
    const answer = answers.shift() ?? "reject";
    if (answer === "cancelled") return { outcome: { outcome: "cancelled" } };
    return { outcome: { outcome: "selected", optionId: answer } };
  })
  .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
    reads.push(params.path);
    if (params.path in buffers) return { content: buffers[params.path] };
    return { content: readFileSync(params.path, "utf8") };
  })
  .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
    writes.push({ path: params.path, content: params.content });
    buffers[params.path] = params.content;
    writeFileSync(params.path, params.content);
    return {};
  });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const waitForFile = async (path) => {
  for (const deadline = Date.now() + 20000; !existsSync(path); await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`${path} did not appear within 20s`);
  }
};

const result = { steps: [] };
try {
  await app.connectWith(stream, async (ctx) => {
    const fs = scenario.clientFs ?? false;
    result.initialize = await ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs } },
    });
    let sessionId = scenario.sessionId;
    for (const step of scenario.steps) {
      const mark = updates.length;
      const record = { op: step.op };
      try {
        switch (step.op) {
          case "new":
            record.response = await ctx.request(acp.methods.agent.session.new, {
              cwd: scenario.cwd,
              mcpServers: step.mcpServers ?? [],
            });
            sessionId = record.response.sessionId;
            break;
          case "load":
            record.response = await ctx.request(acp.methods.agent.session.load, {
              sessionId: step.sessionId ?? sessionId,
              cwd: scenario.cwd,
              mcpServers: [],
            });
            sessionId = step.sessionId ?? sessionId;
            break;
          case "setMode":
            record.response = await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: step.mode });
            break;
          case "prompt": {
            const running = ctx.request(acp.methods.agent.session.prompt, {
              sessionId,
              prompt: [{ type: "text", text: step.text }],
            });
            if (step.cancelWhenFile) {
              await waitForFile(step.cancelWhenFile);
              await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
              record.cancelledAt = Date.now();
            }
            record.response = await running;
            record.respondedAt = Date.now();
            break;
          }
        }
      } catch (err) {
        record.error = String(err?.message ?? err);
      }
      record.updates = updates.slice(mark).map((n) => n.update);
      record.sessionIds = [...new Set(updates.slice(mark).map((n) => n.sessionId))];
      result.steps.push(record);
    }
    result.sessionId = sessionId;
  });
} catch (err) {
  result.error = String(err?.message ?? err);
}
agent.stdin.end();
const timer = setTimeout(() => agent.kill("SIGKILL"), 10000);
result.exit = await exited;
clearTimeout(timer);
Object.assign(result, { permissions, reads, writes, badLines, stderr });
process.stdout.write(JSON.stringify(result) + "\n");
