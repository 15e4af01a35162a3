package bash

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/shell"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/workspace"
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

// decide runs a Bash call through the permission engine as the executor does.
func decide(t *testing.T, env *tool.Env, perm permission.Context, command string) permission.Decision {
	t.Helper()
	in := Input{Command: command}
	own := checkPermissions(context.Background(), in, env)
	acc := accesses(context.Background(), in, env)
	var cmds []permission.Command
	for _, c := range acc.Commands {
		cmds = append(cmds, permission.Command{Args: c.Args, Text: c.Text, ReadOnly: c.ReadOnly, Dynamic: c.Dynamic, Plain: c.Plain, Destructive: c.Destructive})
	}
	a := analysis(in)
	return perm.Decide(permission.Query{Tool: "Bash", ReadOnly: a != nil && a.ReadOnly, ToolVerdict: permission.Behavior(own.Behavior),
		Reads: acc.Reads, Writes: acc.Writes, Commands: cmds})
}

func TestAccessesUnderTheEngine(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	extra, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	os.Symlink("/etc", filepath.Join(root, "etc-link"))
	session := tool.NewSession(root)
	env := &tool.Env{Cwd: root, AdditionalDirs: []string{extra}, Session: session}
	perm := permission.Context{Mode: permission.ModeDefault, Dirs: []string{root, extra}, Home: "/home/nobody"}
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
		{"ls .*/x", tool.Allow},
		{"ls .*/", tool.Ask},
		{"ls */../../x", tool.Ask},
		{"cat {/etc/passwd,a}", tool.Ask},
		{"cd - && ls", tool.Ask},
		{`cd "$DIR" && cat a.txt`, tool.Ask},
		{"pushd sub >/dev/null && popd >/dev/null && cat a.txt", tool.Ask},
		{"rm a.txt", tool.Ask},
		{"echo x > a.txt", tool.Ask},
		{"npm test", tool.Ask},
		{"cat .env", tool.Deny},
		{"cat < sub/.env.local", tool.Deny},
	}
	for _, tt := range tests {
		got := decide(t, env, perm, tt.command)
		if want := permission.Behavior(tt.want); got.Behavior != want {
			t.Errorf("%q: %v (%s), want %v", tt.command, got.Behavior, got.Reason, want)
		}
	}
}

// In a folder the user has not trusted, git may only run unasked where its
// repository's configuration can be read before the command runs.
func TestGitInAnUnknownDirectoryIsAskedInAnUntrustedFolder(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	perm := permission.Context{Mode: permission.ModeDefault, Dirs: []string{root}, Home: "/home/nobody"}
	for _, tt := range []struct {
		command string
		trusted bool
		want    tool.Behavior
	}{
		{`find . -name .git -execdir git status \;`, false, tool.Ask},
		{`find . -name .git -execdir git status \;`, true, tool.Allow},
		{`find . -type d -exec git -C {} log \;`, false, tool.Ask},
		{"git status && git -C sub log", false, tool.Allow},
		{"find . -name .git", false, tool.Allow},
	} {
		env := &tool.Env{Cwd: root, Session: tool.NewSession(root), FolderTrusted: tt.trusted}
		if got := decide(t, env, perm, tt.command); got.Behavior != permission.Behavior(tt.want) {
			t.Errorf("%q (trusted %v): %v (%s), want %v", tt.command, tt.trusted, got.Behavior, got.Reason, tt.want)
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
		env := h.env()
		perm := permission.Context{Mode: permission.ModeDefault, Dirs: []string{workspace.RealPath(env.Cwd)}}
		if got := decide(t, env, perm, command); got.Behavior != permission.Behavior(want) {
			t.Errorf("%q: %v (%s), want %v", command, got.Behavior, got.Reason, want)
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
		if available && (got.Behavior != tool.Ask || got.Message == "") || !available && got.Behavior != tool.Passthrough {
			t.Errorf("sandbox available %v: %v %q", available, got.Behavior, got.Message)
		}
	}
	sandboxStatus = shell.ProbeSandbox
}

// In a folder the user has not trusted, git runs unasked only where the
// guard knows every key of the repository's own configuration.
func TestGitWithUnknownRepositoryKeysIsAskedInAnUntrustedFolder(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitRepository(t, root)
	perm := permission.Context{Mode: permission.ModeDefault, Dirs: []string{root}, Home: "/home/nobody"}
	decideAll := func(trusted bool) map[string]permission.Decision {
		env := &tool.Env{Cwd: root, Session: tool.NewSession(root), FolderTrusted: trusted}
		out := map[string]permission.Decision{}
		for _, command := range []string{"git status", "git log -1", "ls -la"} {
			out[command] = decide(t, env, perm, command)
		}
		return out
	}
	for command, got := range decideAll(false) {
		if got.Behavior != permission.Allow {
			t.Errorf("an ordinary repository: %q %v (%s), want allowed", command, got.Behavior, got.Reason)
		}
	}
	runGit(t, root, "config", "lfs.customtransfer.x.path", "./x")
	runGit(t, root, "config", "gitflow.branch.master", "main")
	for command, got := range decideAll(false) {
		want := permission.Ask
		if command == "ls -la" {
			want = permission.Allow
		}
		if got.Behavior != want {
			t.Errorf("unknown keys, untrusted: %q %v (%s), want %v", command, got.Behavior, got.Reason, want)
		}
		if want == permission.Ask && !strings.Contains(got.Reason, "git with the repository's configuration of lfs.customtransfer.x.path, gitflow.branch.master, keys") {
			t.Errorf("%q: the question %q does not name the keys", command, got.Reason)
		}
	}
	for command, got := range decideAll(true) {
		if got.Behavior != permission.Allow {
			t.Errorf("unknown keys, trusted: %q %v (%s), want allowed", command, got.Behavior, got.Reason)
		}
	}
}

func TestUnknownKeysPartNamesAFew(t *testing.T) {
	for keys, want := range map[string]string{
		"a.b":             "of a.b, keys",
		"a.b c.d e.f g.h": "of a.b, c.d, e.f and 1 more, keys",
	} {
		if got := unknownKeysPart(strings.Fields(keys)); !strings.Contains(got, want) {
			t.Errorf("unknownKeysPart(%s) = %q, want it to hold %q", keys, got, want)
		}
	}
}
