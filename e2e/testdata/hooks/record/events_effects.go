package main

import (
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// eventEffectScenarios record what the answers of the hooks of PostToolBatch,
// SubagentStart, PostCompact, PermissionRequest and StopFailure do.
func eventEffectScenarios() []scenario {
	echoHi := bash("echo hi", "Say hi")
	done := text("Done.")
	context := func(event string) string {
		return echoJSON(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": event, "additionalContext": "Context from " + event}})
	}
	return []scenario{
		// PostToolBatch
		logged("post_tool_batch_context", "PostToolBatch", "", context("PostToolBatch"), echoHi, done),
		logged("post_tool_batch_block", "PostToolBatch", "", echoJSON(map[string]any{"decision": "block", "reason": "Batch blocked by hook"}), echoHi, done),
		logged("post_tool_batch_exit2", "PostToolBatch", "", "echo 'Batch check failed' >&2; exit 2", echoHi, done),
		logged("post_tool_batch_stdout", "PostToolBatch", "", "echo 'plain stdout from PostToolBatch'", echoHi, done),
		logged("post_tool_batch_continue_false", "PostToolBatch", "", echoJSON(map[string]any{"continue": false, "stopReason": "Stopped by batch hook"}), echoHi, done),
		logged("post_tool_batch_two_calls", "PostToolBatch", "", context("PostToolBatch"), twoCalls(), done),

		// SubagentStart
		subAgentScenario("subagent_start_context", context("SubagentStart")),
		subAgentScenario("subagent_start_stdout", "echo 'plain stdout from SubagentStart'"),
		subAgentScenario("subagent_start_exit2", "echo 'SubagentStart says no' >&2; exit 2"),
		subAgentScenario("subagent_start_system_message", echoJSON(map[string]any{"systemMessage": "Note from SubagentStart"})),

		// PostCompact
		postCompactScenario("post_compact_stdout", "echo 'plain stdout from PostCompact'"),
		postCompactScenario("post_compact_exit2", "echo 'PostCompact says no' >&2; exit 2"),
		postCompactScenario("post_compact_system_message", echoJSON(map[string]any{"systemMessage": "Note from PostCompact"})),
		autoCompactScenario(),

		// PermissionRequest
		logged("permission_request_updated_input", "PermissionRequest", "Bash", echoJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PermissionRequest", "decision": map[string]any{"behavior": "allow",
				"updatedInput": map[string]any{"command": "echo rewritten", "description": "Rewritten"}}}}),
			bash("touch allowed.txt", "Needs a permission"), done),
		logged("permission_request_exit2", "PermissionRequest", "Bash", "echo 'PermissionRequest says no' >&2; exit 2",
			bash("touch denied.txt", "Needs a permission"), done),
		logged("permission_request_interrupt", "PermissionRequest", "Bash", echoJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PermissionRequest", "decision": map[string]any{"behavior": "deny", "message": "Stop right there", "interrupt": true}}}),
			bash("touch denied.txt", "Needs a permission"), done),
		logged("permission_request_stdout", "PermissionRequest", "Bash", "echo 'plain stdout from PermissionRequest'",
			bash("touch denied.txt", "Needs a permission"), done),
		permissionRequestWrite(),
		effect("permission_request_after_pre_ask", func(s *scratch) hooks {
			return hooks{"PreToolUse": {group("Bash", preDecision("ask", "Hook wants a human to confirm", nil))},
				"PermissionRequest": {group("Bash", s.logCmd("PermissionRequest"), echoJSON(map[string]any{"hookSpecificOutput": map[string]any{
					"hookEventName": "PermissionRequest", "decision": map[string]any{"behavior": "allow"}}}))}}
		}, nil, echoHi, done),

		// StopFailure
		stopFailureOutput(),
	}
}

