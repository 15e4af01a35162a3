package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
)

// fixture lays out a home folder, a git repository with memory files and an
// extra directory under a temporary root, and returns the root.
func fixture(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "home", "CLAUDE.md"), "Answer in British English.\n")
	writeFile(t, filepath.Join(root, "proj", ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(root, "proj", "CLAUDE.md"), "# Project\n\nRun `make test` before committing.\n")
	writeFile(t, filepath.Join(root, "proj", "svc", "AGENTS.md"), "The service talks to Postgres 16.\n")
	writeFile(t, filepath.Join(root, "proj", "svc", "CLAUDE.local.md"), "My database is on port 5433.\n")
	if err := os.MkdirAll(filepath.Join(root, "extra"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

func fullOptions(root string) Options {
	return Options{
		Cwd:            filepath.Join(root, "proj", "svc"),
		AdditionalDirs: []string{filepath.Join(root, "extra")},
		Model:          "claude-sonnet-4-5",
		ToolNames:      []string{"Agent", "Bash", "Edit", "Glob", "Grep", "NotebookEdit", "Read", "TodoWrite", "ToolSearch", "WebFetch", "WebSearch", "Write", "mcp__github__create_issue"},
		Now:            time.Date(2025, 6, 1, 23, 30, 0, 0, time.UTC),
	}
}

func TestBuildGolden(t *testing.T) {
	root := fixture(t)
	got := build(fullOptions(root), testHost(filepath.Join(root, "home")))
	got = strings.ReplaceAll(got, root, "/TMP")

	golden := filepath.Join("testdata", "full.golden")
	goldenfile.Check(t, golden, got)
}

func TestBuildToolGuidance(t *testing.T) {
	tests := []struct {
		name    string
		tools   []string
		want    []string
		notWant []string
	}{
		{
			name:    "no tools, no tool section",
			notWant: []string{"# Tools", "Bash", "Read", "parallel", "denied"},
		},
		{
			name:    "Bash alone points to no dedicated tools",
			tools:   []string{"Bash"},
			want:    []string{"# Tools", "- Bash: run programs", "in parallel", "denied"},
			notWant: []string{"cat, head", "Read", "Grep", "dedicated tool"},
		},
		{
			name:    "Bash steers to the dedicated tools present only",
			tools:   []string{"Grep", "Bash", "Read"},
			want:    []string{"use Read rather than cat, head or tail; Grep rather than grep or rg.", "- Read:", "- Grep:"},
			notWant: []string{"sed or awk", "find or ls", "- Edit:", "- Glob:", "- Write:"},
		},
		{
			name:    "file tools without Bash mention no shell commands",
			tools:   []string{"Read", "Edit", "Write"},
			want:    []string{"- Read:", "- Edit:", "- Write:"},
			notWant: []string{"Bash", "cat, head", "sed or awk"},
		},
		{
			name:    "MCP tools get a note; unknown tools get nothing",
			tools:   []string{"mcp__db__query", "Frobnicate"},
			want:    []string{"mcp__<server>__<tool>"},
			notWant: []string{"Frobnicate"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := toolSection(tt.tools)
			built := build(Options{Cwd: t.TempDir(), ToolNames: tt.tools}, testHost(""))
			if !strings.Contains(built, got) || (got == "") == strings.Contains(built, "# Tools") {
				t.Fatalf("tool section %q not as built into the prompt:\n%s", got, built)
			}
			for _, s := range tt.want {
				if !strings.Contains(got, s) {
					t.Errorf("missing %q", s)
				}
			}
			for _, s := range tt.notWant {
				if strings.Contains(got, s) {
					t.Errorf("unexpected %q", s)
				}
			}
		})
	}
}

func TestBuildToolOrderIsFixed(t *testing.T) {
	dir := t.TempDir()
	a := build(Options{Cwd: dir, ToolNames: []string{"Read", "Bash", "Grep"}}, testHost(""))
	b := build(Options{Cwd: dir, ToolNames: []string{"Grep", "Read", "Bash"}}, testHost(""))
	if a != b {
		t.Errorf("prompt depends on the order of ToolNames:\n%s\n---\n%s", a, b)
	}
}

func TestBuildOverrideAndAppend(t *testing.T) {
	root := fixture(t)
	base := fullOptions(root)
	tests := []struct {
		name             string
		override, append string
		want             func(built string) string
	}{
		{"neither", "", "", func(built string) string { return built }},
		{"append", "", "Always answer in haiku.", func(built string) string { return built + "\n\nAlways answer in haiku." }},
		{"override", "You are a pirate.", "", func(string) string { return "You are a pirate." }},
		{"override and append", "You are a pirate.", "Say arr.", func(string) string { return "You are a pirate.\n\nSay arr." }},
	}
	built := build(base, testHost(filepath.Join(root, "home")))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := base
			opts.Override, opts.Append = tt.override, tt.append
			got := build(opts, testHost(filepath.Join(root, "home")))
			if want := tt.want(built); got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestBuildEnv(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "repo", ".git", "HEAD"), "ref: refs/heads/dev\n")
	writeFile(t, filepath.Join(root, "detached", ".git", "HEAD"), "abcdef0123456789abcdef0123456789abcdef01\n")
	writeFile(t, filepath.Join(root, "plain", "x"), "")
	date := time.Date(2024, 2, 29, 8, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		opts Options
		host host
		want string
	}{
		{
			name: "repo on a branch, everything known",
			opts: Options{Cwd: filepath.Join(root, "repo"), AdditionalDirs: []string{filepath.Join(root, "a"), filepath.Join(root, "b")}, Model: "m-1", Now: date},
			host: testHost(""),
			want: "<env>\nWorking directory: /TMP/repo\nAdditional working directories: /TMP/a, /TMP/b\nGit repository: yes (root: /TMP/repo)\nGit branch: dev\nPlatform: linux\nOS version: Linux 6.1.0-test\nToday's date: 2024-02-29\nModel: m-1\n</env>",
		},
		{
			name: "detached HEAD",
			opts: Options{Cwd: filepath.Join(root, "detached"), Now: date},
			host: testHost(""),
			want: "<env>\nWorking directory: /TMP/detached\nGit repository: yes (root: /TMP/detached)\nGit HEAD: detached at abcdef0\nPlatform: linux\nOS version: Linux 6.1.0-test\nToday's date: 2024-02-29\n</env>",
		},
		{
			name: "no repository, unknown OS version, model and date",
			opts: Options{Cwd: filepath.Join(root, "plain")},
			host: host{platform: "plan9"},
			want: "<env>\nWorking directory: /TMP/plain\nGit repository: no\nPlatform: plan9\n</env>",
		},
		{
			name: "the date is the one Now carries, in its own zone",
			opts: Options{Cwd: filepath.Join(root, "plain"), Now: time.Date(2024, 12, 31, 23, 0, 0, 0, time.FixedZone("X", -5*3600))},
			host: host{platform: "linux"},
			want: "<env>\nWorking directory: /TMP/plain\nGit repository: no\nPlatform: linux\nToday's date: 2024-12-31\n</env>",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := build(tt.opts, tt.host)
			start, end := strings.Index(got, "<env>"), strings.Index(got, "</env>")
			if start < 0 || end < 0 {
				t.Fatalf("no env block in:\n%s", got)
			}
			env := strings.ReplaceAll(got[start:end+len("</env>")], root, "/TMP")
			if _, ok := findGit(root); ok && strings.Contains(tt.want, "Git repository: no") {
				t.Skip("the test directory is inside a git repository, which would be reported")
			}
			if env != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", env, tt.want)
			}
		})
	}
}

