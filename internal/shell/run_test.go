package shell

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// buffer is an io.Writer safe to read while the copier writes.
type buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// run starts command in dir and waits until its output is settled.
func run(t testing.TB, spec Spec) (Exit, string) {
	t.Helper()
	var out buffer
	spec.Output = &out
	if spec.Dir == "" {
		spec.Dir = t.TempDir()
	}
	p, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { KillGroups(p.Pid()) })
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatalf("%q did not finish within 10s", spec.Command)
	}
	return p.Exit(), out.String()
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		command string
		code    int
		signal  syscall.Signal
	}{
		{"true", 0, 0},
		{"false", 1, 0},
		{"exit 7", 7, 0},
		{"cat /nonexistent/file", 1, 0},
		{"nosuchcommand-xyz", 127, 0},
		{"kill -TERM $$", 143, syscall.SIGTERM},
		{"kill -KILL $$", 137, syscall.SIGKILL},
		{"(exit 3); echo after", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			exit, out := run(t, Spec{Command: tt.command})
			if exit.Code != tt.code || exit.Signal != tt.signal {
				t.Errorf("exit %+v, want code %d signal %v; output %q", exit, tt.code, tt.signal, out)
			}
		})
	}
}

func TestOutputIsMergedInOrder(t *testing.T) {
	_, out := run(t, Spec{Command: `for i in 1 2 3; do echo "out $i"; echo "err $i" >&2; done; printf 'no newline'`})
	want := "out 1\nerr 1\nout 2\nerr 2\nout 3\nerr 3\nno newline"
	if out != want {
		t.Errorf("output %q, want %q", out, want)
	}
}

func TestStdin(t *testing.T) {
	_, out := run(t, Spec{Command: "cat"})
	if out != "" {
		t.Errorf("without Stdin the command read %q, want nothing (/dev/null)", out)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = w.WriteString(`{"city":"Paris"}`)
		w.Close()
	}()
	_, out = run(t, Spec{Command: "cat", Stdin: r})
	r.Close()
	if out != `{"city":"Paris"}` {
		t.Errorf("read %q from Stdin", out)
	}
}

func TestFinalDirectory(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub dir")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(sub, link); err != nil {
		t.Fatal(err)
	}
	realSub, _ := filepath.EvalSymlinks(sub)
	realDir, _ := filepath.EvalSymlinks(dir)
	tests := []struct {
		command string
		want    string
	}{
		{"true", realDir},
		{`cd "sub dir"`, realSub},
		{"cd link", realSub},
		{`cd "sub dir" && exit 4`, realSub},
		{"cd /", "/"},
		{"exec true", ""},
		{"trap 'echo mine' EXIT; cd /", ""},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			exit, out := run(t, Spec{Command: tt.command, Dir: dir})
			if exit.Dir != tt.want {
				t.Errorf("Dir %q, want %q (output %q)", exit.Dir, tt.want, out)
			}
		})
	}
}

func TestEnvironment(t *testing.T) {
	env := []string{"PATH=" + os.Getenv("PATH"), "MY_VAR=mine", "GIT_EDITOR=vim", "TERM=xterm-256color", "CI=1"}
	_, out := run(t, Spec{Command: `echo "$MY_VAR|$GIT_EDITOR|$TERM|$PAGER|$GIT_PAGER|$GIT_TERMINAL_PROMPT|$CI|$GIT_SSH_COMMAND"`, Env: env})
	want := "mine|true|dumb|cat|cat|0|1|ssh -o BatchMode=yes\n"
	if out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	env = append(env, TermEnv+"=xterm", "GIT_SSH_COMMAND=ssh -i key")
	_, out = run(t, Spec{Command: `echo "$TERM|$GIT_SSH_COMMAND"`, Env: env})
	if out != "xterm|ssh -i key\n" {
		t.Errorf("with overrides: %q", out)
	}
}

func TestNoEnvironmentIsTheUsersWithoutTheCredentials(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
	t.Setenv("MINI_CLAUDE_TEST_USER_VAR", "from-user")
	_, out := run(t, Spec{Command: `echo "[$ANTHROPIC_API_KEY] $MINI_CLAUDE_TEST_USER_VAR"`})
	if out != "[] from-user\n" {
		t.Errorf("with Env nil: %q, want the user's variables without the key", out)
	}
}

func TestEnvironmentDoesNotCarryOver(t *testing.T) {
	dir := t.TempDir()
	run(t, Spec{Command: "export LEAK=1; cd /", Dir: dir})
	_, out := run(t, Spec{Command: `echo "[$LEAK]"`, Dir: dir})
	if out != "[]\n" {
		t.Errorf("a variable exported by an earlier command is visible: %q", out)
	}
}

