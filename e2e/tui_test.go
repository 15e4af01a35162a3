package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// The interactive UI, driven in tmux as a user would: keys sent with
// send-keys, the screen read with capture-pane.

// screenTimeout bounds every wait for the screen to show something.
const screenTimeout = 15 * time.Second

// screen is the binary running in a detached tmux session of its own server,
// whose socket lives in the test's temporary directory.
type screen struct {
	t      *testing.T
	tmux   string
	socket string
	errLog string
}

// openScreen starts the binary with args in a 120x40 tmux window in the run's
// directory and waits for the session's status line. It skips the test only
// when tmux cannot be found.
func openScreen(t *testing.T, r *run, args ...string) *screen {
	t.Helper()
	s := launchScreen(t, r, args...)
	s.waitFor("shift+tab")
	return s
}

// launchScreen is openScreen without the wait, for a screen that shows a
// question before the session.
func launchScreen(t *testing.T, r *run, args ...string) *screen {
	t.Helper()
	path, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed: the interactive UI is tested in tmux (.ci/run installs it with apt-get install tmux)")
	}
	scratch := t.TempDir()
	s := &screen{t: t, tmux: path, socket: filepath.Join(scratch, "tmux.sock"), errLog: filepath.Join(scratch, "stderr.txt")}
	command := "exec env -i"
	for _, kv := range r.env {
		command += " " + shellQuote(kv)
	}
	command += " TERM=xterm-256color " + shellQuote(binary)
	for _, a := range args {
		command += " " + shellQuote(a)
	}
	command += " 2>" + shellQuote(s.errLog)
	s.run("new-session", "-d", "-x", "120", "-y", "40", "-c", r.dir, command)
	t.Cleanup(func() { exec.Command(s.tmux, "-S", s.socket, "kill-server").Run() })
	return s
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (s *screen) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command(s.tmux, append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

// typeLine types text and presses Enter.
func (s *screen) typeLine(text string) {
	s.t.Helper()
	s.run("send-keys", "-t", "0", "-l", text)
	s.run("send-keys", "-t", "0", "Enter")
}

// keys sends tmux key names, such as Escape or C-c.
func (s *screen) keys(keys ...string) {
	s.t.Helper()
	s.run(append([]string{"send-keys", "-t", "0"}, keys...)...)
}

func (s *screen) capture() string {
	out, err := exec.Command(s.tmux, "-S", s.socket, "capture-pane", "-p", "-t", "0").CombinedOutput()
	if err != nil {
		return ""
	}
	return string(out)
}

// waitFor polls the screen until it shows every one of texts, and returns it;
// past the deadline it fails the test with the screen and the binary's stderr.
func (s *screen) waitFor(texts ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(screenTimeout)
	for {
		shot := s.capture()
		missing := ""
		for _, text := range texts {
			if !strings.Contains(shot, text) {
				missing = text
				break
			}
		}
		if missing == "" {
			return shot
		}
		if time.Now().After(deadline) {
			stderr, _ := os.ReadFile(s.errLog)
			s.t.Fatalf("the screen never showed %q:\n%s\nstderr:\n%s", missing, shot, stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// exited waits for the binary to leave, which ends the tmux session.
func (s *screen) exited() bool {
	deadline := time.Now().Add(screenTimeout)
	for time.Now().Before(deadline) {
		if exec.Command(s.tmux, "-S", s.socket, "has-session").Run() != nil {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

func TestTUIPromptAndStreamedAnswer(t *testing.T) {
	r := newRun(t)
	turn := text("Hello from the **scripted** model.\n\n- first point\n- second point")
	turn.ChunkDelay = 20 * time.Millisecond
	r.srv.Push(turn)
	s := openScreen(t, r)
	s.typeLine("say hello")
	shot := s.waitFor("> say hello", "Hello from the scripted model.", "• first point", "• second point")
	if strings.Contains(shot, "**scripted**") {
		t.Errorf("the answer's markdown was not rendered:\n%s", shot)
	}
	if got := r.srv.Requests()[0].Messages[0]; got.Text() != "say hello" {
		t.Errorf("the model got %+v, want the prompt", got)
	}
	s.keys("C-c")
	s.keys("C-c")
	if !s.exited() {
		t.Fatalf("Ctrl-C twice did not exit:\n%s", s.capture())
	}
}

// pushGreetingEdit writes greeting.txt in the run's directory and scripts a
// turn that reads it, edits "world" into "there" and answers "Edited.";
// it returns the file's path.
func pushGreetingEdit(r *run) string {
	file := filepath.Join(r.dir, "greeting.txt")
	os.WriteFile(file, []byte("hello\nworld\n"), 0o644)
	r.srv.Push(
		calls(llmtest.ToolUse("r1", "Read", fmt.Sprintf(`{"file_path":%q}`, file))),
		calls(llmtest.ToolUse("e1", "Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"world","new_string":"there"}`, file))),
		text("Edited."),
	)
	return file
}

func TestTUIReadAndEditShowTheDiff(t *testing.T) {
	r := newRun(t)
	file := pushGreetingEdit(r)
	s := openScreen(t, r, "--permission-mode", "acceptEdits")
	s.typeLine("fix the greeting")
	s.waitFor("Read("+file+")", "Read 3 lines", "Edit("+file+")", "with 1 addition and 1 removal", "- world", "+ there", "Edited.")
	if data, _ := os.ReadFile(file); string(data) != "hello\nthere\n" {
		t.Errorf("file = %q after the edit", data)
	}
}

// TestTUIPermissionDialog answers the same ask each of the four ways.
func TestTUIPermissionDialog(t *testing.T) {
	cases := []struct {
		name    string
		answer  []string
		created bool
		rule    bool
		told    string
	}{
		{name: "yes once", answer: []string{"1"}, created: true},
		{name: "yes and remember", answer: []string{"2"}, created: true, rule: true},
		{name: "no", answer: []string{"3"}, told: "The user refused this Bash call"},
		{name: "no with a message", answer: []string{"4", "use the Write tool instead", "Enter"}, told: "said: use the Write tool instead"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRun(t)
			r.trust(false)
			r.srv.Push(calls(bashUse("b1", "touch made-by-bash")), text("Finished."))
			s := openScreen(t, r)
			s.typeLine("make the file")
			s.waitFor("Bash wants permission", "Asks for: the command `touch made-by-bash`", "Bash(touch:*)", "4. No, and tell the model")
			for _, k := range c.answer {
				if k == "Enter" {
					s.keys("Enter")
				} else {
					s.run("send-keys", "-t", "0", "-l", k)
				}
			}
			shot := s.waitFor("Finished.")
			_, err := os.Stat(filepath.Join(r.dir, "made-by-bash"))
			if created := err == nil; created != c.created {
				t.Errorf("file created = %v, want %v", created, c.created)
			}
			settings, _ := os.ReadFile(filepath.Join(r.dir, ".mini-claude", "settings.local.json"))
			if saved := strings.Contains(string(settings), `"Bash(touch:*)"`); saved != c.rule {
				t.Errorf("rule saved = %v, want %v; settings.local.json: %s", saved, c.rule, settings)
			}
			if c.rule && !strings.Contains(shot, "Added the rule Bash(touch:*) to") {
				t.Errorf("the screen does not say which rule was added:\n%s", shot)
			}
			if c.rule {
				s.typeLine("/permissions")
				s.waitFor("Bash(touch:*)", "settings.local.json")
				s.typeLine("/permissions remove Bash(touch:*)")
				s.waitFor("Removed the rule Bash(touch:*) from")
				if settings, _ := os.ReadFile(filepath.Join(r.dir, ".mini-claude", "settings.local.json")); strings.Contains(string(settings), "Bash(touch:*)") {
					t.Errorf("the rule is still in settings.local.json after /permissions remove: %s", settings)
				}
			}
			result := lastResults(t, r.srv, 1)[0]
			if c.told != "" && (!result.IsError || !strings.Contains(contentText(result), c.told)) {
				t.Errorf("the model was told %q (error %v), want %q", contentText(result), result.IsError, c.told)
			}
			if c.told == "" && result.IsError {
				t.Errorf("the call failed: %s", contentText(result))
			}
		})
	}
}

func TestTUIEscInterruptsALongBash(t *testing.T) {
	r := newRun(t)
	marker := sleepMarker()
	r.srv.Push(calls(bashUse("long", marker)), text("Back after the interruption."))
	s := openScreen(t, r, "--allowedTools", "Bash")
	s.typeLine("run the long thing")
	s.waitFor("Running…")
	deadline := time.Now().Add(screenTimeout)
	for !psRunning(t, marker) {
		if time.Now().After(deadline) {
			t.Fatal("the command never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.keys("Escape")
	s.waitFor("Interrupted by the user", "Interrupted · what should the model do instead?")
	for psRunning(t, marker) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if psRunning(t, marker) {
		t.Fatal("the command still runs after Esc")
	}
	// The transcript stays valid: the next turn goes out (llmtest fails the
	// test on a tool_use without its tool_result).
	s.typeLine("go on")
	s.waitFor("Back after the interruption.")
	var result string
	for _, m := range r.srv.Requests()[1].Messages {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult && b.ToolUseID == "long" {
				result = contentText(b)
			}
		}
	}
	if !strings.Contains(result, "interrupted") {
		t.Errorf("the interrupted call's result is %q", result)
	}
}

func TestTUICostCommand(t *testing.T) {
	r := newRun(t)
	r.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Priced.")}, Usage: llm.Usage{InputTokens: 1200, OutputTokens: 345}})
	s := openScreen(t, r)
	s.typeLine("anything")
	s.waitFor("Priced.")
	s.typeLine("/cost")
	s.waitFor("Total cost:", "Input:        1200 tokens", "Output:       345 tokens")
}
