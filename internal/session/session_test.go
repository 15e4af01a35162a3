package session

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// setup points the per-user folder at a temporary one and returns a project directory.
func setup(t *testing.T) string {
	t.Helper()
	t.Setenv(config.HomeEnv, filepath.Join(t.TempDir(), "home"))
	return t.TempDir()
}

func use(id, name, input string) llm.ContentBlock {
	return llm.ContentBlock{Type: llm.BlockToolUse, ID: id, Name: name, Input: json.RawMessage(input)}
}

func result(id, text string, isError bool) llm.ContentBlock {
	return llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock(text)}, isError)
}

func user(blocks ...llm.ContentBlock) llm.Message {
	return llm.Message{Role: llm.RoleUser, Content: blocks}
}

func assistant(blocks ...llm.ContentBlock) llm.Message {
	return llm.Message{Role: llm.RoleAssistant, Content: blocks}
}

func interrupted(id string) llm.ContentBlock { return result(id, InterruptedResult, true) }

// conversation writes msgs to a new transcript as a run's events would.
func conversation(t *testing.T, cfg Config, msgs ...llm.Message) *Transcript {
	t.Helper()
	tr, err := Create(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range msgs {
		if m.Role == llm.RoleUser {
			tr.OnEvent(agent.UserMessage{Message: m})
			continue
		}
		tr.OnEvent(agent.AssistantMessage{ID: "msg_" + string(rune('a'+i)), Message: m, Model: "claude-sonnet-4-5",
			StopReason: llm.StopToolUse, Usage: llm.Usage{InputTokens: 1000, OutputTokens: 100}})
	}
	if err := tr.Err(); err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestRoundTrip(t *testing.T) {
	project := setup(t)
	msgs := []llm.Message{
		user(llm.TextBlock("list the <files> & count them")),
		assistant(llm.TextBlock("Listing."), use("t1", "Bash", `{"command":"ls"}`)),
		user(result("t1", "a.go\nb.go", false)),
		assistant(llm.TextBlock("Two files.")),
	}
	tr := conversation(t, Config{Project: project, ID: NewID(), Version: "9.9.9"}, msgs...)
	tr.Close()
	loaded, err := Load(tr.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(loaded.Messages, msgs) || len(loaded.Warnings) != 0 || loaded.Interrupted != nil {
		t.Fatalf("loaded %s, warnings %q", mustJSON(loaded.Messages), loaded.Warnings)
	}
	var parent *string
	for i, line := range loaded.Lines {
		if !reflect.DeepEqual(line.ParentUUID, parent) || line.SessionID != tr.ID() || line.Cwd != project || line.Version != "9.9.9" {
			t.Errorf("line %d: parent %v (want %v), session %s, cwd %s, version %s", i, line.ParentUUID, parent, line.SessionID, line.Cwd, line.Version)
		}
		if _, err := time.Parse(time.RFC3339, line.Timestamp); err != nil {
			t.Errorf("line %d: timestamp %q: %v", i, line.Timestamp, err)
		}
		parent = &loaded.Lines[i].UUID
	}
	last := loaded.Lines[3].Message
	if last.Model != "claude-sonnet-4-5" || last.Usage.InputTokens != 1000 || *last.StopReason != "tool_use" || last.ID != "msg_d" {
		t.Errorf("assistant line %+v", last)
	}
	data, _ := os.ReadFile(tr.Path())
	if !bytes.Contains(data, []byte(`list the <files> & count them`)) {
		t.Errorf("HTML characters escaped in %s", data)
	}
	if info, _ := os.Stat(tr.Path()); info.Mode().Perm() != 0o600 {
		t.Errorf("transcript mode %v, want 0600", info.Mode().Perm())
	}
}

func TestCreateRefusesAnExistingSession(t *testing.T) {
	project := setup(t)
	cfg := Config{Project: project, ID: NewID()}
	conversation(t, cfg, user(llm.TextBlock("hi"))).Close()
	if _, err := Create(cfg); err == nil || !strings.Contains(err.Error(), "--resume "+cfg.ID) {
		t.Errorf("Create of an existing session: %v", err)
	}
}

func TestTruncatedLastLine(t *testing.T) {
	project := setup(t)
	cfg := Config{Project: project, ID: NewID()}
	tr := conversation(t, cfg, user(llm.TextBlock("first")), assistant(llm.TextBlock("answer")))
	tr.Close()
	whole, _ := os.ReadFile(tr.Path())
	torn := `{"parentUuid":"x","type":"user","message":{"role":"user","content":[{"type":"te`
	if err := os.WriteFile(tr.Path(), append(bytes.Clone(whole), torn...), 0o600); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(tr.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Messages) != 2 || len(loaded.Warnings) != 1 || !strings.Contains(loaded.Warnings[0], "cut off mid-write") {
		t.Fatalf("messages %d, warnings %q", len(loaded.Messages), loaded.Warnings)
	}
	resumed, err := Resume(cfg, loaded)
	if err != nil {
		t.Fatal(err)
	}
	resumed.OnEvent(agent.UserMessage{Message: user(llm.TextBlock("second"))})
	resumed.Close()
	data, _ := os.ReadFile(tr.Path())
	if !bytes.HasPrefix(data, whole) || bytes.Contains(data, []byte(torn)) {
		t.Fatalf("after resume the file is\n%s", data)
	}
	again, err := Load(tr.Path())
	if err != nil || len(again.Warnings) != 0 || len(again.Lines) != 3 || again.Messages[2].Text() != "second" {
		t.Fatalf("reload: %v, warnings %q, %s", err, again.Warnings, mustJSON(again.Messages))
	}
	if *again.Lines[2].ParentUUID != again.Lines[1].UUID {
		t.Errorf("the resumed line's parent is %s, want %s", *again.Lines[2].ParentUUID, again.Lines[1].UUID)
	}
}

func TestUnreadableMiddleLineIsSkipped(t *testing.T) {
	project := setup(t)
	tr := conversation(t, Config{Project: project, ID: NewID()}, user(llm.TextBlock("one")))
	tr.Close()
	f, _ := os.OpenFile(tr.Path(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not json\n\n")
	f.Close()
	loaded, err := Load(tr.Path())
	if err != nil || len(loaded.Warnings) != 1 || !strings.Contains(loaded.Warnings[0], "line 2 of") || len(loaded.Messages) != 1 {
		t.Fatalf("%v, warnings %q", err, loaded.Warnings)
	}
}

func TestRepair(t *testing.T) {
	tests := []struct {
		name            string
		in, want        []llm.Message
		wantInterrupted bool
	}{{
		name: "calls without results at the end",
		in:   []llm.Message{user(llm.TextBlock("go")), assistant(llm.TextBlock("a"), use("t1", "Bash", `{}`), use("t2", "Read", `{}`))},
		want: []llm.Message{user(llm.TextBlock("go")), assistant(llm.TextBlock("a"), use("t1", "Bash", `{}`), use("t2", "Read", `{}`)),
			user(interrupted("t1"), interrupted("t2"))},
		wantInterrupted: true,
	}, {
		name: "one result of two, then a prompt",
		in: []llm.Message{user(llm.TextBlock("go")), assistant(use("t1", "Bash", `{}`), use("t2", "Read", `{}`)),
			user(result("t2", "ok", false)), user(llm.TextBlock("next"))},
		want: []llm.Message{user(llm.TextBlock("go")), assistant(use("t1", "Bash", `{}`), use("t2", "Read", `{}`)),
			user(interrupted("t1"), result("t2", "ok", false), llm.TextBlock("next"))},
	}, {
		name: "a result answering nothing is dropped",
		in:   []llm.Message{user(llm.TextBlock("go")), assistant(llm.TextBlock("hi")), user(result("zz", "?", false)), user(llm.TextBlock("next"))},
		want: []llm.Message{user(llm.TextBlock("go")), assistant(llm.TextBlock("hi")), user(llm.TextBlock("next"))},
	}, {
		name: "assistant lines of one message are joined",
		in:   []llm.Message{user(llm.TextBlock("go")), assistant(llm.TextBlock("a")), assistant(use("t1", "Read", `{}`)), user(result("t1", "x", false))},
		want: []llm.Message{user(llm.TextBlock("go")), assistant(llm.TextBlock("a"), use("t1", "Read", `{}`)), user(result("t1", "x", false))},
	}, {
		name: "a valid conversation is left alone",
		in:   []llm.Message{user(llm.TextBlock("go")), assistant(use("t1", "Read", `{}`)), user(result("t1", "x", false)), assistant(llm.TextBlock("done"))},
		want: []llm.Message{user(llm.TextBlock("go")), assistant(use("t1", "Read", `{}`)), user(result("t1", "x", false)), assistant(llm.TextBlock("done"))},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, made := repair(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", mustJSON(got), mustJSON(tt.want))
			}
			if (made != nil) != tt.wantInterrupted || made != nil && !reflect.DeepEqual(*made, got[len(got)-1]) {
				t.Errorf("interrupted = %v", made)
			}
		})
	}
}

func TestResumeRecordsTheMadeUpResults(t *testing.T) {
	project := setup(t)
	cfg := Config{Project: project, ID: NewID()}
	conversation(t, cfg, user(llm.TextBlock("go")), assistant(use("t1", "Bash", `{"command":"sleep 100"}`))).Close()
	loaded, err := Load(Path(project, cfg.ID))
	if err != nil || loaded.Interrupted == nil {
		t.Fatalf("%v, interrupted %v", err, loaded.Interrupted)
	}
	tr, err := Resume(cfg, loaded)
	if err != nil {
		t.Fatal(err)
	}
	tr.Close()
	again, _ := Load(tr.Path())
	if again.Interrupted != nil || len(again.Lines) != 3 || !reflect.DeepEqual(again.Messages, loaded.Messages) {
		t.Errorf("after resume: %d lines, interrupted %v, %s", len(again.Lines), again.Interrupted, mustJSON(again.Messages))
	}
}

func TestFileStateRebuilt(t *testing.T) {
	project := setup(t)
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	remember := func(files *fileaccess.State, path string, full bool) {
		info, _ := os.Stat(path)
		data, _ := os.ReadFile(path)
		if full {
			files.RememberFull(path, data, info.ModTime())
		} else {
			files.RememberPart(path, info.ModTime())
		}
	}
	same, part, edited, touched, gone := write("same.txt", "same\n"), write("part.txt", "part\n"),
		write("edited.txt", "old\n"), write("touched.txt", "touch\n"), write("gone.txt", "bye\n")

	state := tool.NewSession(project)
	files := fileaccess.StateOf(&tool.Env{Session: state})
	cfg := Config{Project: project, ID: NewID(), State: state}
	tr, err := Create(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr.OnEvent(agent.UserMessage{Message: user(llm.TextBlock("read them"))})
	tr.OnEvent(agent.AssistantMessage{Message: assistant(use("r1", "Read", `{}`))})
	for _, p := range []string{same, edited, touched, gone} {
		remember(files, p, true)
	}
	remember(files, part, false)
	tr.OnEvent(agent.UserMessage{Message: user(result("r1", "ok", false))})
	tr.Close()

	later := time.Now().Add(2 * time.Second)
	os.WriteFile(edited, []byte("changed by someone else\n"), 0o644)
	os.Chtimes(edited, later, later)
	os.Chtimes(touched, later, later)
	os.Remove(gone)

	loaded, err := Load(tr.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Files) != 5 {
		t.Fatalf("the transcript holds %d file records, want 5: %v", len(loaded.Files), loaded.Files)
	}
	fresh := tool.NewSession(project)
	current, stale := loaded.RestoreFiles(fresh)
	if current != 3 || stale != 2 {
		t.Errorf("current %d, stale %d; want 3 and 2", current, stale)
	}
	got := fileaccess.StateOf(&tool.Env{Session: fresh})
	for path, wantChanged := range map[string]bool{same: false, part: false, touched: false, edited: true} {
		rec, ok := got.Lookup(path)
		if !ok {
			t.Errorf("%s: no record", filepath.Base(path))
			continue
		}
		if changed, err := fileaccess.Changed(path, rec); err != nil || changed != wantChanged {
			t.Errorf("%s: the restored record says changed=%v (%v), want %v", filepath.Base(path), changed, err, wantChanged)
		}
	}
	if rec, ok := got.Lookup(gone); !ok || rec.Full != true {
		t.Errorf("the record of a deleted file: %v %+v", ok, rec)
	}
	if rec, _ := got.Lookup(part); rec.Full {
		t.Error("a partly read file came back as fully read")
	}
}

func TestFileChangesAreRecordedOnce(t *testing.T) {
	project := setup(t)
	state := tool.NewSession(project)
	path := filepath.Join(t.TempDir(), "a.txt")
	os.WriteFile(path, []byte("a"), 0o644)
	info, _ := os.Stat(path)
	tr, _ := Create(Config{Project: project, ID: NewID(), State: state})
	fileaccess.StateOf(&tool.Env{Session: state}).RememberFull(path, []byte("a"), info.ModTime())
	tr.OnEvent(agent.UserMessage{Message: user(llm.TextBlock("one"))})
	tr.OnEvent(agent.UserMessage{Message: user(llm.TextBlock("two"))})
	tr.Close()
	loaded, _ := Load(tr.Path())
	if len(loaded.Lines[0].FileState) != 1 || loaded.Lines[1].FileState != nil {
		t.Errorf("file state on the lines: %v, %v", loaded.Lines[0].FileState, loaded.Lines[1].FileState)
	}
}

func mustJSON(v any) string {
	data, _ := json.MarshalIndent(v, "", " ")
	return string(data)
}

// TestToolOutputsRoundTrip records a batch of calls as a run does: each
// result goes on a line of its own with the tool's output (toolUseResult) or
// the refusal (permissionDecision), as Claude Code writes them; Load gives
// the conversation back whole and the outputs by call, and a fork keeps them.
func TestToolOutputsRoundTrip(t *testing.T) {
	project := setup(t)
	type readOutput struct {
		Type string `json:"type"`
		File struct {
			Content string `json:"content"`
		} `json:"file"`
	}
	var read readOutput
	read.Type, read.File.Content = "text", "a <b> & c"
	msgs := []llm.Message{
		user(llm.TextBlock("read, edit and list")),
		assistant(use("r1", "Read", `{"file_path":"a"}`), use("e1", "Edit", `{}`), use("b1", "Bash", `{"command":"ls"}`), use("f1", "Bash", `{}`)),
		user(result("r1", "1\ta <b> & c", false), result("e1", "refused", true), result("b1", "x.go", false), result("f1", "boom", true), llm.TextBlock("<system-reminder>note</system-reminder>")),
		assistant(llm.TextBlock("Done.")),
	}
	cfg := Config{Project: project, ID: NewID()}
	tr, err := Create(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr.OnEvent(agent.UserMessage{Message: msgs[0]})
	tr.OnEvent(agent.AssistantMessage{Message: msgs[1]})
	tr.OnEvent(agent.ToolFinished{ID: "r1", Name: "Read", Result: msgs[2].Content[0], Output: read})
	tr.OnEvent(agent.PermissionDenied{Denial: agent.Denial{ToolName: "Edit", ToolUseID: "e1"}, Message: "refused"})
	tr.OnEvent(agent.ToolFinished{ID: "e1", Name: "Edit", Result: msgs[2].Content[1]})
	tr.OnEvent(agent.ToolFinished{ID: "b1", Name: "Bash", Result: msgs[2].Content[2]})
	tr.OnEvent(agent.ToolFinished{ID: "f1", Name: "Bash", Result: msgs[2].Content[3], Output: "ignored: the call failed"})
	tr.OnEvent(agent.UserMessage{Message: msgs[2]})
	tr.OnEvent(agent.AssistantMessage{Message: msgs[3]})
	tr.Close()

	loaded, err := Load(tr.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(loaded.Messages, msgs) {
		t.Fatalf("loaded %s", mustJSON(loaded.Messages))
	}
	if n := len(loaded.Lines); n != 8 {
		t.Errorf("%d lines, want 8: a result a line, then the reminder", n)
	}
	wantRead := `{"type":"text","file":{"content":"a <b> & c"}}`
	want := map[string]ToolResult{"r1": {Output: json.RawMessage(wantRead)}, "e1": {Rejected: true}}
	if !reflect.DeepEqual(loaded.Results, want) {
		t.Errorf("results %s, want %s", mustJSON(loaded.Results), mustJSON(want))
	}
	data, _ := os.ReadFile(tr.Path())
	for _, s := range []string{`"toolUseResult":` + wantRead, `"permissionDecision":{"decision":"reject"}`} {
		if !bytes.Contains(data, []byte(s)) {
			t.Errorf("the transcript does not hold %s:\n%s", s, data)
		}
	}

	again := forkAndLoad(t, project, loaded)
	if !reflect.DeepEqual(again.Messages, msgs) || !reflect.DeepEqual(again.Results, want) {
		t.Errorf("the fork holds %s and results %s", mustJSON(again.Messages), mustJSON(again.Results))
	}
}

// TestCompactBoundaryDropsEarlierResults: what a resumed session shows starts
// at the last compact boundary, and so do the outputs it is drawn with.
func TestCompactBoundaryDropsEarlierResults(t *testing.T) {
	project := setup(t)
	tr := conversation(t, Config{Project: project, ID: NewID()}, user(llm.TextBlock("go")), assistant(use("b1", "Bash", `{}`)))
	tr.OnEvent(agent.ToolFinished{ID: "b1", Result: result("b1", "ok", false), Output: "ok"})
	tr.OnEvent(agent.UserMessage{Message: user(result("b1", "ok", false))})
	tr.OnEvent(agent.Compacted{Message: llm.UserText("summary")})
	tr.Close()
	loaded, err := Load(tr.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Results) != 0 || len(loaded.Messages) != 1 {
		t.Errorf("after the boundary: results %v, %d messages", loaded.Results, len(loaded.Messages))
	}
}

// bulkyOutput is an output with a storage form, like a Read's or an Edit's.
type bulkyOutput struct{ Kept, Bulk string }

func (b bulkyOutput) ForStorage() any {
	b.Bulk = ""
	return b
}

// TestOutputsAreWrittenWhole: as Claude Code's, our transcripts keep a
// Read's or an Edit's output with the file it holds; the storage form is
// applied when a session is resumed, not when it is written.
func TestOutputsAreWrittenWhole(t *testing.T) {
	tr, err := Create(Config{Project: setup(t), ID: NewID()})
	if err != nil {
		t.Fatal(err)
	}
	msgs := []llm.Message{user(llm.TextBlock("read")), assistant(use("r1", "Read", `{}`)), user(result("r1", "1\tbig file", false))}
	tr.OnEvent(agent.UserMessage{Message: msgs[0]})
	tr.OnEvent(agent.AssistantMessage{Message: msgs[1]})
	tr.OnEvent(agent.ToolFinished{ID: "r1", Name: "Read", Result: msgs[2].Content[0], Output: bulkyOutput{Kept: "k", Bulk: "the whole file"}})
	tr.OnEvent(agent.UserMessage{Message: msgs[2]})
	tr.Close()
	data, _ := os.ReadFile(tr.Path())
	if !bytes.Contains(data, []byte(`"toolUseResult":{"Kept":"k","Bulk":"the whole file"}`)) {
		t.Errorf("the output is not written whole:\n%s", data)
	}
}

// TestAForkKeepsTheOutputsOfEveryBatch: a fork writes the loaded
// conversation again, every batch's results with their outputs.
func TestAForkKeepsTheOutputsOfEveryBatch(t *testing.T) {
	project := setup(t)
	tr, err := Create(Config{Project: project, ID: NewID()})
	if err != nil {
		t.Fatal(err)
	}
	tr.OnEvent(agent.UserMessage{Message: user(llm.TextBlock("read twice"))})
	for _, id := range []string{"r1", "r2"} {
		tr.OnEvent(agent.AssistantMessage{Message: assistant(use(id, "Read", `{}`))})
		tr.OnEvent(agent.ToolFinished{ID: id, Name: "Read", Result: result(id, "x", false), Output: bulkyOutput{Kept: id}})
		tr.OnEvent(agent.UserMessage{Message: user(result(id, "x", false))})
	}
	tr.Close()
	loaded, err := Load(tr.Path())
	if err != nil {
		t.Fatal(err)
	}
	again := forkAndLoad(t, project, loaded)
	for _, id := range []string{"r1", "r2"} {
		if want := `{"Kept":"` + id + `","Bulk":""}`; string(again.Results[id].Output) != want {
			t.Errorf("the fork kept %s for %s, want %s", again.Results[id].Output, id, want)
		}
	}
}

// TestAnOutputWhoseResultIsNeverWrittenIsNotKept: a batch's results are
// written together, so an output left after them is dropped, not held for
// the rest of the session.
func TestAnOutputWhoseResultIsNeverWrittenIsNotKept(t *testing.T) {
	tr, err := Create(Config{Project: setup(t), ID: NewID()})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.OnEvent(agent.ToolFinished{ID: "lost", Name: "Read", Result: result("lost", "x", false), Output: bulkyOutput{Kept: "lost"}})
	tr.OnEvent(agent.ToolFinished{ID: "r1", Name: "Read", Result: result("r1", "y", false), Output: bulkyOutput{Kept: "r1"}})
	tr.OnEvent(agent.UserMessage{Message: user(result("r1", "y", false))})
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if len(tr.results) != 0 {
		t.Errorf("after the batch's message the transcript still holds %v", tr.results)
	}
}

// forkAndLoad forks loaded under a new id, as --fork-session does, and loads
// the fork's transcript back.
func forkAndLoad(t *testing.T, project string, loaded *Loaded) *Loaded {
	t.Helper()
	forked, err := Resume(Config{Project: project, ID: NewID()}, loaded)
	if err != nil {
		t.Fatal(err)
	}
	forked.Close()
	again, err := Load(forked.Path())
	if err != nil {
		t.Fatal(err)
	}
	return again
}