func TestInteractiveCommandsReturn(t *testing.T) {
	tests := []struct {
		name, command, want string
	}{
		{"read gets end of input", `read -r line; echo "read=$?"`, "read=1\n"},
		{"no controlling terminal", `{ : </dev/tty; } 2>/dev/null; echo "tty=$?"`, "tty=1\n"},
		{"sudo cannot ask", `sudo -k true </dev/null >/dev/null 2>&1; echo "sudo done"`, "sudo done\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, out := run(t, Spec{Command: tt.command})
			if out != tt.want {
				t.Errorf("output %q, want %q", out, tt.want)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestGitRebaseInteractiveReturns(t *testing.T) {
	dir := t.TempDir()
	script := `set -e
git init -q -b main .
git -c user.name=t -c user.email=t@t commit -q --allow-empty -m one
git -c user.name=t -c user.email=t@t commit -q --allow-empty -m two
git -c user.name=t -c user.email=t@t rebase -i HEAD~1 >/dev/null 2>&1
git commit --allow-empty >/dev/null 2>&1 || echo "commit without -m aborted"
git log --format=%s`
	start := time.Now()
	exit, out := run(t, Spec{Command: script, Dir: dir, Env: append(os.Environ(), "HOME="+dir)})
	if exit.Code != 0 || out != "commit without -m aborted\ntwo\none\n" {
		t.Errorf("exit %d, output %q", exit.Code, out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestStartErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone")
	_, err := Start(Spec{Command: "true", Dir: missing})
	if err == nil || !strings.Contains(err.Error(), "no longer exists") {
		t.Errorf("start in a missing directory: %v", err)
	}
}

// sessionMembers lists the live processes of the session led by sid; zombies
// are dead, waiting only for init to reap them.
func sessionMembers(sid int) []int {
	var pids []int
	for _, p := range processes() {
		if p.session == sid && p.state != 'Z' {
			pids = append(pids, p.pid)
		}
	}
	return pids
}

func TestTerminateKillsTheWholeGroupWithinASecond(t *testing.T) {
	tests := []struct{ name, command string }{
		{"children", "sleep 1000 & sleep 1000 & wait"},
		{"ignores SIGTERM", "trap '' TERM; sleep 1000 & trap '' TERM; sleep 999; wait"},
		{"own process group", "set -m; sleep 1000 & sleep 1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Start(Spec{Command: tt.command, Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond)
			if n := len(sessionMembers(p.Pid())); n < 2 {
				t.Fatalf("%d processes in the session before Terminate, want at least 2", n)
			}
			start := time.Now()
			p.Terminate(TerminateGrace)
			if d := time.Since(start); d > time.Second {
				t.Errorf("Terminate took %v", d)
			}
			waitGone(t, p.Pid())
		})
	}
}

// waitGone fails unless every process of the session led by sid is gone
// shortly (killed processes need a moment to be reaped by init).
func waitGone(t *testing.T, sid int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		left := sessionMembers(sid)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes %v of session %d survived", left, sid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestChildLeftRunningDoesNotHoldTheResult(t *testing.T) {
	start := time.Now()
	exit, out := run(t, Spec{Command: "sleep 1000 & echo started"})
	if d := time.Since(start); d > time.Second {
		t.Errorf("the result waited %v for a background child", d)
	}
	if exit.Code != 0 || out != "started\n" {
		t.Errorf("exit %d, output %q", exit.Code, out)
	}
}

func TestKillGroupsAfterExitKillsLeftovers(t *testing.T) {
	var out buffer
	p, err := Start(Spec{Command: "sleep 1000 & nohup sleep 999 >/dev/null 2>&1 & echo ok", Dir: t.TempDir(), Output: &out})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	if !GroupAlive(p.Pid()) {
		t.Fatal("the children are not running after bash exited")
	}
	KillGroups(p.Pid())
	waitGone(t, p.Pid())
	if GroupAlive(p.Pid()) {
		t.Error("GroupAlive after KillGroups")
	}
}

func TestEnvironmentFunction(t *testing.T) {
	got := Environment([]string{"A=1", "PAGER=less", "TERM=xterm", "GIT_SSH=/bin/myssh"})
	for _, want := range []string{"A=1", "PAGER=cat", "TERM=dumb", "GIT_EDITOR=true", "GIT_SSH=/bin/myssh"} {
		if !slices.Contains(got, want) {
			t.Errorf("%v lacks %s", got, want)
		}
	}
	for _, kv := range got {
		if strings.HasPrefix(kv, "GIT_SSH_COMMAND=") || kv == "PAGER=less" || kv == "TERM=xterm" {
			t.Errorf("%v keeps %s", got, kv)
		}
	}
}
