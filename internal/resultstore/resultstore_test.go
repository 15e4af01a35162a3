package resultstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	goldenfile.Check(t, path, got)
}

func testEnv(t *testing.T) *tool.Env {
	t.Helper()
	t.Setenv(config.HomeEnv, filepath.Join(t.TempDir(), "home"))
	project := "/work/my_project"
	return &tool.Env{Cwd: project + "/sub", SessionID: "sess-1", ToolUseID: "toolu_01", Session: tool.NewSession(project)}
}

// numbered returns lines "line 1" to "line n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestFitStoresLargeTextAndShowsBothEnds(t *testing.T) {
	env := testEnv(t)
	text := numbered(5000)
	got := Fit(env, []llm.ContentBlock{llm.TextBlock(text)}, 30000)
	if len(got) != 1 || got[0].Type != llm.BlockText {
		t.Fatalf("got %d blocks", len(got))
	}
	path := filepath.Join(config.Home(), "projects", "-work-my-project", "sess-1", "tool-results", "toolu_01.txt")
	stored, err := os.ReadFile(path)
	if err != nil || string(stored) != text {
		t.Fatalf("stored file: %v, %d bytes of %d", err, len(stored), len(text))
	}
	golden(t, "persisted", strings.ReplaceAll(got[0].Text, path, "<PATH>"))
	if !Owns(path) {
		t.Errorf("Owns(%s) = false", path)
	}
}

func TestFitLeavesOtherContentAlone(t *testing.T) {
	env := testEnv(t)
	big := strings.Repeat("x", 100)
	image := llm.ContentBlock{Type: llm.BlockImage}
	tests := []struct {
		name    string
		content []llm.ContentBlock
		limit   int
	}{
		{"within the limit", []llm.ContentBlock{llm.TextBlock(big)}, 100},
		{"characters, not bytes", []llm.ContentBlock{llm.TextBlock(strings.Repeat("é", 100))}, 100},
		{"unlimited tool", []llm.ContentBlock{llm.TextBlock(big)}, tool.Unlimited},
		{"with an image", []llm.ContentBlock{llm.TextBlock(big), image}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Fit(env, tt.content, tt.limit)
			if len(got) != len(tt.content) || got[0].Text != tt.content[0].Text {
				t.Errorf("content changed: %+v", got)
			}
		})
	}
	if _, err := os.Stat(Dir(env)); err == nil {
		t.Error("a results folder was created though nothing was stored")
	}
}

func TestFitJoinsTextBlocks(t *testing.T) {
	env := testEnv(t)
	got := Fit(env, []llm.ContentBlock{llm.TextBlock("first"), llm.TextBlock(strings.Repeat("y", 50))}, 20)
	if len(got) != 1 || !strings.Contains(got[0].Text, "<persisted-output>") {
		t.Fatalf("got %+v", got)
	}
	if data, _ := os.ReadFile(Path(env, env.ToolUseID)); string(data) != "first\n"+strings.Repeat("y", 50) {
		t.Errorf("stored %q", data)
	}
}

func TestFitTruncatesWhenTheFileCannotBeWritten(t *testing.T) {
	env := testEnv(t)
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o644)
	t.Setenv(config.HomeEnv, blocker)
	text := numbered(100)
	got := Fit(env, []llm.ContentBlock{llm.TextBlock(text)}, 100)
	out := got[0].Text
	if !strings.Contains(out, "could not be saved") || !strings.Contains(out, "line 1\n") || strings.Contains(out, "line 100") {
		t.Errorf("got %q", out)
	}
}

func TestProjectSlug(t *testing.T) {
	long := "/" + strings.Repeat("very-long-directory-name/", 12)
	tests := []struct{ dir, want string }{
		{"/work/cc-research/runs/a_stream/cwd", "-work-cc-research-runs-a-stream-cwd"},
		{"/home/me/My Project.v2", "-home-me-My-Project-v2"},
		{"/tmp/café", "-tmp-caf-"},
		{"/tmp/😀", "-tmp---"},
		// The hash is Java's String.hashCode in base 36, as computed by node.
		{long, strings.ReplaceAll(long, "/", "-")[:200] + "-" + "dwfiun"},
	}
	for _, tt := range tests {
		if got := ProjectSlug(tt.dir); got != tt.want {
			t.Errorf("ProjectSlug(%q) = %q, want %q", tt.dir, got, tt.want)
		}
	}
}

func TestFileNameCannotEscape(t *testing.T) {
	for id, want := range map[string]string{
		"toolu_01ABC": "toolu_01ABC",
		"../../etc":   "%2E.%2F..%2Fetc",
		"a/b.c":       "a%2Fb.c",
		"":            "%",
	} {
		if got := fileName(id); got != want {
			t.Errorf("fileName(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestFormatSize(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"}, {1023, "1023 bytes"}, {1024, "1KB"}, {2000, "2KB"}, {46285, "45.2KB"},
		{1536 << 10, "1.5MB"}, {1_000_000_000, "953.7MB"}, {2 << 30, "2GB"},
	}
	for _, tt := range tests {
		if got := FormatSize(tt.n); got != tt.want {
			t.Errorf("FormatSize(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestHeadAndTail(t *testing.T) {
	text := numbered(1000)
	head, tail := Head(text, 100), Tail(text, 100)
	if !strings.HasPrefix(text, head) || strings.HasSuffix(head, "\n") || !strings.HasSuffix(head, "line 13") {
		t.Errorf("head %q", head)
	}
	if !strings.HasSuffix(text, tail) || !strings.HasPrefix(tail, "line 991\n") {
		t.Errorf("tail %q", tail)
	}
	noLines := strings.Repeat("é", 100)
	for _, s := range []string{Head(noLines, 51), Tail(noLines, 51)} {
		if !utf8.ValidString(s) || len(s) > 51 || len(s) < 49 {
			t.Errorf("cut inside a character or too short: %d bytes, valid %v", len(s), utf8.ValidString(s))
		}
	}
	if h, tl := Preview("short"); h != "short" || tl != "" {
		t.Errorf("Preview of a short text: %q, %q", h, tl)
	}
}

func TestOwns(t *testing.T) {
	t.Setenv(config.HomeEnv, "/home/u/.mini-claude")
	tests := map[string]bool{
		"/home/u/.mini-claude/projects/-p/s1/tool-results/toolu_1.txt": true,
		"/home/u/.mini-claude/projects/-p/s1/transcript.jsonl":         false,
		"/home/u/.mini-claude/settings.json":                           false,
		"/home/u/.mini-claude/projects/../settings.json":               false,
		"/etc/passwd": false,
	}
	for path, want := range tests {
		if got := Owns(path); got != want {
			t.Errorf("Owns(%s) = %v, want %v", path, got, want)
		}
	}
}

func TestOwnsFollowsSymlinks(t *testing.T) {
	env := testEnv(t)
	stored, err := Store(env, "toolu_x", "text")
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(filepath.Dir(stored.Path), "link.txt")
	os.Symlink("/etc/passwd", link)
	if !Owns(stored.Path) || Owns(link) {
		t.Errorf("Owns(stored) = %v, Owns(link to /etc/passwd) = %v", Owns(stored.Path), Owns(link))
	}
}

func TestPersistedWording(t *testing.T) {
	capped := Persisted{Path: "/r/x.txt", Size: 3 << 30, Stored: 1 << 30, Head: "first", Tail: "last"}
	golden(t, "persisted-capped", capped.String())
	short := Persisted{Path: "/r/y.txt", Size: 3000, Stored: 3000, Head: "all of it"}
	golden(t, "persisted-short", short.String())
}
