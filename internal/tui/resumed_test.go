package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/session"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/bash"
	"github.com/mini-claude/mini-claude/internal/tools/edit"
	"github.com/mini-claude/mini-claude/internal/tools/read"
)

// recordedCall is a call run for real, with what a live UI and a transcript get of it.
type recordedCall struct {
	use    llm.ContentBlock
	result llm.ContentBlock
	output any
	kept   session.ToolResult
}

// runCall runs a real tool on env and records the call as the agent and the
// transcript would: the tool_result, the typed output and its JSON.
func runCall(t *testing.T, env *tool.Env, tl tool.Tool, id, input string) recordedCall {
	t.Helper()
	res, err := tool.Exec(context.Background(), tl, env, json.RawMessage(input), func(tool.ProgressEvent) {})
	if err != nil {
		t.Fatalf("%s: %v", tl.Name(), err)
	}
	stored, err := json.Marshal(res.Output)
	if err != nil {
		t.Fatal(err)
	}
	return recordedCall{
		use:    llm.ContentBlock{Type: llm.BlockToolUse, ID: id, Name: tl.Name(), Input: json.RawMessage(input)},
		result: llm.ToolResultBlock(id, res.Content, false),
		output: res.Output, kept: session.ToolResult{Output: stored},
	}
}

// toolScreens renders the tool blocks of m's conversation, condensed and full.
func toolScreens(m *model) string {
	var b strings.Builder
	for _, full := range []bool{false, true} {
		for _, blk := range m.conv.blocks {
			if blk.kind == blockTool {
				b.WriteString(ansi.Strip(strings.Join(m.render.block(blk, 100, full), "\n")) + "\n")
			}
		}
	}
	return b.String()
}

func withTools(m *model, tools ...tool.Tool) *model {
	m.render.tools = toolLookup(func() []tool.Tool { return tools })
	return m
}

