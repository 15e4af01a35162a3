// Plan mode's scenarios for run.mjs: ExitPlanMode and AskUserQuestion
// answered by the program's canUseTool. The plan file's path, chosen at
// random by the CLI, is written "<plan>" in what they print, so that runs
// compare.

/** planPath matches a plan file of Claude Code (~/.claude/plans) or mini-claude (~/.mini-claude/plans). */
const planPath = /\/[^"\s\\]*\/plans\/[a-z0-9-]+\.md/g;

/** planScenarios returns the scenarios, given run.mjs's helpers. */
export function planScenarios({ sdk, print, base, file }) {
  /** show prints a value with plan file paths as "<plan>". */
  const show = (v) => print(JSON.parse(JSON.stringify(v).replace(planPath, '<plan>')));
  /** drain prints every message of q. */
  const drain = async (q) => { for await (const m of q) show(m); };
  /** asked prints a canUseTool question, and whether the program was told that only a person may answer it. */
  const asked = (toolName, input, opts) => {
    show({ probe: 'canUseTool', toolName, input, suggestions: opts.suggestions });
    show({ probe: 'asked', toolName, requiresUserInteraction: opts.requiresUserInteraction ?? false });
  };
  /** plan runs the plan scenario's prompt in plan mode, canUseTool answering. */
  const plan = (canUseTool) => drain(sdk.query({ prompt: 'Plan, then write b.txt', options: { ...base(), permissionMode: 'plan', canUseTool } }));
  /** allowOthers lets every call but ExitPlanMode run as the model sent it. */
  const allowOthers = (input) => ({ behavior: 'allow', updatedInput: input });

  return {
    // The plan approved with "auto-accept edits": the mode becomes acceptEdits, the Write runs unasked.
    async plan_exit_accept_edits() {
      await plan(async (toolName, input, opts) => {
        asked(toolName, input, opts);
        if (toolName !== 'ExitPlanMode') return allowOthers(input);
        return { behavior: 'allow', updatedInput: input, updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] };
      });
      file('b.txt');
    },
    // The plan approved as it is: the mode becomes default, the Write asks.
    async plan_exit_default() {
      await plan(async (toolName, input, opts) => {
        asked(toolName, input, opts);
        return allowOthers(input);
      });
      file('b.txt');
    },
    // The plan refused with feedback: the model gets it, plan mode holds and refuses the Write.
    async plan_exit_deny() {
      await plan(async (toolName, input, opts) => {
        asked(toolName, input, opts);
        if (toolName === 'ExitPlanMode') return { behavior: 'deny', message: 'Also plan the tests.' };
        return allowOthers(input);
      });
      file('b.txt');
    },
    // AskUserQuestion answered by updatedInput's answers.
    async plan_ask_question() {
      const canUseTool = async (toolName, input, opts) => {
        asked(toolName, input, opts);
        if (toolName !== 'AskUserQuestion') return allowOthers(input);
        const answers = { 'Which colour?': 'Blue', 'Which extras?': 'Tests, Docs' };
        return { behavior: 'allow', updatedInput: { ...input, answers } };
      };
      await drain(sdk.query({ prompt: 'Ask me first', options: { ...base(), canUseTool } }));
    },
  };
}
