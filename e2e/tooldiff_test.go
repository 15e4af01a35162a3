package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// ourToolResults are the results where mini-claude answers otherwise on
// purpose (the README's list of deliberate differences), by recording and
// call: our text, with the project as $CWD.
var ourToolResults = map[string]string{
	// Claude Code numbers the lines of an offset-0 read from 0.
	"offset_limit_zero/0": "1\tone\n2\ttwo\n3\tthree\n4",
	"offset_limit_zero/2": "1\tone",
}

// ourFilesAfter are the files mini-claude leaves otherwise on purpose, by
// recording and file.
var ourFilesAfter = map[string]string{
	// Claude Code writes a curly new_string into code in straight quotes.
	"quotes_reverse/code.txt": "msg := \"won't\"\n",
}

// quotesNote ends our Edit's text when old_string matched other quotes; on
// purpose, Claude Code says nothing.
const quotesNote = " Note: old_string matched with curly and straight quotes treated alike, and new_string was written with the file's quotes."

var (
	// outputFileSaid is where a background command's output is said to go.
	outputFileSaid = regexp.MustCompile(`Output is being written to: (\S+)\.(\s|$)`)
	// taskIDSaid is a background command's id.
	taskIDSaid = regexp.MustCompile(`ID: ([a-z0-9]+)`)
)

// TestToolCallsMatchClaudeCode replays every recording under
// internal/tools/*/testdata/claude-code/*.json (e2e/testdata/tooldiff) through
// the binary: the same files, the same calls one a turn, in -p with
// permissions bypassed as they were recorded; it requires Claude Code's
// is_error flags, its texts but for setup calls, and the files it left.
// Claude Code trims the white space off the end of every tool result it
// sends; ours are compared trimmed likewise.
func TestToolCallsMatchClaudeCode(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "internal", "tools", "*", "testdata", "claude-code", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no recordings (%v)", err)
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var rec goldenfile.Recording
		if err := json.Unmarshal(data, &rec); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		t.Run(rec.Tool+"/"+rec.Name, func(t *testing.T) { replayRecording(t, rec) })
	}
}

func replayRecording(t *testing.T, rec goldenfile.Recording) {
	r := newRun(t)
	project := r.dir
	rec.WriteFiles(t, project)
	for i, c := range rec.Calls {
		r.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", c.Tool, string(rec.Input(i, project)))}})
	}
	r.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Done.")}})
	r.dir = filepath.Join(project, rec.Dir)
	out := r.exec("-p", "Do the task.", "--permission-mode", "bypassPermissions")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	results := lastToolResults(r.srv.Requests())
	if len(results) != len(rec.Results) {
		t.Fatalf("%d tool results, Claude Code gave %d", len(results), len(rec.Results))
	}
	for i, want := range rec.Results {
		got := strings.TrimSuffix(asClaudeCodeWrites(contentText(results[i]), project), quotesNote)
		if results[i].IsError != want.IsError {
			t.Errorf("call %d (%s): is_error %v, Claude Code's %v\n got %q\nwant %q", i, rec.Calls[i].Input, results[i].IsError, want.IsError, got, want.Text)
			continue
		}
		if rec.Calls[i].Setup {
			continue
		}
		if ours, ok := ourToolResults[rec.Name+"/"+strconv.Itoa(i)]; ok {
			want = goldenfile.RecordedResult{Text: ours}
		}
		if !want.Matches(got) {
			t.Errorf("call %d (%s):\n got %q (%d characters)\nwant %q (%d characters)", i, rec.Calls[i].Input,
				clip(got), len(got), clip(want.Text), max(want.Length, len(want.Text)))
		}
	}
	for name, want := range rec.After {
		if ours, ok := ourFilesAfter[rec.Name+"/"+name]; ok {
			want = ours
		}
		if data, err := os.ReadFile(filepath.Join(project, name)); err != nil || string(data) != want {
			t.Errorf("%s afterwards: %q (%v), want %q", name, data, err, want)
		}
	}
}

// lastToolResults are the tool_result blocks of the last request, in order.
func lastToolResults(reqs []llmtest.Request) []llm.ContentBlock {
	var results []llm.ContentBlock
	for _, m := range reqs[len(reqs)-1].Messages {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult {
				results = append(results, b)
			}
		}
	}
	return results
}

// asClaudeCodeWrites trims the end of a result's text and writes the project,
// a background command's output file and its id as the recordings do.
func asClaudeCodeWrites(s, project string) string {
	s = strings.TrimRight(s, " \t\r\n")
	s = outputFileSaid.ReplaceAllString(s, "Output is being written to: $$OUTPUT_FILE.$2")
	for _, m := range taskIDSaid.FindAllStringSubmatch(s, -1) {
		s = strings.ReplaceAll(s, m[1], "$TASK_ID")
	}
	return strings.ReplaceAll(s, project, "$CWD")
}

// clip shortens a long text for a failure message.
func clip(s string) string {
	if len(s) <= 600 {
		return s
	}
	return s[:300] + " … " + s[len(s)-300:]
}

// TestBackgroundOutputFileCanBeRead follows what a background command's
// result tells the model, in the default permission mode: Read the file it
// names. The read needs no permission and shows the command's output.
func TestBackgroundOutputFileCanBeRead(t *testing.T) {
	r := newRun(t)
	r.srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		switch req.AssistantTurns() {
		case 0:
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Bash", `{"command":"echo started","run_in_background":true}`)}}
		case 1:
			m := outputFileSaid.FindStringSubmatch(contentText(lastToolResults([]llmtest.Request{req})[0]))
			if m == nil {
				return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("no output file named")}}
			}
			time.Sleep(300 * time.Millisecond) // the command ends meanwhile
			input, _ := json.Marshal(map[string]string{"file_path": m[1]})
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Read", string(input))}}
		}
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Done.")}}
	})
	out := r.exec("-p", "Start it and look.")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	reqs := r.srv.Requests()
	results := lastToolResults(reqs)
	if len(results) != 2 || results[1].IsError || !strings.Contains(contentText(results[1]), "1\tstarted") {
		t.Fatalf("results %+v; want the Read of the output file to show the output", results)
	}
}
