package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// outsideDir returns a directory outside /tmp (which every sandbox may write
// to), removed after the test.
func outsideDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp(outsideBase(t), ".sandbox-outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func requireSandbox(t *testing.T) {
	t.Helper()
	if status := ProbeSandbox(); !status.Available() {
		t.Skipf("sandbox %s", status)
	}
}

func TestSandboxLimitsWrites(t *testing.T) {
	requireSandbox(t)
	allowed := outsideDir(t)
	forbidden := outsideDir(t)
	if err := os.WriteFile(filepath.Join(forbidden, "existing"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, command string
		wantCode      int
		wantOut       string
	}{
		{"write inside", "echo hi > inside.txt && cat inside.txt", 0, "hi\n"},
		{"mkdir and move inside", "mkdir -p a b && touch a/f && mv a/f b/f && ls b", 0, "f\n"},
		{"write to /tmp", `f=$(mktemp) && echo ok > "$f" && cat "$f" && rm "$f"`, 0, "ok\n"},
		{"devices", "echo x > /dev/null && echo y > /dev/stdout && echo z > /dev/stderr", 0, "y\nz\n"},
		{"read outside", "cat " + filepath.Join(forbidden, "existing"), 0, "keep"},
		{"write outside", "{ echo no > " + filepath.Join(forbidden, "new") + "; } 2>/dev/null; echo $?", 0, "1\n"},
		{"truncate outside", "{ : > " + filepath.Join(forbidden, "existing") + "; } 2>/dev/null; echo $?", 0, "1\n"},
		{"delete outside", "rm -f " + filepath.Join(forbidden, "existing") + " 2>/dev/null; echo $?", 0, "1\n"},
		{"move out", "touch m && mv m " + forbidden + "/ 2>/dev/null; echo $?", 0, "1\n"},
	}
	tests = append(tests, struct {
		name, command string
		wantCode      int
		wantOut       string
	}{"message", "echo no > " + filepath.Join(forbidden, "new"), 1, "bash: line 1: " + filepath.Join(forbidden, "new") + ": Permission denied\n"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exit, out := run(t, Spec{Command: tt.command, Dir: allowed, Sandbox: &Sandbox{Writable: []string{allowed}}})
			if exit.Code != tt.wantCode || out != tt.wantOut {
				t.Errorf("exit %d, output %q; want %d, %q", exit.Code, out, tt.wantCode, tt.wantOut)
			}
		})
	}
	if data, _ := os.ReadFile(filepath.Join(forbidden, "existing")); string(data) != "keep" {
		t.Errorf("the file outside was changed to %q", data)
	}
	if _, err := os.Stat(filepath.Join(forbidden, "new")); err == nil {
		t.Error("a file was created outside the writable directories")
	}
}

func TestSandboxKeepsTheRunnerContract(t *testing.T) {
	requireSandbox(t)
	dir := outsideDir(t)
	exit, out := run(t, Spec{Command: "mkdir sub && cd sub && echo out && echo err >&2 && exit 3", Dir: dir, Sandbox: &Sandbox{Writable: []string{dir}}})
	real, _ := filepath.EvalSymlinks(dir)
	if exit.Code != 3 || out != "out\nerr\n" || exit.Dir != filepath.Join(real, "sub") {
		t.Errorf("exit %+v, output %q", exit, out)
	}
}

func TestSandboxStatusIsHonest(t *testing.T) {
	status := ProbeSandbox()
	abi, err := landlockABI()
	if (err == nil) != status.Available() || status.ABI != abi {
		t.Errorf("status %v, but the kernel says ABI %d, %v", status, abi, err)
	}
	if !strings.Contains(status.String(), "Landlock") && status.Available() {
		t.Errorf("status %q does not name Landlock", status)
	}
}

func TestSandboxTurnedOff(t *testing.T) {
	t.Setenv(SandboxEnv, "off")
	if status := probe(); status.Available() || !strings.Contains(status.String(), SandboxEnv) {
		t.Errorf("with %s=off: %v", SandboxEnv, status)
	}
}

// TestSandboxStaysOnItsThread proves the restriction reaches the sandboxed
// commands only: after sandboxed runs, every goroutine of this process and an
// unsandboxed command may still write where the sandbox forbids it.
func TestSandboxStaysOnItsThread(t *testing.T) {
	requireSandbox(t)
	allowed, forbidden := outsideDir(t), outsideDir(t)
	for range 3 {
		if exit, out := run(t, Spec{Command: "touch " + forbidden + "/x 2>/dev/null; echo $?", Dir: allowed, Sandbox: &Sandbox{Writable: []string{allowed}}}); out != "1\n" {
			t.Fatalf("the sandbox let the command write: exit %d, %q", exit.Code, out)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Go(func() {
			runtime.Gosched()
			errs <- os.WriteFile(filepath.Join(forbidden, fmt.Sprintf("from-go-%d", i)), []byte("ok"), 0o644)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a goroutine lost its rights: %v", err)
		}
	}
	if _, out := run(t, Spec{Command: "touch " + forbidden + "/y && echo written", Dir: allowed}); out != "written\n" {
		t.Errorf("an unsandboxed command: %q", out)
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
