package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// TestACPPromptStreamsTextAndEndsTurn drives `mini-claude acp` with the
// official ACP client library: initialize, a new session, and a prompt whose
// answer arrives as agent_thought_chunk and agent_message_chunk updates and
// ends with end_turn.
func TestACPPromptStreamsTextAndEndsTurn(t *testing.T) {
	r := newRun(t)
	r.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Thinking("The user wants a greeting.", "sig"), llmtest.Text("Hello from the agent.")}})
	res := r.runACP(acpScenario{Steps: []acpStep{{Op: "new"}, {Op: "prompt", Text: "say hello"}}})
	if res.Initialize.ProtocolVersion != 1 || !res.Initialize.AgentCapabilities.LoadSession || res.Initialize.AgentInfo.Name != "mini-claude" {
		t.Errorf("initialize: %+v", res.Initialize)
	}
	newSession, prompt := res.Steps[0], res.Steps[1]
	if newSession.Response.SessionID == "" || newSession.Response.Modes.CurrentModeID != "default" || len(newSession.Response.Modes.AvailableModes) != 4 {
		t.Errorf("session/new: %+v", newSession.Response)
	}
	if prompt.Response.StopReason != "end_turn" {
		t.Errorf("stop reason %q, want end_turn", prompt.Response.StopReason)
	}
	if got := chunks(prompt.Updates, "agent_message_chunk"); got != "Hello from the agent." {
		t.Errorf("agent message chunks %q", got)
	}
	if got := chunks(prompt.Updates, "agent_thought_chunk"); got != "The user wants a greeting." {
		t.Errorf("agent thought chunks %q", got)
	}
	if len(prompt.SessionIDs) != 1 || prompt.SessionIDs[0] != newSession.Response.SessionID {
		t.Errorf("updates name sessions %q, want %q", prompt.SessionIDs, newSession.Response.SessionID)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 1 || userTexts(reqs[0])[len(userTexts(reqs[0]))-1] != "say hello" {
		t.Errorf("the model got %d requests, want one with the prompt", len(reqs))
	}
}