// TestResumedCallsAreDrawnAsLiveOnes resumes a conversation with a Read, an
// Edit, a refused and a failed call: each is drawn, through the tool's hooks,
// as a live call with the output in its storage form, which a resumed
// session keeps as Claude Code's does.
func TestResumedCallsAreDrawnAsLiveOnes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(path, []byte("one\ntwo\nthree\nfour\nfive\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := &tool.Env{Cwd: dir, Session: tool.NewSession(dir)}
	readCall := runCall(t, env, read.Tool, "r1", `{"file_path":"`+path+`"}`)
	editCall := runCall(t, env, edit.Tool, "e1", `{"file_path":"`+path+`","old_string":"three","new_string":"THREE"}`)
	refused := llm.ToolResultBlock("b1", []llm.ContentBlock{llm.TextBlock("The user refused this Bash call.")}, true)
	failed := llm.ToolResultBlock("b2", []llm.ContentBlock{llm.TextBlock("Exit code 1\nboom")}, true)
	bashUse := func(id string) llm.ContentBlock {
		return llm.ContentBlock{Type: llm.BlockToolUse, ID: id, Name: "Bash", Input: json.RawMessage(`{"command":"rm -rf build"}`)}
	}

	live := withTools(testModel(t, Options{}), read.Tool, edit.Tool, bash.Tool)
	for _, c := range []recordedCall{readCall, editCall} {
		live.Update(eventMsg{agent.ToolQueued{ID: c.use.ID, Name: c.use.Name, Input: c.use.Input}})
		// A resumed call keeps the storage form (a Read without its content).
		live.Update(eventMsg{agent.ToolFinished{ID: c.use.ID, Name: c.use.Name, Result: c.result, Output: tool.Stored(c.output)}})
	}
	live.Update(eventMsg{agent.ToolQueued{ID: "b1", Name: "Bash", Input: bashUse("b1").Input}})
	live.Update(eventMsg{agent.PermissionDenied{Denial: agent.Denial{ToolUseID: "b1"}, Message: "The user refused this Bash call."}})
	live.Update(eventMsg{agent.ToolFinished{ID: "b1", Name: "Bash", Result: refused}})
	live.Update(eventMsg{agent.ToolQueued{ID: "b2", Name: "Bash", Input: bashUse("b2").Input}})
	live.Update(eventMsg{agent.ToolFinished{ID: "b2", Name: "Bash", Result: failed}})

	resumed := Resumed{
		Messages: []llm.Message{
			llm.UserText("tidy the notes"),
			{Role: llm.RoleAssistant, Content: []llm.ContentBlock{readCall.use, editCall.use, bashUse("b1"), bashUse("b2")}},
			{Role: llm.RoleUser, Content: []llm.ContentBlock{readCall.result, editCall.result, refused, failed}},
		},
		Results: map[string]session.ToolResult{"r1": readCall.kept, "e1": editCall.kept, "b1": {Rejected: true}},
	}
	m := withTools(testModel(t, Options{}), read.Tool, edit.Tool, bash.Tool)
	m.showConversation(resumed)
	want, got := toolScreens(live), toolScreens(m)
	if got != want {
		t.Fatalf("resumed calls drawn as\n%s\nwant, as when they ran,\n%s", got, want)
	}
	for _, s := range []string{"Read(", "Edit(", "THREE", "Rejected", "boom"} {
		if !strings.Contains(got, s) {
			t.Errorf("the resumed calls do not show %q:\n%s", s, got)
		}
	}
	if strings.Contains(got, "    2 two") {
		t.Errorf("the resumed Read shows content a resumed session does not keep:\n%s", got)
	}
}

// TestResumedCallWithoutKeptOutputFallsBackToItsText: a transcript written
// before outputs were kept, an MCP tool, or an output of another shape is
// drawn from the tool_result text, as the generic renderer draws a result.
func TestResumedCallWithoutKeptOutputFallsBackToItsText(t *testing.T) {
	use := llm.ContentBlock{Type: llm.BlockToolUse, ID: "r1", Name: "Read", Input: json.RawMessage(`{"file_path":"/x/a.go"}`)}
	result := llm.ToolResultBlock("r1", []llm.ContentBlock{llm.TextBlock("1\tpackage main")}, false)
	msgs := []llm.Message{{Role: llm.RoleAssistant, Content: []llm.ContentBlock{use}}, {Role: llm.RoleUser, Content: []llm.ContentBlock{result}}}
	for name, kept := range map[string]map[string]session.ToolResult{
		"nothing kept":       nil,
		"another shape kept": {"r1": {Output: json.RawMessage(`{"type":"text","lines":3}`)}},
	} {
		m := withTools(testModel(t, Options{}), read.Tool)
		m.showConversation(Resumed{Messages: msgs, Results: kept})
		if s := screenOf(m); !strings.Contains(s, "package main") {
			t.Errorf("%s: the result text is not shown:\n%s", name, s)
		}
	}
}

// TestCompactionSummaryOpensWithCtrlO: the compaction notice hides the
// summary the model got until ctrl+o shows it, rendered as markdown; a
// resumed conversation shows its summary the same way, not as a prompt.
func TestCompactionSummaryOpensWithCtrlO(t *testing.T) {
	summary := agentSummary("<summary>\nThe user is **fixing** the parser.\n</summary>\n\n<files-read>\n/src/a.go\n/src/b.go\n</files-read>")
	live := testModel(t, Options{})
	live.Update(eventMsg{agent.Compacted{MessagesSummarized: 6, PreTokens: 9000, PostTokens: 700, Message: llm.UserText(summary)}})
	resumed := testModel(t, Options{Resumed: Resumed{Messages: []llm.Message{
		{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(summary), llm.TextBlock("go on")}},
	}}})
	resumed.Init()
	for name, m := range map[string]*model{"live": live, "resumed": resumed} {
		s := screenOf(m)
		if !strings.Contains(s, "Conversation compacted") || !strings.Contains(s, "ctrl+o for the summary") || strings.Contains(s, "fixing") {
			t.Fatalf("%s: the condensed compaction:\n%s", name, s)
		}
		m.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
		s = screenOf(m)
		if !strings.Contains(s, "The user is fixing the parser.") || strings.Contains(s, "**") || strings.Contains(s, "<summary>") ||
			!strings.Contains(s, "/src/a.go\n") || !strings.Contains(s, "ctrl+o to hide") {
			t.Fatalf("%s: ctrl+o did not show the summary as markdown:\n%s", name, s)
		}
		m.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
		if strings.Contains(screenOf(m), "fixing") {
			t.Fatalf("%s: ctrl+o again did not hide the summary:\n%s", name, screenOf(m))
		}
	}
	if s := screenOf(resumed); strings.Contains(s, "> This session") || !strings.Contains(s, "> go on") {
		t.Errorf("the resumed summary is shown as a prompt:\n%s", s)
	}
}

// agentSummary is a compacted history's message with summary in it.
func agentSummary(summary string) string {
	return "This session is being continued from a previous conversation that ran out of context.\n\n" + summary
}

// TestMouseWheelScrollsTheConversation: a notch of the wheel scrolls a few
// lines back and forth, and the view asks for the mouse reports it needs.
func TestMouseWheelScrollsTheConversation(t *testing.T) {
	m := testModel(t, Options{})
	for i := range 100 {
		m.conv.add(&block{kind: blockUser, text: "prompt " + itoa(i)})
	}
	if v := m.View(); v.MouseMode != tea.MouseModeCellMotion {
		t.Fatalf("mouse mode %v, want cell motion for the wheel", v.MouseMode)
	}
	bottom := screenOf(m)
	for range 10 {
		m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	}
	up := screenOf(m)
	if m.conv.offset != 10*wheelLines || !strings.Contains(up, "prompt 84") || strings.Contains(up, "prompt 99") {
		t.Fatalf("after 10 notches up (offset %d):\n%s", m.conv.offset, up)
	}
	for range 20 {
		m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	}
	if m.conv.offset != 0 || screenOf(m) != bottom {
		t.Fatalf("wheel down did not come back to the bottom (offset %d)", m.conv.offset)
	}
	if !slices.ContainsFunc(strings.Split(helpText(m), "\n"), func(l string) bool { return strings.Contains(l, "mouse wheel") }) {
		t.Error("/help does not mention the mouse wheel")
	}
}

