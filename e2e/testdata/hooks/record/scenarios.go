package main

import (
	"time"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// sessionPrompt starts the session scenario's conversation.
const sessionPrompt = "Run the hook session."

// scenarios are the recorded sessions: "session", whose every hook input is
// an event golden, then one scenario per effect.
func scenarios() []scenario {
	return append([]scenario{sessionScenario(), tuiScenario(), resumeScenario()}, effectScenarios()...)
}

// logEverything is the settings of a project with a hook logging its input
// for every event, and the permissions given.
func logEverything(permissions map[string]any) func(s *scratch) map[string]any {
	return func(s *scratch) map[string]any {
		h := hooks{}
		for _, e := range allEvents {
			h[e] = []map[string]any{group("", s.logCmd(e))}
		}
		return map[string]any{"permissions": permissions, "hooks": h}
	}
}

// tuiScenario logs every event of an interactive session in tmux: a prompt,
// a Bash command waiting for permission long enough for the
// permission_prompt notification, approved; then idle long enough for the
// idle_prompt notification; then /exit.
func tuiScenario() scenario {
	const prompt = "Run the TUI session."
	return scenario{
		name:     "tui",
		events:   "events/tui",
		settings: logEverything(map[string]any{"allow": []string{}}),
		convos: func(s *scratch) []convo {
			return []convo{{match: prompt, turns: []llmtest.Turn{bash("touch tui.txt", "Needs a permission"), text("Done in the TUI.")}}}
		},
		tui: &tuiScript{steps: []tuiStep{
			{waitScreen: "? for shortcuts"},
			{keys: []string{prompt, "Enter"}},
			{waitLog: `"notification_type":"permission_prompt"`},
			{keys: []string{"1"}},
			{waitLog: `"hook_event_name":"Stop"`},
			{waitLog: `"notification_type":"idle_prompt"`, timeout: 120 * time.Second},
			{keys: []string{"/exit", "Enter"}},
			{waitLog: `"hook_event_name":"SessionEnd"`},
		}},
	}
}

// sessionScenario logs every event of a session that reads, runs a command
// that succeeds and one that fails, writes, edits, is refused a permission,
// creates and completes a task, runs a sub-agent and ends; is resumed; is
// compacted; and is cleared.
func sessionScenario() scenario {
	return scenario{
		name:   "session",
		events: "events",
		files: map[string]string{
			"CLAUDE.md":                 "# Notes\n\nKeep answers short.\n",
			".claude/commands/greet.md": "Say hello to $ARGUMENTS.\n",
		},
		settings: logEverything(map[string]any{"allow": []string{"Bash(exit 1)", "Edit", "Write"}}),
		convos: func(s *scratch) []convo {
			return []convo{
				{match: "SUBAGENT:", turns: []llmtest.Turn{
					tool("Read", map[string]any{"file_path": s.path("a.txt")}),
					text("The file says hello."),
				}},
				{match: summaryText, turns: []llmtest.Turn{text("Continuing after the summary.")}},
				{match: sessionPrompt, turns: []llmtest.Turn{
					tool("Read", map[string]any{"file_path": s.path("a.txt")}),
					bash("echo hi", "Say hi"),
					bash("exit 1", "Fail on purpose"),
					tool("Write", map[string]any{"file_path": s.path("new.txt"), "content": "new file\n"}),
					tool("Edit", map[string]any{"file_path": s.path("a.txt"), "old_string": "hello", "new_string": "hello world"}),
					bash("touch denied.txt", "Needs a permission"),
					tool("TaskCreate", map[string]any{"subject": "Check hooks", "description": "Check that every hook fires", "activeForm": "Checking hooks"}),
					tool("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
					tool("Agent", map[string]any{"description": "Read a file", "prompt": "SUBAGENT: read a.txt and say what it holds.", "subagent_type": "general-purpose", "run_in_background": false}),
					text("All done."),
					text("Resumed and done."),
					text("Hello, world."),
				}},
			}
		},
		runs: []runSpec{
			{label: "startup", prompt: sessionPrompt, output: "stream-hooks"},
			{label: "resume", prompt: "Resume the hook session.", output: "stream-hooks", resume: true},
			{label: "command", prompt: "/greet world", output: "stream-hooks", resume: true},
			{label: "compact", prompt: "/compact", output: "stream-hooks", resume: true},
			{label: "clear", prompt: "/clear", output: "stream-hooks", resume: true},
		},
	}
}