// TestACPReadEditTurnReportsToolCalls: a TodoWrite, a Read and an Edit reach
// the editor as the plan and as tool calls with their kind, title, files,
// status as they run and end, and the Edit's diff.
func TestACPReadEditTurnReportsToolCalls(t *testing.T) {
	r := newRun(t)
	path := r.acpFile("greet.go", "package main\n\nconst greeting = \"helo\"\n")
	r.srv.Push(
		calls(llmtest.ToolUse("todo", "TodoWrite", toolInput(t, map[string]any{"todos": []map[string]any{
			{"content": "Fix the typo", "status": "in_progress", "activeForm": "Fixing the typo"},
			{"content": "Check the build", "status": "pending", "activeForm": "Checking the build"}}}))),
		readTurn(t, path),
		editTurn(t, "edit", path, `"helo"`, `"hello"`),
		text("Fixed."),
	)
	res := r.runACP(acpScenario{Args: []string{"--allowedTools", "Edit"}, Steps: []acpStep{{Op: "new"}, {Op: "prompt", Text: "fix the typo"}}})
	prompt := res.Steps[1]
	if prompt.Response.StopReason != "end_turn" || chunks(prompt.Updates, "agent_message_chunk") != "Fixed." {
		t.Errorf("stop %q, text %q", prompt.Response.StopReason, chunks(prompt.Updates, "agent_message_chunk"))
	}
	var plan *acpUpdate
	for i, u := range prompt.Updates {
		if u.SessionUpdate == "plan" {
			plan = &prompt.Updates[i]
		}
	}
	if plan == nil || len(plan.Entries) != 2 || plan.Entries[0].Content != "Fix the typo" || plan.Entries[0].Status != "in_progress" || plan.Entries[1].Status != "pending" {
		t.Errorf("plan update %+v", plan)
	}
	read := callUpdates(prompt.Updates, "read")
	if len(read) != 3 || read[0].SessionUpdate != "tool_call" || read[0].Kind != "read" || read[0].Title != "Read "+path ||
		len(read[0].Locations) != 1 || read[0].Locations[0].Path != path {
		t.Fatalf("Read's updates %+v", read)
	}
	if read[1].Status != "in_progress" || read[2].Status != "completed" || !strings.Contains(read[2].toolContent()[0].Content.Text, `const greeting = "helo"`) {
		t.Errorf("Read's progress %+v", read[1:])
	}
	edit := callUpdates(prompt.Updates, "edit")
	if len(edit) != 3 || edit[0].Kind != "edit" || edit[0].Status != "pending" || edit[2].Status != "completed" {
		t.Fatalf("Edit's updates %+v", edit)
	}
	for _, u := range []acpUpdate{edit[0], edit[2]} {
		diff := u.toolContent()
		if len(diff) != 1 || diff[0].Type != "diff" || diff[0].Path != path || diff[0].OldText == nil || *diff[0].OldText != `"helo"` || diff[0].NewText != `"hello"` {
			t.Errorf("Edit's diff %+v", diff)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != "package main\n\nconst greeting = \"hello\"\n" {
		t.Errorf("file holds %q", data)
	}
}

// TestACPFileToolsUseTheEditorsBuffers: when the editor offers fs/read_text_file
// and fs/write_text_file, Read sees its unsaved buffer and Edit writes through it.
func TestACPFileToolsUseTheEditorsBuffers(t *testing.T) {
	r := newRun(t)
	path := r.acpFile("notes.txt", "saved text\n")
	r.srv.Push(
		readTurn(t, path),
		editTurn(t, "edit", path, "unsaved", "edited"),
		text("done"),
	)
	res := r.runACP(acpScenario{Args: []string{"--allowedTools", "Edit"}, ClientFs: true, Buffers: map[string]string{path: "unsaved text\n"},
		Steps: []acpStep{{Op: "new"}, {Op: "prompt", Text: "edit the notes"}}})
	if got := contentText(lastResults(t, r.srv, 1)[0]); !strings.Contains(got, "unsaved text") {
		t.Errorf("Read gave the model %q, want the editor's unsaved buffer", got)
	}
	if len(res.Reads) < 2 || res.Reads[0] != path {
		t.Errorf("the editor was asked to read %q", res.Reads)
	}
	if len(res.Writes) != 1 || res.Writes[0].Path != path || res.Writes[0].Content != "edited text\n" {
		t.Errorf("the editor was asked to write %+v", res.Writes)
	}
	if results := lastResults(t, r.srv, 2); results[0].IsError {
		t.Errorf("Edit failed: %s", contentText(results[0]))
	}
}

// TestACPPermissionAllowAndReject: an Edit the rules do not allow is put to
// the editor as session/request_permission; allow lets it change the file,
// reject leaves the file as it was and tells the model.
func TestACPPermissionAllowAndReject(t *testing.T) {
	r := newRun(t)
	path := r.acpFile("app.txt", "one\n")
	r.srv.Push(
		readTurn(t, path),
		editTurn(t, "e1", path, "one", "two"),
		text("changed"),
		editTurn(t, "e2", path, "two", "three"),
		text("refused"),
	)
	res := r.runACP(acpScenario{PermissionAnswers: []string{"allow", "reject"},
		Steps: []acpStep{{Op: "new"}, {Op: "prompt", Text: "change it"}, {Op: "prompt", Text: "change it again"}}})
	if len(res.Permissions) != 2 {
		t.Fatalf("%d permission requests, want 2", len(res.Permissions))
	}
	ask := res.Permissions[0]
	var kinds []string
	for _, o := range ask.Options {
		kinds = append(kinds, o.Kind)
	}
	if strings.Join(kinds, ",") != "allow_once,allow_always,reject_once" {
		t.Errorf("options %q", kinds)
	}
	if ask.ToolCall.ToolCallID != "e1" || ask.ToolCall.Kind != "edit" || !strings.HasPrefix(ask.ToolCall.Title, "Edit "+path) {
		t.Errorf("the request's call %+v", ask.ToolCall)
	}
	if diff := ask.ToolCall.toolContent(); len(diff) != 1 || diff[0].Type != "diff" || diff[0].NewText != "two" {
		t.Errorf("the request's diff %+v", diff)
	}
	if e2 := callUpdates(res.Steps[2].Updates, "e2"); len(e2) == 0 || e2[len(e2)-1].Status != "failed" {
		t.Errorf("the refused call's updates %+v", e2)
	}
	if got := contentText(lastResults(t, r.srv, 4)[0]); !strings.Contains(got, "The user refused this Edit call") {
		t.Errorf("the model was told %q", got)
	}
	if data, _ := os.ReadFile(path); string(data) != "two\n" {
		t.Errorf("file holds %q, want the allowed edit only", data)
	}
}

// TestACPAllowAlwaysInATrustedFolder: "allow always" answers the session's
// later asks of the same rule and is saved to the project's local settings.
func TestACPAllowAlwaysInATrustedFolder(t *testing.T) {
	r := newRun(t)
	r.trust(false)
	path := r.acpFile("app.txt", "one\n")
	r.srv.Push(
		readTurn(t, path),
		editTurn(t, "e1", path, "one", "two"),
		editTurn(t, "e2", path, "two", "three"),
		text("done"),
	)
	res := r.runACP(acpScenario{PermissionAnswers: []string{"allow_always"}, Steps: []acpStep{{Op: "new"}, {Op: "prompt", Text: "change it twice"}}})
	if len(res.Permissions) != 1 {
		t.Errorf("%d permission requests, want 1: the second Edit is allowed by the answer", len(res.Permissions))
	}
	if data, _ := os.ReadFile(path); string(data) != "three\n" {
		t.Errorf("file holds %q", data)
	}
	saved, _ := os.ReadFile(filepath.Join(r.dir, ".mini-claude", "settings.local.json"))
	if !strings.Contains(string(saved), `"Edit(`) {
		t.Errorf("local settings %s, want the Edit rule saved", saved)
	}
}

// TestACPUntrustedFolderIsTreatedAsHeadless: in a folder the user has not
// trusted, its settings' allow rules do not apply (the Edit is asked about)
// and the notice goes to stderr, never to stdout.
func TestACPUntrustedFolderIsTreatedAsHeadless(t *testing.T) {
	r := newRun(t)
	os.MkdirAll(filepath.Join(r.dir, ".claude"), 0o755)
	os.WriteFile(filepath.Join(r.dir, ".claude", "settings.json"), []byte(`{"permissions": {"allow": ["Edit"]}}`), 0o644)
	path := r.acpFile("app.txt", "one\n")
	r.srv.Push(
		readTurn(t, path),
		editTurn(t, "e1", path, "one", "two"),
		text("done"),
	)
	res := r.runACP(acpScenario{PermissionAnswers: []string{"reject"}, Steps: []acpStep{{Op: "new"}, {Op: "prompt", Text: "change it"}}})
	if len(res.Permissions) != 1 {
		t.Errorf("%d permission requests, want the Edit asked about: the untrusted folder's allow rule is ignored", len(res.Permissions))
	}
	if !strings.Contains(res.Stderr, "This folder is not trusted") {
		t.Errorf("stderr %q, want the trust notice", res.Stderr)
	}
	if data, _ := os.ReadFile(path); string(data) != "one\n" {
		t.Errorf("file holds %q", data)
	}
}

// TestACPSetModeSwitchesPermissionMode: plan mode refuses an Edit without
// asking; acceptEdits runs it without asking.
func TestACPSetModeSwitchesPermissionMode(t *testing.T) {
	r := newRun(t)
	path := r.acpFile("app.txt", "one\n")
	r.srv.Push(
		readTurn(t, path),
		editTurn(t, "e1", path, "one", "two"),
		text("planned"),
		editTurn(t, "e2", path, "one", "two"),
		text("edited"),
	)
	res := r.runACP(acpScenario{Steps: []acpStep{{Op: "new"}, {Op: "setMode", Mode: "plan"}, {Op: "prompt", Text: "plan it"},
		{Op: "setMode", Mode: "acceptEdits"}, {Op: "prompt", Text: "do it"}}})
	if len(res.Permissions) != 0 {
		t.Errorf("%d permission requests, want none", len(res.Permissions))
	}
	if got := contentText(lastResults(t, r.srv, 2)[0]); !strings.Contains(got, "plan mode") {
		t.Errorf("in plan mode the model was told %q", got)
	}
	if data, _ := os.ReadFile(path); string(data) != "two\n" {
		t.Errorf("file holds %q, want the acceptEdits edit", data)
	}
}
