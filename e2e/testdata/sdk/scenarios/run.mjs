// Runs one Agent SDK scenario against the CLI named by $SDK_CLI and prints,
// one JSON object a line, every message the SDK yields and what the program
// observed besides ({"probe": …}). Used by the e2e tests (with mini-claude)
// and by ../record (with Claude Code 2.1.332):
//
//	SDK_NPM=<folder holding node_modules> SDK_CLI=<executable> SDK_CWD=<project> node run.mjs NAME
import { readFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const npm = process.env.SDK_NPM;
const sdk = await import(pathToFileURL(join(npm, 'node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs')).href);
const { z } = await import(pathToFileURL(join(npm, 'node_modules/zod/index.js')).href);
const cwd = process.env.SDK_CWD;
const model = 'claude-sonnet-4-5-20250929';

/** print writes one line of the scenario's output. */
const print = (v) => process.stdout.write(JSON.stringify(v) + '\n');
/** base are the options every scenario starts from. */
const base = () => ({
  pathToClaudeCodeExecutable: process.env.SDK_CLI, cwd, model,
  stderr: (d) => process.stderr.write(d),
});
/** file reports a file of the project: its content, or that it is absent. */
const file = (name) => {
  const p = join(cwd, name);
  print({ probe: 'file', name, content: existsSync(p) ? readFileSync(p, 'utf8') : null });
};
/** drain prints every message of q; stop, when given, ends the loop early on a message it accepts. */
async function drain(q, stop) {
  for await (const m of q) {
    print(m);
    if (stop && stop(m)) break;
  }
}
/** inbox is an async iterable of user messages that the scenario feeds. */
function inbox() {
  const queue = [], waiting = [];
  let closed = false;
  return {
    push(content) {
      const m = { type: 'user', message: { role: 'user', content }, parent_tool_use_id: null, session_id: '' };
      waiting.length ? waiting.shift()({ value: m, done: false }) : queue.push(m);
    },
    close() { closed = true; while (waiting.length) waiting.shift()({ value: undefined, done: true }); },
    [Symbol.asyncIterator]() {
      return { next: () => queue.length ? Promise.resolve({ value: queue.shift(), done: false })
        : closed ? Promise.resolve({ value: undefined, done: true }) : new Promise((r) => waiting.push(r)) };
    },
  };
}
/** turns runs a streaming-input session: each prompt is sent once the previous result arrived; between(i, q) runs before prompt i > 0. */
async function turns(prompts, options, between) {
  const box = inbox();
  const q = sdk.query({ prompt: box, options });
  box.push(prompts[0]);
  let i = 1;
  for await (const m of q) {
    print(m);
    if (m.type !== 'result') continue;
    if (i === prompts.length) break;
    if (between) await between(i, q);
    box.push(prompts[i++]);
  }
  box.close();
}

/** redPNG is a 2×2 red PNG, base64. */
const redPNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==';

const scenarios = {
  async oneshot() {
    await drain(sdk.query({ prompt: 'Say hello', options: base() }));
  },
  async read_write() {
    await drain(sdk.query({ prompt: 'Copy a.txt to b.txt', options: { ...base(), allowedTools: ['Read', 'Write'] } }));
    file('b.txt');
  },
  async can_use_tool() {
    const canUseTool = async (toolName, input, opts) => {
      print({ probe: 'canUseTool', toolName, input, toolUseID: opts.toolUseID, suggestions: opts.suggestions });
      if (toolName === 'Write') return { behavior: 'deny', message: 'No writing in this test.' };
      return { behavior: 'allow', updatedInput: { ...input, command: 'echo changed > changed.txt' } };
    };
    await drain(sdk.query({ prompt: 'Write a file, then run a command', options: { ...base(), canUseTool } }));
    file('denied.txt');
    file('changed.txt');
    file('original.txt');
  },
  async accept_edits() {
    await drain(sdk.query({ prompt: 'Write then touch', options: { ...base(), permissionMode: 'acceptEdits' } }));
    file('edit.txt');
    file('touched.txt');
  },
  async bypass() {
    await drain(sdk.query({ prompt: 'Touch a file', options: { ...base(), permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true } }));
    file('touched.txt');
  },
  async streaming() {
    await turns(['First question', 'Second question'], base());
  },
  async interrupt() {
    const box = inbox();
    const q = sdk.query({ prompt: box, options: { ...base(), permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true } });
    box.push('Run a slow command');
    const started = Date.now();
    for await (const m of q) {
      print(m);
      if (m.type === 'assistant' && m.message.content.some((b) => b.type === 'tool_use')) {
        await new Promise((r) => setTimeout(r, 1500));
        await q.interrupt();
        print({ probe: 'interrupted' });
      }
      if (m.type === 'result') break;
    }
    box.close();
    print({ probe: 'fast', ok: Date.now() - started < 20000 });
    file('slow-done.txt');
  },
  async hook_block() {
    const hook = async (input) => {
      print({ probe: 'hook', input });
      return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Blocked by the SDK hook.' } };
    };
    await drain(sdk.query({ prompt: 'Touch a file', options: { ...base(), allowedTools: ['Bash'], hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } } }));
    file('blocked.txt');
  },
  async sdk_mcp() {
    const add = sdk.tool('add', 'Adds two numbers', { a: z.number(), b: z.number() }, async (args) => {
      print({ probe: 'tool', args });
      return { content: [{ type: 'text', text: String(args.a + args.b) }] };
    });
    const calc = sdk.createSdkMcpServer({ name: 'calc', version: '1.0.0', tools: [add] });
    await drain(sdk.query({ prompt: 'Add 2 and 3', options: { ...base(), mcpServers: { calc }, allowedTools: ['mcp__calc__add'] } }));
  },
  async system_prompt() {
    await drain(sdk.query({ prompt: 'Who are you?', options: { ...base(), systemPrompt: 'You are a test assistant.' } }));
    await drain(sdk.query({ prompt: 'And now?', options: { ...base(), systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Always answer in French.' } } }));
  },
  async max_turns() {
    await drain(sdk.query({ prompt: 'Read a.txt', options: { ...base(), maxTurns: 1, allowedTools: ['Read'] } }));
  },
  async resume() {
    let session;
    await drain(sdk.query({ prompt: 'Remember the word apple', options: base() }), (m) => { session = m.session_id; return false; });
    await drain(sdk.query({ prompt: 'What was the word?', options: { ...base(), resume: session } }));
  },
  async setting_sources() {
    mkdirSync(join(cwd, '.claude'), { recursive: true });
    writeFileSync(join(cwd, '.claude/settings.json'), JSON.stringify({ permissions: { allow: ['Write'] } }));
    await drain(sdk.query({ prompt: 'Write with project settings', options: { ...base(), settingSources: ['project'] } }));
    file('project.txt');
    await drain(sdk.query({ prompt: 'Write without settings', options: { ...base(), settingSources: [] } }));
    file('none.txt');
  },
  async set_permission_mode() {
    await turns(['Write before', 'Write after'], base(), async (i, q) => { await q.setPermissionMode('acceptEdits'); });
    file('before.txt');
    file('after.txt');
  },
  async partial() {
    await drain(sdk.query({ prompt: 'Stream please', options: { ...base(), includePartialMessages: true } }));
  },
  async set_model() {
    await turns(['Before the switch', 'After the switch'], base(), async (i, q) => { await q.setModel('claude-haiku-4-5-20251001'); });
  },
  async agents() {
    const agents = { reviewer: { description: 'Reviews a file and says what it found', prompt: 'You are the reviewer. Answer in one word.', tools: ['Read'] } };
    await drain(sdk.query({ prompt: 'Ask the reviewer about a.txt', options: { ...base(), agents } }));
  },
  async cancel_permission() {
    // The program has not answered can_use_tool when it interrupts the turn:
    // the CLI withdraws its question, which aborts the callback's signal.
    const box = inbox();
    let q;
    const canUseTool = async (toolName, input, { signal }) => {
      print({ probe: 'canUseTool', toolName, input });
      setTimeout(() => q.interrupt().then(() => print({ probe: 'interrupted' })), 300);
      const aborted = await new Promise((resolve) => {
        if (signal.aborted) return resolve(true);
        signal.addEventListener('abort', () => resolve(true), { once: true });
        setTimeout(() => resolve(false), 10000);
      });
      print({ probe: 'signal', aborted });
      return { behavior: 'deny', message: 'Too late.' };
    };
    q = sdk.query({ prompt: box, options: { ...base(), canUseTool } });
    box.push('Touch a file');
    for await (const m of q) {
      print(m);
      if (m.type === 'result') break;
    }
    box.close();
    file('cancelled.txt');
  },
  async image() {
    const box = inbox();
    const q = sdk.query({ prompt: box, options: base() });
    box.push([{ type: 'text', text: 'What colour is this image?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: redPNG } }]);
    for await (const m of q) {
      print(m);
      if (m.type === 'result') break;
    }
    box.close();
  },
};

// Plan mode's scenarios (ExitPlanMode, AskUserQuestion through canUseTool).
Object.assign(scenarios, (await import('./plan.mjs')).planScenarios({ sdk, print, base, file }));

const name = process.argv[2];
if (!scenarios[name]) {
  process.stderr.write(`unknown scenario ${name}; known: ${Object.keys(scenarios).join(' ')}\n`);
  process.exit(2);
}
try {
  await scenarios[name]();
} catch (err) {
  // The SDK throws when a run ends in an error result; the program sees that as its answer.
  print({ probe: 'error', message: String(err.message).split('\n')[0] });
}
