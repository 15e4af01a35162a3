package main

import (
	"time"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// effectPrompt starts every effect scenario's conversation.
const effectPrompt = "Do the task."

// effect is a scenario recording what a hook's answer does: the hooks of
// hk in the project settings (with permissions when not nil), the model
// answering with turns, claude run three times (stream-json, stream-json
// with --include-hook-events, text).
func effect(name string, hk func(s *scratch) hooks, permissions map[string]any, turns ...llmtest.Turn) scenario {
	return scenario{
		name: name,
		settings: func(s *scratch) map[string]any {
			m := map[string]any{"hooks": hk(s)}
			if permissions != nil {
				m["permissions"] = permissions
			}
			return m
		},
		convos: func(s *scratch) []convo { return []convo{{match: effectPrompt, turns: turns}} },
		runs: []runSpec{
			{label: "stream", prompt: effectPrompt, output: "stream"},
			{label: "stream_hook_events", prompt: effectPrompt, output: "stream-hooks"},
			{label: "text", prompt: effectPrompt, output: "text"},
		},
	}
}

// on is a hooks setting of one event with one matcher group.
func on(event, matcher string, commands ...any) func(s *scratch) hooks {
	return func(s *scratch) hooks { return hooks{event: {group(matcher, commands...)}} }
}

// echoJSON is a command printing v as JSON on stdout.
func echoJSON(v any) string { return "echo " + shq(mustJSON(v)) }

// preDecision is PreToolUse JSON output with a permission decision.
func preDecision(decision, reason string, extra map[string]any) string {
	out := map[string]any{"hookEventName": "PreToolUse", "permissionDecision": decision}
	if reason != "" {
		out["permissionDecisionReason"] = reason
	}
	for k, v := range extra {
		out[k] = v
	}
	return echoJSON(map[string]any{"hookSpecificOutput": out})
}

// stopScript is a Stop hook script: it logs its input to the scenario's
// input log (next to the project) and runs block while stop_hook_active is
// false.
func stopScript(block string) string {
	return `#!/bin/sh
in=$(cat)
printf '%s\n' "$in" >> "$CLAUDE_PROJECT_DIR/../inputs.jsonl"
case "$in" in
*'"stop_hook_active":false'*) ` + block + ` ;;
esac
`
}

// stopCommand is the command running the scenario's Stop hook script.
const stopCommand = `"$CLAUDE_PROJECT_DIR"/.claude/hooks/stop.sh`

// stopScenario has a Stop hook that runs block the first time the session
// would stop.
func stopScenario(name, block string, turns ...llmtest.Turn) scenario {
	sc := effect(name, on("Stop", "", stopCommand), nil, turns...)
	sc.files = map[string]string{".claude/hooks/stop.sh": stopScript(block)}
	return sc
}

// stopAlwaysBlock has a Stop hook that always blocks, stop_hook_active or not.
func stopAlwaysBlock() scenario {
	sc := effect("stop_always_block", on("Stop", "", stopCommand), nil, text("Done."), text("Still done."), text("Done again."))
	sc.files = map[string]string{".claude/hooks/stop.sh": `#!/bin/sh
in=$(cat)
printf '%s\n' "$in" >> "$CLAUDE_PROJECT_DIR/../inputs.jsonl"
echo '{"decision":"block","reason":"Never done"}'
`}
	return sc
}

func effectScenarios() []scenario {
	echoHi := bash("echo hi", "Say hi")
	done := text("Done.")
	allowTouch := map[string]any{"allow": []string{"Bash(exit 1)"}}
	return append([]scenario{
		// PreToolUse
		effect("pre_exit2", on("PreToolUse", "Bash", "echo 'Blocked by hook: no echo here' >&2; exit 2"), nil, echoHi, done),
		effect("pre_deny", on("PreToolUse", "Bash", preDecision("deny", "Denied by hook policy", nil)), nil, echoHi, done),
		effect("pre_allow", on("PreToolUse", "Bash", preDecision("allow", "Allowed by hook policy", nil)), nil,
			bash("touch allowed.txt", "Needs a permission"), done),
		effect("pre_ask", on("PreToolUse", "Bash", preDecision("ask", "Hook wants a human to confirm", nil)), nil, echoHi, done),
		effect("pre_updated_input", on("PreToolUse", "Bash", preDecision("allow", "Rewritten by hook",
			map[string]any{"updatedInput": map[string]any{"command": "echo rewritten", "description": "Rewritten"}})), nil,
			bash("echo original", "Say original"), done),
		effect("pre_updated_input_no_decision", on("PreToolUse", "Bash", echoJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PreToolUse", "updatedInput": map[string]any{"command": "echo rewritten", "description": "Rewritten"}}})), nil,
			bash("echo original", "Say original"), done),
		effect("pre_updated_input_partial", on("PreToolUse", "Bash", preDecision("allow", "Only the description",
			map[string]any{"updatedInput": map[string]any{"description": "Only the description changed"}})), nil,
			bash("echo original", "Say original"), done),
		effect("pre_updated_input_invalid", on("PreToolUse", "Bash", preDecision("allow", "Bad input",
			map[string]any{"updatedInput": map[string]any{"command": 42}})), nil,
			bash("echo original", "Say original"), done),
		effect("pre_allow_vs_deny_rule", on("PreToolUse", "Bash", preDecision("allow", "Allowed by hook policy", nil)),
			map[string]any{"deny": []string{"Bash(touch:*)"}}, bash("touch denied.txt", "Denied by a rule"), done),
		effect("pre_deny_and_allow", func(s *scratch) hooks {
			return hooks{"PreToolUse": {group("Bash", preDecision("allow", "First hook allows", nil), preDecision("deny", "Second hook denies", nil))}}
		}, nil, echoHi, done),
		effect("pre_exit1", on("PreToolUse", "Bash", "echo 'hook failed on purpose' >&2; exit 1"), nil, echoHi, done),
		effect("pre_exit1_stdout", on("PreToolUse", "Bash", "echo 'stdout of a failing hook'; echo 'stderr of a failing hook' >&2; exit 1"), nil, echoHi, done),
		timeoutScenario(),
		effect("pre_stdout", on("PreToolUse", "Bash", "echo 'plain stdout from PreToolUse'"), nil, echoHi, done),
		effect("pre_continue_false", on("PreToolUse", "Bash", echoJSON(map[string]any{"continue": false, "stopReason": "Stopped by hook"})), nil, echoHi, done),
		effect("pre_system_message", on("PreToolUse", "Bash", echoJSON(map[string]any{"systemMessage": "Note from hook"})), nil, echoHi, done),
		effect("pre_exit2_json_stdout", on("PreToolUse", "Bash", preDecision("allow", "ignored?", nil)+"; echo 'exit 2 reason' >&2; exit 2"), nil, echoHi, done),

		// PostToolUse and PostToolUseFailure
		effect("post_exit2", on("PostToolUse", "Bash", "echo 'Post check failed: lint errors' >&2; exit 2"), nil, echoHi, done),
		effect("post_block", on("PostToolUse", "Bash", echoJSON(map[string]any{"decision": "block", "reason": "Formatting failed"})), nil, echoHi, done),
		effect("post_context", on("PostToolUse", "Bash", echoJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PostToolUse", "additionalContext": "Context from PostToolUse"}})), nil, echoHi, done),
		effect("post_stdout", on("PostToolUse", "Bash", "echo 'plain stdout from PostToolUse'"), nil, echoHi, done),
		effect("post_exit1", on("PostToolUse", "Bash", "echo 'post hook failed on purpose' >&2; exit 1"), nil, echoHi, done),
		effect("post_failure_exit2", on("PostToolUseFailure", "Bash", "echo 'Failure hook says: check the exit code' >&2; exit 2"), allowTouch,
			bash("exit 1", "Fail on purpose"), done),
		effect("post_failure_context", on("PostToolUseFailure", "Bash", echoJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PostToolUseFailure", "additionalContext": "Context from PostToolUseFailure"}})), allowTouch,
			bash("exit 1", "Fail on purpose"), done),

		// UserPromptSubmit
		effect("prompt_stdout", on("UserPromptSubmit", "", "echo 'Ticket ABC-123: fix the login bug'"), nil, done),
		effect("prompt_stdout_no_newline", on("UserPromptSubmit", "", "printf 'Ticket ABC-123: no newline'"), nil, done),
		effect("prompt_context", on("UserPromptSubmit", "", echoJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "UserPromptSubmit", "additionalContext": "Context from UserPromptSubmit"}})), nil, done),
		effect("prompt_exit2", on("UserPromptSubmit", "", "echo 'Prompt refused by hook' >&2; exit 2"), nil, done),
		effect("prompt_block", on("UserPromptSubmit", "", echoJSON(map[string]any{"decision": "block", "reason": "Prompt blocked by policy"})), nil, done),
		effect("prompt_exit1", on("UserPromptSubmit", "", "echo 'prompt hook failed on purpose' >&2; exit 1"), nil, done),

		// SessionStart
		effect("session_start_stdout", on("SessionStart", "", "echo 'SessionStart context line'"), nil, done),
		effect("session_start_stdout_no_newline", on("SessionStart", "", "printf 'SessionStart line without newline'"), nil, done),
		effect("session_start_context", on("SessionStart", "", echoJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "SessionStart", "additionalContext": "Context from SessionStart"}})), nil, done),
		effect("session_start_exit2", on("SessionStart", "", "echo 'SessionStart exit 2' >&2; exit 2"), nil, done),

		// Stop
		stopScenario("stop_block", `echo '{"decision":"block","reason":"Run the tests first"}'`, text("Done."), text("Tests pass now.")),
		stopScenario("stop_exit2", `echo 'Tests are failing' >&2; exit 2`, text("Done."), text("Tests pass now.")),
		stopAlwaysBlock(),

		// PermissionRequest
		effect("permission_request_allow", on("PermissionRequest", "Bash", echoJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PermissionRequest", "decision": map[string]any{"behavior": "allow"}}})), nil,
			bash("touch allowed.txt", "Needs a permission"), done),
		effect("permission_request_deny", on("PermissionRequest", "Bash", echoJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PermissionRequest", "decision": map[string]any{"behavior": "deny", "message": "Denied by PermissionRequest hook"}}})), nil,
			bash("touch denied.txt", "Needs a permission"), done),

		stopFailureScenario(),
		matchersScenario(),
		untrustedScenario(),
	}, eventEffectScenarios()...)
}

// matchersScenario logs which PreToolUse matcher groups fire for Read, Bash
// and Write, and whether an identical command in two groups runs twice.
func matchersScenario() scenario {
	matchers := []string{"Bash", "Read", "Edit|Write", "Wri.*", "*", "", "bash", "Rea", "^Bash$", "Bash|Read"}
	sc := effect("matchers", func(s *scratch) hooks {
		var groups []map[string]any
		for _, m := range matchers {
			label := "matcher=" + m
			if m == "" {
				label = "matcher omitted"
			}
			groups = append(groups, group(m, s.logCmd(label)))
		}
		groups = append(groups, group("Read", s.logCmd("duplicate command")), group("Read", s.logCmd("duplicate command")))
		return hooks{"PreToolUse": groups}
	}, map[string]any{"allow": []string{"Write"}})
	sc.convos = func(s *scratch) []convo {
		return []convo{{match: effectPrompt, turns: []llmtest.Turn{
			tool("Read", map[string]any{"file_path": s.path("a.txt")}), bash("echo hi", "Say hi"),
			tool("Write", map[string]any{"file_path": s.path("new.txt"), "content": "new\n"}), text("Done.")}}}
	}
	sc.runs = sc.runs[:1]
	return sc
}

// untrustedScenario has project hooks in a folder never trusted.
func untrustedScenario() scenario {
	sc := effect("untrusted", func(s *scratch) hooks {
		return hooks{"SessionStart": {group("", "echo 'SessionStart context line'")}, "PreToolUse": {group("", s.logCmd("PreToolUse"))}}
	}, map[string]any{"allow": []string{"Bash(exit 1)"}}, bash("echo hi", "Say hi"), text("Done."))
	sc.untrusted = true
	return sc
}

// timeoutScenario has a PreToolUse hook past its timeout of 1 s, which
// leaves a file behind if it (or the child it started) outlives the
// timeout; the files are listed 4 s after the runs.
func timeoutScenario() scenario {
	sc := effect("pre_timeout", on("PreToolUse", "Bash", map[string]any{"type": "command", "timeout": 1,
		"command": `(sleep 3; touch "$CLAUDE_PROJECT_DIR/child-survived.txt") & sleep 3; touch "$CLAUDE_PROJECT_DIR/hook-survived.txt"; ` +
			preDecision("deny", "too late", nil)}), nil, bash("echo hi", "Say hi"), text("Done."))
	sc.settle = 4 * time.Second
	return sc
}

// stopFailureScenario logs the Stop and StopFailure hooks of a turn that
// ends on an API error: the model server answers every run with a 400.
func stopFailureScenario() scenario {
	sc := effect("stop_failure", func(s *scratch) hooks {
		return hooks{"Stop": {group("", s.logCmd("Stop"))}, "StopFailure": {group("", s.logCmd("StopFailure"))}}
	}, nil)
	faults := make([]llmtest.Fault, 60)
	for i := range faults {
		faults[i] = llmtest.Fault{Status: 400, Message: "Bad request on purpose"}
	}
	sc.queue = []llmtest.Turn{{Faults: faults, Blocks: text("never served").Blocks}}
	return sc
}
