package fileaccess

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/resultstore"
	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestInsideFollowsSymlinksAndDotDot(t *testing.T) {
	root := t.TempDir()
	cwd := filepath.Join(root, "project")
	extra := filepath.Join(root, "extra")
	outside := filepath.Join(root, "outside")
	for _, d := range []string{cwd, extra, outside} {
		os.MkdirAll(d, 0o755)
	}
	os.Symlink(outside, filepath.Join(cwd, "escape"))
	os.Mkdir(filepath.Join(cwd, "src"), 0o755)
	os.Symlink(filepath.Join(cwd, "src"), filepath.Join(outside, "back-in"))
	os.Symlink(filepath.Join(cwd, "gone"), filepath.Join(outside, "dangling"))
	env := &tool.Env{Cwd: cwd, AdditionalDirs: []string{extra}, Session: tool.NewSession(cwd)}
	tests := []struct {
		path string
		want bool
	}{
		{"main.go", true},
		{"src/deep/new/file.go", true},
		{"../extra/notes.md", true},
		{"../outside/x", false},
		{"src/../../outside/x", false},
		{"escape/secret", false},
		{"escape", false},
		{filepath.Join(outside, "back-in", "a.go"), true},
		{filepath.Join(outside, "dangling", "a.go"), false},
		{"/etc/passwd", false},
		{cwd, true},
		{cwd + "-sibling/x", false},
	}
	for _, tt := range tests {
		if got := Inside(env, Resolve(env, tt.path)); got != tt.want {
			t.Errorf("Inside(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestAllowedDirsKeepTheSessionRootAfterCd(t *testing.T) {
	root := t.TempDir()
	extra := t.TempDir()
	os.Mkdir(filepath.Join(root, "sub"), 0o755)
	session := tool.NewSession(root)
	session.SetCwd(extra)
	env := &tool.Env{Cwd: session.Cwd(), AdditionalDirs: []string{extra}, Session: session}
	if !Inside(env, filepath.Join(root, "sub", "a.go")) || !Inside(env, filepath.Join(extra, "b.go")) {
		t.Errorf("after cd into an added directory, AllowedDirs = %v lost the project root", AllowedDirs(env))
	}
}

func TestStoredResultsAreReadableWithoutAsking(t *testing.T) {
	t.Setenv(config.HomeEnv, t.TempDir())
	cwd := t.TempDir()
	env := &tool.Env{Cwd: cwd, SessionID: "s", Session: tool.NewSession(cwd)}
	stored, err := resultstore.Store(env, "toolu_1", "big result")
	if err != nil {
		t.Fatal(err)
	}
	if got := ReadPermission(env, stored.Path).Behavior; got != tool.Allow {
		t.Errorf("reading a stored result: %v, want allow", got)
	}
	if got := ReadPermission(env, "/etc/hosts").Behavior; got != tool.Ask {
		t.Errorf("reading /etc/hosts: %v, want ask", got)
	}
}

func TestWritePermission(t *testing.T) {
	cwd := t.TempDir()
	for mode, want := range map[string]tool.Behavior{"default": tool.Passthrough, "acceptEdits": tool.Allow, "plan": tool.Passthrough} {
		env := &tool.Env{Cwd: cwd, PermissionMode: mode}
		if got := WritePermission(env, filepath.Join(cwd, "a.txt")).Behavior; got != want {
			t.Errorf("%s inside: %v, want %v", mode, got, want)
		}
		if got := WritePermission(env, "/etc/hosts").Behavior; got != tool.Ask {
			t.Errorf("%s outside: %v, want ask", mode, got)
		}
	}
}

func TestWriteAtomicKeepsModeAndCreatesParents(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "run.sh")
	os.WriteFile(script, []byte("old"), 0o755)
	if err := WriteAtomic(script, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(script)
	if data, _ := os.ReadFile(script); string(data) != "new" || info.Mode().Perm() != 0o755 {
		t.Errorf("content %q mode %v, want new content and mode 0755", data, info.Mode().Perm())
	}
	nested := filepath.Join(dir, "a", "b", "c.txt")
	if err := WriteAtomic(nested, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d entries left in the directory, want 2 (no temp files)", len(entries))
	}
}

func TestStateAndChanged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	os.WriteFile(path, []byte("v1"), 0o644)
	info, _ := os.Stat(path)
	env := &tool.Env{Cwd: dir, Session: tool.NewSession(dir)}
	state := StateOf(env)
	state.RememberFull(path, []byte("v1"), info.ModTime())
	state.RememberPart(path, info.ModTime())
	rec, ok := StateOf(env).Lookup(path)
	if !ok || !rec.Full {
		t.Fatalf("record %+v, want the full record kept after a partial read of the same version", rec)
	}
	if changed, err := Changed(path, rec); changed || err != nil {
		t.Errorf("unchanged file reported changed=%v err=%v", changed, err)
	}
	later := info.ModTime().Add(time.Second)
	os.Chtimes(path, later, later)
	if changed, _ := Changed(path, rec); changed {
		t.Error("a touch without new content counted as a change")
	}
	os.WriteFile(path, []byte("v2"), 0o644)
	os.Chtimes(path, later.Add(time.Second), later.Add(time.Second))
	if changed, _ := Changed(path, rec); !changed {
		t.Error("new content was not noticed")
	}
}
