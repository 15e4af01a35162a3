package fileaccess

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/tool"
)

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
