package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// scenario is one scripted session of Claude Code and what is kept of it.
type scenario struct {
	name  string
	files map[string]string // project files besides a.txt ("hello\n")
	// settings is the project's .claude/settings.json.
	settings func(s *scratch) map[string]any
	// convos script the model: the conversations it answers.
	convos func(s *scratch) []convo
	runs   []runSpec
	// events, when set, names the folder (under the output folder) that the
	// inputs of the scenario's hooks are written to as event goldens, one
	// file per event; the other scenarios are effect goldens.
	events string
	// tui runs claude interactively in tmux instead of the runs.
	tui *tuiScript
	// queue, when set, is served in order (faults included) in place of convos.
	queue []llmtest.Turn
	// settle is waited after the runs before the project's files are listed.
	settle time.Duration
	// untrusted leaves the project untrusted; the others are marked trusted
	// in the scratch HOME's .claude.json, as accepting the trust dialog does.
	untrusted bool
}

// convo is the script of one conversation: a request whose first user
// message has a text block containing match gets turns[i], i being the
// number of assistant messages in its history (the last turn past the end).
type convo struct {
	match string
	turns []llmtest.Turn
}

// runSpec is one run of claude -p in a scenario.
type runSpec struct {
	label  string
	prompt string
	// output is "stream" (stream-json --verbose), "stream-hooks" (with
	// --include-hook-events too) or "text".
	output string
	resume bool // --resume the session of the scenario's first run
	extra  []string
	// requests keeps the run's model requests as requests_<label>.json (the
	// "stream" run's are always kept, as requests.json).
	requests bool
}

// summaryText is the scripted summary of a compaction.
const summaryText = "SUMMARY: the hook session read, ran, wrote and edited files."

// summaryTurn answers a compaction request the way the model is asked to.
var summaryTurn = text("<analysis>\nThe session ran its steps.\n</analysis>\n\n<summary>\n" + summaryText + "\n</summary>")

// respond answers one request of the scenario.
func (sc scenario) respond(s *scratch, req llmtest.Request) (llmtest.Turn, bool) {
	if isCompaction(req) {
		return summaryTurn, true
	}
	first := ""
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser {
			for _, b := range m.Content {
				if b.Type == llm.BlockText {
					first += b.Text + "\n"
				}
			}
			break
		}
	}
	for _, c := range sc.convos(s) {
		if strings.Contains(first, c.match) {
			return c.turns[min(req.AssistantTurns(), len(c.turns)-1)], true
		}
	}
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("(unscripted)")}}, false
}

// isCompaction tells the request that asks for a summary of the conversation.
func isCompaction(req llmtest.Request) bool {
	if len(req.Messages) == 0 {
		return false
	}
	last := req.Messages[len(req.Messages)-1]
	return last.Role == llm.RoleUser && strings.Contains(last.Text(), "Your task is to create a detailed summary")
}

// Turn builders for the scripts.

func text(s string) llmtest.Turn {
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(s)}}
}

func tool(name string, input any) llmtest.Turn {
	data, err := json.Marshal(input)
	if err != nil {
		panic(err)
	}
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", name, string(data))}}
}

func bash(command, description string) llmtest.Turn {
	return tool("Bash", map[string]string{"command": command, "description": description})
}

// hooks is the "hooks" setting: event -> matcher groups.
type hooks map[string][]map[string]any

// group is a matcher group of one or more hook commands; matcher "" leaves
// the matcher out.
func group(matcher string, commands ...any) map[string]any {
	g := map[string]any{}
	if matcher != "" {
		g["matcher"] = matcher
	}
	var hs []any
	for _, c := range commands {
		switch c := c.(type) {
		case string:
			hs = append(hs, map[string]any{"type": "command", "command": c})
		default:
			hs = append(hs, c)
		}
	}
	g["hooks"] = hs
	return g
}

// path is a file of the scratch project.
func (s *scratch) path(name string) string { return filepath.Join(s.proj, name) }

// allEvents are the hook events of Claude Code 2.1.332, in the order of its
// list of events (the array holding every "hook_event_name" value of cli.js).
var allEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
	"UserPromptSubmit", "UserPromptExpansion", "SessionStart", "SessionEnd", "Stop", "StopFailure",
	"SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "PreModelSwitch", "PostModelSwitch",
	"PermissionRequest", "PermissionDenied", "Setup", "TeammateIdle", "TaskCreated", "TaskCompleted",
	"Elicitation", "ElicitationResult", "ConfigChange", "WorktreeCreate", "WorktreeRemove",
	"InstructionsLoaded", "CwdChanged", "FileChanged", "DirectoryAdded", "MessageDisplay", "PreSkillShellCommand"}

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return string(data)
}
