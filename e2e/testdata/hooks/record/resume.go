package main

import "github.com/mini-claude/mini-claude/internal/llm/llmtest"

// resumeScenario logs every event of a session resumed around a compaction:
// a prompt; /compact; a prompt resumed after it; then the UI opened on the
// session (--resume) and /compact there, then /exit. It answers what
// SessionStart hooks get on resume when the conversation has a response
// since its compaction and when it has none, and in the UI on resume and
// after /compact.
func resumeScenario() scenario {
	const prompt = "Start the resumed session."
	return scenario{
		name:     "resume",
		events:   "events/resume",
		settings: logEverything(map[string]any{"allow": []string{}}),
		convos: func(s *scratch) []convo {
			return []convo{
				{match: summaryText, turns: []llmtest.Turn{text("After the compaction.")}},
				{match: prompt, turns: []llmtest.Turn{text("Started.")}},
			}
		},
		runs: []runSpec{
			{label: "startup", prompt: prompt, output: "stream-hooks"},
			{label: "compact", prompt: "/compact", output: "stream-hooks", resume: true},
			{label: "after", prompt: "Go on after the compaction.", output: "stream-hooks", resume: true},
		},
		tui: &tuiScript{resume: true, steps: []tuiStep{
			{waitLog: `"source":"resume"`},
			{waitScreen: "? for shortcuts"},
			{keys: []string{"/compact", "Enter"}},
			{waitLog: `"source":"compact"`},
			{keys: []string{"/exit", "Enter"}},
			{waitLog: `"hook_event_name":"SessionEnd"`},
		}},
	}
}
