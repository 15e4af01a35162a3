package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/resultstore"
)

func bashUse(id, command string, fields ...string) llm.ContentBlock {
	input := fmt.Sprintf(`{"command":%q`, command)
	for _, f := range fields {
		input += "," + f
	}
	return llmtest.ToolUse(id, "Bash", input+"}")
}

// psRunning reports whether a live process whose command line contains marker exists.
func psRunning(t *testing.T, marker string) bool {
	t.Helper()
	out, err := exec.Command("ps", "-eo", "stat=,args=").Output()
	if err != nil {
		t.Fatalf("ps: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, marker) && !strings.HasPrefix(strings.TrimSpace(line), "Z") {
			return true
		}
	}
	return false
}

// sleepMarker is a sleep command no other test runs, for ps to find.
func sleepMarker() string {
	return fmt.Sprintf("sleep 1000.%d", time.Now().UnixNano()%1_000_000_000)
}

func TestBashThroughTheBinary(t *testing.T) {
	r := newRun(t)
	os.Mkdir(filepath.Join(r.dir, "sub"), 0o755)
	r.srv.Push(
		calls(bashUse("b1", "cd sub && echo in sub; echo to stderr >&2")),
		calls(bashUse("b2", "pwd"), bashUse("b3", "cat nope2.txt")),
		calls(bashUse("b4", "cd / && ls -d /")),
		calls(bashUse("b5", "pwd; true")),
		text("done"),
	)
	// bypassPermissions: cd / reads outside the project, which Bash asks about.
	out := r.exec("-p", "run things", "--dangerously-skip-permissions")
	if out.code != 0 || out.stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	real, _ := filepath.EvalSymlinks(r.dir)
	want := []struct {
		request int
		text    string
		isError bool
	}{
		{1, "in sub\nto stderr", false},
		{2, filepath.Join(real, "sub"), false},
		{2, "Exit code 1\ncat: nope2.txt: No such file or directory", true},
		{3, "/\nShell cwd was reset to " + r.dir, false},
		{4, r.dir, false},
	}
	seen := map[int]int{}
	for _, w := range want {
		results := lastResults(t, r.srv, w.request)
		got := results[seen[w.request]]
		seen[w.request]++
		if contentText(got) != w.text || got.IsError != w.isError {
			t.Errorf("request %d: %q (error %v), want %q (error %v)", w.request, contentText(got), got.IsError, w.text, w.isError)
		}
	}
}

func TestBashReadOutsideIsAskedInDefaultMode(t *testing.T) {
	r := newRun(t)
	r.srv.Push(calls(bashUse("in", "ls"), bashUse("out", "cat /etc/hostname")), text("done"))
	if out := r.exec("-p", "read"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	results := lastResults(t, r.srv, 1)
	if results[0].IsError || !results[1].IsError || !strings.Contains(contentText(results[1]), "Reading /etc/hostname needs approval: /etc/hostname is outside the allowed directories") {
		t.Errorf("results %q (error %v) | %q (error %v)", contentText(results[0]), results[0].IsError, contentText(results[1]), results[1].IsError)
	}
}

func TestBashLargeOutputIsStoredInTheSessionFolder(t *testing.T) {
	r := newRun(t)
	r.srv.Push(calls(bashUse("big", "seq 1 50000")), text("ok"))
	if out := r.exec("-p", "print a lot", "--allowedTools", "Bash"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	result := contentText(lastResults(t, r.srv, 1)[0])
	m := regexp.MustCompile(`Full output saved to: (\S+)`).FindStringSubmatch(result)
	if m == nil || !strings.HasPrefix(result, "<persisted-output>\nOutput too large (282.1KB).") {
		t.Fatalf("result %q", result[:min(300, len(result))])
	}
	var home string
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "MINI_CLAUDE_HOME="); ok {
			home = v
		}
	}
	if !strings.HasPrefix(m[1], filepath.Join(home, "projects", resultstore.ProjectSlug(r.dir))) || !strings.HasSuffix(m[1], "/tool-results/big.txt") {
		t.Errorf("stored at %s", m[1])
	}
	if data, err := os.ReadFile(m[1]); err != nil || !strings.HasSuffix(string(data), "\n49999\n50000\n") {
		t.Errorf("stored file: %v", err)
	}
}