// logged is an effect scenario whose event has two hooks: one logging its
// input, one answering with command.
func logged(name, event, matcher, command string, turns ...llmtest.Turn) scenario {
	return effect(name, func(s *scratch) hooks {
		return hooks{event: {group(matcher, s.logCmd(event), command)}}
	}, nil, turns...)
}

// twoCalls is one assistant turn with two tool calls.
func twoCalls() llmtest.Turn {
	return llmtest.Turn{Blocks: append(tool("Read", map[string]any{"file_path": "a.txt"}).Blocks, bash("echo hi", "Say hi").Blocks...)}
}

// subAgentScenario runs an Agent call (general-purpose, in the foreground)
// whose SubagentStart hooks log their input and answer with command.
func subAgentScenario(name, command string) scenario {
	sc := logged(name, "SubagentStart", "general-purpose", command)
	sc.convos = func(s *scratch) []convo {
		return []convo{
			{match: "SUBAGENT:", turns: []llmtest.Turn{text("The sub-agent is done.")}},
			{match: effectPrompt, turns: []llmtest.Turn{
				tool("Agent", map[string]any{"description": "Say done", "prompt": "SUBAGENT: say that you are done.",
					"subagent_type": "general-purpose", "run_in_background": false}),
				text("Done."),
			}},
		}
	}
	return sc
}

// postCompactScenario runs a prompt, then /compact (stream-json; a second
// /compact would find nothing to compact) and a prompt after it, each
// resuming the first run's session; the PostCompact hooks log their input
// and answer with command.
func postCompactScenario(name, command string) scenario {
	sc := logged(name, "PostCompact", "", command)
	sc.convos = func(s *scratch) []convo {
		return []convo{
			{match: summaryText, turns: []llmtest.Turn{text("Continuing after the summary.")}},
			{match: effectPrompt, turns: []llmtest.Turn{text("Done.")}},
		}
	}
	sc.runs = []runSpec{
		{label: "setup", prompt: effectPrompt, output: "stream"},
		{label: "stream", prompt: "/compact", output: "stream", resume: true},
		{label: "after", prompt: "After compaction.", output: "stream", resume: true, requests: true},
	}
	return sc
}

// autoCompactScenario has the model's second request refused as too long,
// which compacts the conversation and asks again; PreCompact, PostCompact
// and SessionStart hooks log their input. One run, with the hooks' events.
func autoCompactScenario() scenario {
	sc := effect("post_compact_auto", func(s *scratch) hooks {
		return hooks{"PreCompact": {group("", s.logCmd("PreCompact"))}, "PostCompact": {group("", s.logCmd("PostCompact"), "echo 'plain stdout from PostCompact'")},
			"SessionStart": {group("", s.logCmd("SessionStart"))}}
	}, nil)
	tooLong := summaryTurn
	tooLong.Faults = []llmtest.Fault{{Status: 400, Message: "prompt is too long: 210000 tokens > 200000 maximum"}}
	sc.queue = []llmtest.Turn{bash("echo hi", "Say hi"), tooLong, text("Done.")}
	sc.runs = []runSpec{{label: "stream_hook_events", prompt: effectPrompt, output: "stream-hooks", requests: true}}
	return sc
}

// stopFailureOutput has a StopFailure hook that prints on both streams and
// exits 2 on a turn that ends on an API error.
func stopFailureOutput() scenario {
	sc := logged("stop_failure_output", "StopFailure", "", "echo 'plain stdout from StopFailure'; echo 'StopFailure stderr' >&2; exit 2")
	sc.queue = stopFailureScenario().queue
	return sc
}

// permissionRequestWrite logs the PermissionRequest input of a Write,
// which asks in the default mode.
func permissionRequestWrite() scenario {
	sc := logged("permission_request_write", "PermissionRequest", "", "true")
	sc.convos = func(s *scratch) []convo {
		return []convo{{match: effectPrompt, turns: []llmtest.Turn{
			tool("Write", map[string]any{"file_path": s.path("new.txt"), "content": "new\n"}), text("Done.")}}}
	}
	return sc
}
