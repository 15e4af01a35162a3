package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/config"
)

// under keeps the files below root, dropping any the walk finds above the test's directory.
func under(root string, files []MemoryFile) []MemoryFile {
	var kept []MemoryFile
	for _, f := range files {
		if strings.HasPrefix(f.Path, root+string(filepath.Separator)) {
			kept = append(kept, f)
		}
	}
	return kept
}

func TestMemoryFiles(t *testing.T) {
	type want struct{ path, kind string }
	tests := []struct {
		name  string
		files map[string]string // relative to the test root
		home  string            // relative to the test root
		cwd   string            // relative to the test root
		want  []want
	}{
		{
			name: "order and kinds from the user file down to the cwd",
			files: map[string]string{
				"home/CLAUDE.md":              "user",
				"a/CLAUDE.md":                 "a project",
				"a/CLAUDE.local.md":           "a local",
				"a/AGENTS.md":                 "a agents",
				"a/.claude/CLAUDE.md":         "a dot-claude",
				"a/b/CLAUDE.md":               "b project",
				"a/b/c/CLAUDE.local.md":       "c local",
				"a/b/c/d/CLAUDE.md":           "below the cwd: ignored",
				"a/sibling/CLAUDE.md":         "beside the cwd: ignored",
				"a/b/.claude/settings.json":   "{}",
				"a/b/.claude/CLAUDE.local.md": "not a memory file",
			},
			home: "home",
			cwd:  "a/b/c",
			want: []want{
				{"home/CLAUDE.md", KindUser},
				{"a/CLAUDE.md", KindProject},
				{"a/.claude/CLAUDE.md", KindProject},
				{"a/AGENTS.md", KindProject},
				{"a/CLAUDE.local.md", KindLocal},
				{"a/b/CLAUDE.md", KindProject},
				{"a/b/c/CLAUDE.local.md", KindLocal},
			},
		},
		{
			name:  "empty and whitespace-only files are skipped",
			files: map[string]string{"p/CLAUDE.md": "", "p/AGENTS.md": " \n\t\n", "p/CLAUDE.local.md": "x"},
			cwd:   "p",
			want:  []want{{"p/CLAUDE.local.md", KindLocal}},
		},
		{
			name:  "home under the walk is read once, as the user file",
			files: map[string]string{"home/CLAUDE.md": "user", "home/proj/CLAUDE.md": "project"},
			home:  "home",
			cwd:   "home/proj",
			want:  []want{{"home/CLAUDE.md", KindUser}, {"home/proj/CLAUDE.md", KindProject}},
		},
		{
			name:  "a copy with the same content is kept once",
			files: map[string]string{"p/CLAUDE.md": "same\n", "p/AGENTS.md": "same"},
			cwd:   "p",
			want:  []want{{"p/CLAUDE.md", KindProject}},
		},
		{
			name:  "no home, no files",
			files: map[string]string{"p/README.md": "not memory"},
			cwd:   "p",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for rel, content := range tt.files {
				writeFile(t, filepath.Join(root, rel), content)
			}
			if err := os.MkdirAll(filepath.Join(root, tt.cwd), 0o755); err != nil {
				t.Fatal(err)
			}
			home := ""
			if tt.home != "" {
				home = filepath.Join(root, tt.home)
			}
			got := under(root, loadMemory(filepath.Join(root, tt.cwd), home, nil).Files)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d files %+v, want %d %+v", len(got), got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				path := filepath.Join(root, w.path)
				if got[i].Path != path || got[i].Kind != w.kind {
					t.Errorf("file %d = %s (%s), want %s (%s)", i, got[i].Path, got[i].Kind, path, w.kind)
				}
				if got[i].Content != tt.files[w.path] {
					t.Errorf("file %d content = %q, want %q", i, got[i].Content, tt.files[w.path])
				}
			}
		})
	}
}

func TestMemoryFilesSkipsWhatCannotBeRead(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "CLAUDE.md", "inside-a-directory"), "x")
	writeFile(t, filepath.Join(root, "AGENTS.md"), "secret")
	if err := os.Chmod(filepath.Join(root, "AGENTS.md"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "missing"), filepath.Join(root, "CLAUDE.local.md")); err != nil {
		t.Fatal(err)
	}
	got := under(root, loadMemory(root, "", nil).Files)
	if os.Geteuid() == 0 {
		// root reads mode-0 files; only the directory and the dangling link are skipped.
		if len(got) != 1 || got[0].Content != "secret" {
			t.Fatalf("got %+v, want only AGENTS.md", got)
		}
		return
	}
	if len(got) != 0 {
		t.Fatalf("got %+v, want nothing", got)
	}
}

func TestMemoryFilesSymlinkReadOnce(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "CLAUDE.md"), "shared")
	if err := os.Symlink("CLAUDE.md", filepath.Join(root, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	got := under(root, loadMemory(root, "", nil).Files)
	if len(got) != 1 || got[0].Path != filepath.Join(root, "CLAUDE.md") {
		t.Fatalf("got %+v, want CLAUDE.md once", got)
	}
}

func TestMemoryFilesTruncated(t *testing.T) {
	root := t.TempDir()
	// A two-byte character straddles the limit, so the cut must back off one byte.
	big := strings.Repeat("a", MaxMemoryBytes-1) + "é" + strings.Repeat("b", 100)
	writeFile(t, filepath.Join(root, "CLAUDE.md"), big)
	writeFile(t, filepath.Join(root, "AGENTS.md"), strings.Repeat("c", MaxMemoryBytes))

	got := under(root, loadMemory(root, "", nil).Files)
	if len(got) != 2 {
		t.Fatalf("got %d files, want 2", len(got))
	}
	if !got[0].Truncated || got[0].Content != strings.Repeat("a", MaxMemoryBytes-1) {
		t.Errorf("big file: truncated=%v, %d bytes; want truncated at %d", got[0].Truncated, len(got[0].Content), MaxMemoryBytes-1)
	}
	if got[1].Truncated || len(got[1].Content) != MaxMemoryBytes {
		t.Errorf("file at the limit: truncated=%v, %d bytes; want whole", got[1].Truncated, len(got[1].Content))
	}
	section := memorySection(Memory{Files: got})
	if strings.Count(section, "[truncated:") != 1 {
		t.Errorf("want one truncation note in:\n%s", section[len(section)-300:])
	}
}

func TestMemoryFilesRelativeCwd(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "CLAUDE.md"), "here")
	t.Chdir(root)
	t.Setenv("MINI_CLAUDE_HOME", filepath.Join(root, "home"))
	got := under(root, LoadMemory(".", nil).Files)
	if len(got) != 1 || got[0].Path != filepath.Join(root, "CLAUDE.md") {
		t.Fatalf("got %+v, want %s", got, filepath.Join(root, "CLAUDE.md"))
	}
}

func TestMemoryTextIsThePromptsMemorySection(t *testing.T) {
	root := t.TempDir()
	t.Setenv(config.HomeEnv, filepath.Join(root, "home"))
	writeFile(t, filepath.Join(root, "proj", "CLAUDE.md"), "Always run make check.")
	text := LoadMemory(filepath.Join(root, "proj"), nil).Text()
	if !strings.Contains(text, "Always run make check.") || !strings.Contains(text, filepath.Join(root, "proj", "CLAUDE.md")) {
		t.Errorf("Memory.Text() = %q, want the file's path and content", text)
	}
	full := Build(Options{Cwd: filepath.Join(root, "proj")})
	if !strings.Contains(full, text) {
		t.Error("the system prompt does not hold the text of Memory.Text")
	}
}