func TestOSVersion(t *testing.T) {
	if got := osVersion(); got != "" && !strings.Contains(got, " ") {
		t.Errorf("osVersion() = %q, want kernel name and release", got)
	}
}

func TestBuildSubAgent(t *testing.T) {
	root := fixture(t)
	t.Setenv("MINI_CLAUDE_HOME", filepath.Join(root, "home"))
	opts := fullOptions(root)
	opts.ToolNames = []string{"Read", "Grep"}
	got := BuildSubAgent("You review code.", opts)
	if !strings.HasPrefix(got, "You review code.\n\n") {
		t.Errorf("the prompt does not start with the role: %.80q", got)
	}
	for _, want := range []string{"Working directory: " + opts.Cwd, "Model: claude-sonnet-4-5", "Run `make test` before committing."} {
		if !strings.Contains(got, want) {
			t.Errorf("the sub-agent prompt lacks %q", want)
		}
	}
	if main := Build(opts); strings.Contains(got, strings.SplitN(main, "\n", 2)[0]) {
		t.Error("the sub-agent prompt holds the main agent's identity")
	}
}

func TestDeferredTools(t *testing.T) {
	if got := DeferredTools(nil); got != "" {
		t.Errorf("no deferred tools gave %q", got)
	}
	got := DeferredTools([]string{"mcp__slack__send_message", "NotebookEdit"})
	golden := filepath.Join("testdata", "deferred.golden")
	goldenfile.Check(t, golden, got)
}

func TestWithDeferredTools(t *testing.T) {
	list := DeferredTools([]string{"A"})
	tests := []struct {
		system string
		names  []string
		want   string
	}{
		{"base", nil, "base"},
		{"base", []string{"A"}, "base\n\n" + list},
		{"", []string{"A"}, list},
		{"", nil, ""},
	}
	for _, tt := range tests {
		if got := WithDeferredTools(tt.system, tt.names); got != tt.want {
			t.Errorf("WithDeferredTools(%q, %v) = %q, want %q", tt.system, tt.names, got, tt.want)
		}
	}
}
