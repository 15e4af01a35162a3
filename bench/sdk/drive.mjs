// Drives one streaming-input session of the TypeScript Agent SDK: TURNS user
// messages, each sent once the previous one's result arrived, and prints
// one JSON line with each turn's time from sending the message to its
// result and the session's time from query() to the last result, in ms.
//
//	SDK_NPM=<folder holding node_modules> SDK_CLI=<executable> SDK_CWD=<project> TURNS=10 MODEL=<model> node drive.mjs
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const sdk = await import(pathToFileURL(join(process.env.SDK_NPM, 'node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs')).href);
const turns = Number(process.env.TURNS);

const queue = [], waiting = [];
let closed = false;
const push = (text) => {
  const m = { type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' };
  waiting.length ? waiting.shift()({ value: m, done: false }) : queue.push(m);
};
const inbox = {
  [Symbol.asyncIterator]() {
    return { next: () => queue.length ? Promise.resolve({ value: queue.shift(), done: false })
      : closed ? Promise.resolve({ value: undefined, done: true }) : new Promise((r) => waiting.push(r)) };
  },
};

const start = performance.now();
const q = sdk.query({ prompt: inbox, options: {
  pathToClaudeCodeExecutable: process.env.SDK_CLI, cwd: process.env.SDK_CWD, model: process.env.MODEL,
  allowedTools: ['Read'], stderr: (d) => process.stderr.write(d),
} });
const times = [];
let sent = performance.now();
push('Question 1');
for await (const m of q) {
  if (m.type !== 'result') continue;
  if (m.subtype !== 'success') throw new Error(`turn ${times.length + 1} ended ${m.subtype}`);
  times.push(performance.now() - sent);
  if (times.length === turns) break;
  sent = performance.now();
  push(`Question ${times.length + 1}`);
}
const session = performance.now() - start;
closed = true;
while (waiting.length) waiting.shift()({ value: undefined, done: true });
process.stdout.write(JSON.stringify({ turns: times, session }) + '\n');
