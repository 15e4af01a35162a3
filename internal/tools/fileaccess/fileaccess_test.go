package fileaccess

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

func TestWriteAtomicWritesThroughSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.txt")
	link := filepath.Join(dir, "link.txt")
	os.WriteFile(target, []byte("old"), 0o600)
	os.Symlink(target, link)
	if err := WriteAtomic(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a file (err %v)", err)
	}
	info, _ := os.Stat(target)
	if data, _ := os.ReadFile(target); string(data) != "new" || info.Mode().Perm() != 0o600 {
		t.Errorf("target has %q mode %v, want the new content and mode 0600", data, info.Mode().Perm())
	}
	dangling := filepath.Join(dir, "dangling.txt")
	os.Symlink(filepath.Join(dir, "missing", "x.txt"), dangling)
	if err := WriteAtomic(dangling, []byte("here"), 0o644); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(dangling); !info.Mode().IsRegular() {
		t.Errorf("a dangling link was followed; want it replaced by a regular file")
	}
}

func TestLineEnding(t *testing.T) {
	tests := []struct {
		content, want string
	}{
		{"", ""},
		{"one line", ""},
		{"a\nb\n", LF},
		{"a\r\nb\r\n", CRLF},
		{"a\r\nb\nc\r\n", CRLF},
		{"a\r\nb\n", LF},
		{"a\rb\r", ""},
	}
	for _, tt := range tests {
		if got := LineEnding([]byte(tt.content)); got != tt.want {
			t.Errorf("LineEnding(%q) = %q, want %q", tt.content, got, tt.want)
		}
	}
}

func TestConvertLineEndings(t *testing.T) {
	tests := []struct {
		text, eol, want string
	}{
		{"a\nb\r\nc", CRLF, "a\r\nb\r\nc"},
		{"a\nb\r\nc", LF, "a\nb\nc"},
		{"a\r\nb", "", "a\r\nb"},
		{"no break", CRLF, "no break"},
		{"lone\rcr\n", CRLF, "lone\rcr\r\n"},
	}
	for _, tt := range tests {
		if got := ConvertLineEndings(tt.text, tt.eol); got != tt.want {
			t.Errorf("ConvertLineEndings(%q, %q) = %q, want %q", tt.text, tt.eol, got, tt.want)
		}
	}
}

func TestWriteAtomicNeverReplacesADevice(t *testing.T) {
	link := filepath.Join(t.TempDir(), "null")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/null", link} {
		if err := WriteAtomic(path, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("WriteAtomic(%s) = %v, want a refusal", path, err)
		}
	}
	if info, err := os.Stat("/dev/null"); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is now %v (%v)", info.Mode(), err)
	}
}
