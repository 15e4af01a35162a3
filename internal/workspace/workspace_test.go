package workspace

import (
	"os"
	"path/filepath"
	"testing"

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
	os.Symlink(filepath.Join(outside, "new.txt"), filepath.Join(cwd, "dangling-out"))
	os.Symlink(filepath.Join(outside, "sub"), filepath.Join(cwd, "to-sub"))
	os.Mkdir(filepath.Join(outside, "sub"), 0o755)
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
		// A dangling link is followed to where a write through it would land.
		{filepath.Join(outside, "dangling", "a.go"), true},
		{"dangling-out", false},
		{"/etc/passwd", false},
		{cwd, true},
		{cwd + "-sibling/x", false},
	}
	// A shell resolves "link/.." physically: above the link's target.
	if got, want := RealPath(cwd+"/to-sub/../x"), filepath.Join(outside, "x"); got != want {
		t.Errorf("RealPath(to-sub/../x) = %q, want %q", got, want)
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