func TestBashLeavesNoOrphansAfterTheBinaryExits(t *testing.T) {
	r := newRun(t)
	child, background, moved := sleepMarker(), sleepMarker()+"1", sleepMarker()+"2"
	r.srv.Push(
		calls(
			bashUse("c", child+" & echo started"),
			bashUse("bg", background, `"run_in_background":true`),
			bashUse("mv", "trap '' TERM; "+moved, `"timeout":300`),
		),
		text("leaving"),
	)
	out := r.exec("-p", "start things", "--allowedTools", "Bash")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	results := lastResults(t, r.srv, 1)
	if contentText(results[0]) != "started" || !strings.Contains(contentText(results[1]), "Command running in background with ID: b") ||
		!strings.Contains(contentText(results[2]), "was moved to the background") {
		t.Fatalf("results %q | %q | %q", contentText(results[0]), contentText(results[1]), contentText(results[2]))
	}
	// A killed process can stay listed for a moment while the kernel tears it
	// down; only one that is still there after a second has survived.
	for _, marker := range []string{child, background, moved} {
		deadline := time.Now().Add(time.Second)
		for psRunning(t, marker) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if psRunning(t, marker) {
			t.Errorf("%q survived the binary", marker)
		}
	}
}

func TestBashBackgroundNoticeReachesTheModel(t *testing.T) {
	r := newRun(t)
	r.srv.Push(
		calls(bashUse("bg", "sleep 0.2; echo built", `"run_in_background":true`, `"description":"Build the thing"`)),
		calls(bashUse("wait", "sleep 1")),
		text("noticed"),
	)
	if out := r.exec("-p", "build", "--allowedTools", "Bash"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	last := lastResults(t, r.srv, 2)
	notice := last[len(last)-1]
	if notice.Type != llm.BlockText || !strings.Contains(notice.Text, "<task-notification>") ||
		!strings.Contains(notice.Text, `Background command "Build the thing" completed (exit code 0)`) {
		t.Errorf("third request ends with %+v, want the task notification", notice)
	}
}

func TestBashInterruptKillsTheCommandWithinASecond(t *testing.T) {
	r := newRun(t)
	marker := sleepMarker()
	r.srv.Push(calls(bashUse("long", "trap '' TERM; "+marker+" & "+marker+"; wait")))
	cmd := exec.Command(binary, "-p", "run long", "--allowedTools", "Bash")
	cmd.Dir, cmd.Env = r.dir, r.env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !psRunning(t, marker) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the command never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	interrupted := time.Now()
	done := make(chan error)
	go func() { done <- cmd.Wait() }()
	for psRunning(t, marker) && time.Since(interrupted) < 5*time.Second {
		time.Sleep(5 * time.Millisecond)
	}
	// The command ignores SIGTERM: it is gone once the SIGKILL that follows
	// the half-second grace has reached it.
	if d := time.Since(interrupted); d > time.Second {
		t.Errorf("the command ran %v after SIGINT", d)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the binary did not stop on SIGINT")
	}
	t.Logf("command gone and binary exited %v after SIGINT", time.Since(interrupted).Round(time.Millisecond))
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit code %d, want 130", code)
	}
}

func TestBashSandboxInTheBinary(t *testing.T) {
	r := newRun(t)
	out := r.exec("doctor")
	if !strings.Contains(out.stdout, "Sandbox") {
		t.Fatalf("doctor: %q", out.stdout)
	}
	if !strings.Contains(out.stdout, "available (Landlock") {
		t.Skipf("no sandbox here: %s", out.stdout)
	}
	outside, err := os.MkdirTemp(outsideBase(t), ".outside-")
	if err != nil {
		t.Fatal(err)
	}
	outside, _ = filepath.Abs(outside)
	t.Cleanup(func() { os.RemoveAll(outside) })
	r.srv.Push(
		calls(bashUse("in", "echo ok > inside.txt && cat inside.txt"), bashUse("out", "echo no > "+outside+"/f")),
		text("done"),
	)
	// Permissions would refuse the outside write first; bypass them so the sandbox is what stops it.
	if out := r.exec("-p", "write", "--dangerously-skip-permissions"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	results := lastResults(t, r.srv, 1)
	if contentText(results[0]) != "ok" {
		t.Errorf("inside: %q", contentText(results[0]))
	}
	if got := contentText(results[1]); !results[1].IsError || !strings.Contains(got, "Permission denied") {
		t.Errorf("outside: %q", got)
	}
	if _, err := os.Stat(filepath.Join(outside, "f")); err == nil {
		t.Error("the sandboxed command wrote outside the project")
	}
}

// outsideBase is where a test makes directories the sandbox must not let
// commands write to: the package directory, unless the checkout itself lies
// under one of the temporary directories every sandbox may write to; then the
// home directory. It skips the test when neither qualifies.
func outsideBase(t *testing.T) string {
	t.Helper()
	wd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	for _, base := range []string{wd, home} {
		if base == "" {
			continue
		}
		temporary := false
		for _, tmp := range []string{"/tmp", "/var/tmp", "/dev/shm", os.TempDir()} {
			if base == tmp || strings.HasPrefix(base, strings.TrimSuffix(tmp, "/")+"/") {
				temporary = true
			}
		}
		if !temporary {
			return base
		}
	}
	t.Skip("no directory outside the sandbox's temporary directories to test with")
	return ""
}