func helpText(m *model) string {
	m.cmdHelp("")
	return m.conv.blocks[len(m.conv.blocks)-1].body
}

// TestAFinishedEditKeepsNotTheWholeFile: an Edit's output holds the whole
// file it changed; the UI keeps the slim output its hooks draw from.
func TestAFinishedEditKeepsNotTheWholeFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("filler line\n", 5000)+"needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := &tool.Env{Cwd: dir, Session: tool.NewSession(dir)}
	runCall(t, env, read.Tool, "r1", `{"file_path":"`+path+`"}`)
	c := runCall(t, env, edit.Tool, "e1", `{"file_path":"`+path+`","old_string":"needle","new_string":"pin"}`)
	if c.output.(edit.Output).OriginalFile == "" {
		t.Fatal("the Edit's output lacks the original file")
	}
	m := withTools(testModel(t, Options{}), edit.Tool)
	m.Update(eventMsg{agent.ToolQueued{ID: "e1", Name: "Edit", Input: c.use.Input}})
	m.Update(eventMsg{agent.ToolFinished{ID: "e1", Name: "Edit", Result: c.result, Output: c.output}})
	kept, ok := m.conv.tools["e1"].call.output.(edit.Output)
	if !ok || kept.OriginalFile != "" || len(kept.StructuredPatch) == 0 {
		t.Errorf("the UI keeps %#v, want the Edit's output without the original file", m.conv.tools["e1"].call.output)
	}
	if s := screenOf(m); !strings.Contains(s, "5001 + pin") {
		t.Errorf("the kept output does not draw the change:\n%s", s)
	}
}

// TestAWaitingCallIsDrawnOncePerWidth: an Edit's or a Write's drawing while
// it waits reads and diffs the file, so frames reuse it until the width
// changes.
func TestAWaitingCallIsDrawnOncePerWidth(t *testing.T) {
	draws := 0
	slow := slowPreview(&draws)
	m := withTools(testModel(t, Options{}), slow)
	m.Update(eventMsg{agent.ToolQueued{ID: "s1", Name: "Slow", Input: json.RawMessage(`{"file_path":"/x"}`)}})
	for range 5 {
		if s := screenOf(m); !strings.Contains(s, "drawing 1") {
			t.Fatalf("the waiting call is not drawn:\n%s", s)
		}
	}
	if draws != 1 {
		t.Errorf("5 frames drew the waiting call %d times, want once", draws)
	}
	m.Update(tea.WindowSizeMsg{Width: 70, Height: 30})
	screenOf(m)
	if draws != 2 {
		t.Errorf("after a resize the waiting call was drawn %d times in all, want 2", draws)
	}
}

// TestAWaitingCallIsDrawnAgainWhenAnotherFinishes: the call that finished
// may have changed the file a waiting Edit previews.
func TestAWaitingCallIsDrawnAgainWhenAnotherFinishes(t *testing.T) {
	draws := 0
	slow := slowPreview(&draws)
	m := withTools(testModel(t, Options{}), slow)
	m.Update(eventMsg{agent.ToolQueued{ID: "s1", Name: "Slow", Input: json.RawMessage(`{"file_path":"/x"}`)}})
	m.Update(eventMsg{agent.ToolQueued{ID: "s2", Name: "Slow", Input: json.RawMessage(`{"file_path":"/x"}`)}})
	screenOf(m)
	m.Update(eventMsg{agent.ToolFinished{ID: "s1", Name: "Slow", Result: llm.ToolResultBlock("s1", []llm.ContentBlock{llm.TextBlock("ok")}, false), Output: ""}})
	if s := screenOf(m); !strings.Contains(s, "drawing 3") {
		t.Errorf("the waiting call was not drawn again after the other finished:\n%s", s)
	}
}

// slowPreview is a tool whose waiting calls draw "drawing N", N counting the
// drawings in *draws, like an Edit's preview that reads and diffs its file.
func slowPreview(draws *int) tool.Tool {
	type in struct {
		FilePath string `json:"file_path"`
	}
	return tool.MustBuild(tool.Def[in, string]{
		Name: "Slow", Description: "draws slowly", MaxResultSizeChars: 100,
		Call: func(context.Context, in, *tool.Env, tool.Progress) (string, error) { return "", nil },
		RenderQueued: func(in, tool.RenderOptions) tool.Text {
			*draws++
			return render.Styled(fmt.Sprintf("drawing %d", *draws), tool.StylePlain)
		},
	})
}
