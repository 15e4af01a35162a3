package bash

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mini-claude/mini-claude/internal/shell"
	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestFlagsFollowTheAnalysis(t *testing.T) {
	tests := []struct {
		command            string
		readOnly, parallel bool
	}{
		{"ls -la", true, true},
		{"git status && git diff", true, true},
		{"cat a.txt | grep foo | wc -l", true, true},
		{"cd sub && ls", true, false},
		{"echo hi > out.txt", false, false},
		{"rm -rf build", false, false},
		{"npm test", false, false},
		{"find . -name '*.go' -delete", false, false},
		{"echo 'unclosed", false, false},
		{"", false, false},
	}
	for _, tt := range tests {
		c, err := Tool.Parse(json.RawMessage(`{"command":` + quote(tt.command) + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if c.IsReadOnly() != tt.readOnly || c.IsConcurrencySafe() != tt.parallel {
			t.Errorf("%q: read-only %v, parallel %v; want %v, %v", tt.command, c.IsReadOnly(), c.IsConcurrencySafe(), tt.readOnly, tt.parallel)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestCheckPermissions(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	extra, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	os.Symlink("/etc", filepath.Join(root, "etc-link"))
	session := tool.NewSession(root)
	env := &tool.Env{Cwd: root, AdditionalDirs: []string{extra}, Session: session}
	tests := []struct {
		command string
		want    tool.Behavior
	}{
		{"ls", tool.Allow},
		{"cat sub/a.txt ../" + filepath.Base(extra) + "/b.txt", tool.Allow},
		{"grep -r foo " + extra, tool.Allow},
		{"ls *.go sub/*.txt", tool.Allow},
		{"cd sub && cat a.txt", tool.Allow},
		{"git log --oneline", tool.Allow},
		{"cat /etc/passwd", tool.Ask},
		{"cat etc-link/passwd", tool.Ask},
		{"ls ../", tool.Ask},
		{"cd /etc && cat passwd", tool.Ask},
		{"cd sub && cat ../../x", tool.Ask},
		{"cat $HOME/.ssh/id_rsa", tool.Ask},
		{"cat ~/.bashrc", tool.Ask},
		{"ls .*/x", tool.Ask},
		{"ls */../../x", tool.Ask},
		{"cat {/etc/passwd,a}", tool.Ask},
		{"cd - && ls", tool.Ask},
		{`cd "$DIR" && cat a.txt`, tool.Ask},
		{"pushd sub >/dev/null && popd >/dev/null && cat a.txt", tool.Ask},
		{"rm a.txt", tool.Passthrough},
		{"echo x > a.txt", tool.Passthrough},
		{"npm test", tool.Passthrough},
	}
	for _, tt := range tests {
		got := checkPermissions(context.Background(), Input{Command: tt.command}, env)
		if got.Behavior != tt.want {
			t.Errorf("%q: %v (%s), want %v", tt.command, got.Behavior, got.Message, tt.want)
		}
	}
}

func TestStoredResultsMayBeRead(t *testing.T) {
	h := newHarness(t)
	r := h.bash("seq 1 20000")
	for command, want := range map[string]tool.Behavior{
		"tail -n 5 " + r.out.OutputPath:                           tool.Allow,
		"grep 1999 " + r.out.OutputPath:                           tool.Allow,
		"cat " + filepath.Join(h.home, "settings.json"):           tool.Ask,
		"cat " + filepath.Dir(r.out.OutputPath) + "/../../x.json": tool.Ask,
	} {
		if got := checkPermissions(context.Background(), Input{Command: command}, h.env()); got.Behavior != want {
			t.Errorf("%q: %v, want %v", command, got.Behavior, want)
		}
	}
}

func TestUnsandboxedRunIsAsked(t *testing.T) {
	env := &tool.Env{Cwd: "/work", Session: tool.NewSession("/work")}
	in := Input{Command: "ls", DangerouslyDisableSandbox: true}
	for _, available := range []bool{true, false} {
		sandboxStatus = func() shell.SandboxStatus {
			if available {
				return shell.SandboxStatus{ABI: 7}
			}
			return shell.SandboxStatus{Err: os.ErrNotExist}
		}
		got := checkPermissions(context.Background(), in, env)
		if available && (got.Behavior != tool.Ask || got.Message == "") || !available && got.Behavior != tool.Allow {
			t.Errorf("sandbox available %v: %v %q", available, got.Behavior, got.Message)
		}
	}
	sandboxStatus = shell.ProbeSandbox
}
