package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/permission"
)

// memoryFixture is a tree with a project, a fake home holding an SSH key and
// the per-user folder, files outside the project, and Read rules that deny
// the project's private/ folder.
type memoryFixture struct {
	root, home, userDir string
	perm                *permission.Context
}

// The contents of the files no memory file may bring into the prompt.
const (
	outsideText = "OUTSIDE NOTES"
	keyText     = "PRIVATE KEY"
	privateText = "PRIVATE RULES"
	environText = "environ-marker-4711"
)

func newMemoryFixture(t *testing.T) memoryFixture {
	t.Helper()
	root := t.TempDir()
	f := memoryFixture{root: root, home: filepath.Join(root, "home"), userDir: filepath.Join(root, "home", ".mini-claude")}
	writeFile(t, filepath.Join(root, "outside", "notes.md"), outsideText)
	writeFile(t, filepath.Join(root, "outside", "CLAUDE.md"), outsideText)
	writeFile(t, filepath.Join(f.home, ".ssh", "id_rsa"), keyText)
	writeFile(t, filepath.Join(root, "proj", "private", "rules.md"), privateText)
	writeFile(t, filepath.Join(root, "proj", "docs", "rules.md"), "Use tabs.")
	writeFile(t, filepath.Join(root, "shared", "rules.md"), "Shared rules.")
	deny, err := permission.ParseRule("Read(./private/**)", "project settings")
	if err != nil {
		t.Fatal(err)
	}
	deny.Base = filepath.Join(root, "proj")
	f.perm = &permission.Context{Home: f.home, Dirs: []string{filepath.Join(root, "proj")}, Deny: []permission.Rule{deny}}
	t.Setenv("MEMORY_TEST_MARKER", environText)
	return f
}

// link makes the memory file rel (under the fixture's root) a symlink to
// target, an absolute path or one relative to the root.
func (f memoryFixture) link(t *testing.T, rel, target string) {
	t.Helper()
	if !filepath.IsAbs(target) {
		target = filepath.Join(f.root, target)
	}
	path := filepath.Join(f.root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// refusedUnder keeps the refusals of files below root.
func refusedUnder(root string, refused []Refusal) []Refusal {
	var kept []Refusal
	for _, r := range refused {
		if strings.HasPrefix(r.Path, root+string(filepath.Separator)) {
			kept = append(kept, r)
		}
	}
	return kept
}

func TestMemoryFilesFollowTheReadRules(t *testing.T) {
	tests := []struct {
		name     string
		links    map[string]string // memory file -> target, relative to the root
		files    map[string]string // regular memory files, relative to the root
		cwd      string
		refused  string // the memory file refused, relative to the root; "" for none
		reason   string // part of the refusal's reason
		loaded   string // text the memory must hold
		withheld string // text the memory must not hold
	}{
		{name: "a link to a file outside the tree is refused", links: map[string]string{"proj/CLAUDE.md": "outside/notes.md"},
			cwd: "proj", refused: "proj/CLAUDE.md", reason: "is outside", withheld: outsideText},
		{name: "a link into a path a deny rule protects is refused", links: map[string]string{"proj/AGENTS.md": "proj/private/rules.md"},
			cwd: "proj", refused: "proj/AGENTS.md", reason: "deny rule Read(./private/**) (from project settings)", withheld: privateText},
		{name: "a link to ~/.ssh/id_rsa is refused", links: map[string]string{"proj/CLAUDE.local.md": "home/.ssh/id_rsa"},
			cwd: "proj", refused: "proj/CLAUDE.local.md", reason: "a link to", withheld: keyText},
		{name: "a link in the home folder to ~/.ssh/id_rsa is refused as a secret", links: map[string]string{"home/CLAUDE.md": "home/.ssh/id_rsa"},
			cwd: "home/proj", refused: "home/CLAUDE.md", reason: "protected as a secret", withheld: keyText},
		{name: "a link to /proc/self/environ is refused", links: map[string]string{"proj/CLAUDE.md": "/proc/self/environ"},
			cwd: "proj", refused: "proj/CLAUDE.md", reason: "device or process file", withheld: environText},
		{name: "a .claude folder linking out of the tree is refused", links: map[string]string{"proj/.claude": "outside"},
			cwd: "proj", refused: "proj/.claude/CLAUDE.md", reason: "resolves to", withheld: outsideText},
		{name: "the user's file linking out of the per-user folder is refused", links: map[string]string{"home/.mini-claude/CLAUDE.md": "outside/notes.md"},
			cwd: "proj", refused: "home/.mini-claude/CLAUDE.md", reason: "is outside", withheld: outsideText},
		{name: "a regular file a deny rule names is refused", files: map[string]string{"proj/private/CLAUDE.md": privateText},
			cwd: "proj/private", refused: "proj/private/CLAUDE.md", reason: "deny rule", withheld: privateText},
		{name: "a regular CLAUDE.md is read", files: map[string]string{"proj/CLAUDE.md": "Run make."},
			cwd: "proj", loaded: "Run make."},
		{name: "a link within the tree is read", links: map[string]string{"proj/CLAUDE.md": "proj/docs/rules.md"},
			cwd: "proj", loaded: "Use tabs."},
		{name: "a link in a parent folder to a file below it is read", links: map[string]string{"CLAUDE.md": "shared/rules.md"},
			cwd: "proj", loaded: "Shared rules."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newMemoryFixture(t)
			if strings.HasPrefix(tt.links["proj/CLAUDE.md"], "/proc/") {
				if _, err := os.Stat("/proc/self/environ"); err != nil {
					t.Skip("no /proc/self/environ on this system")
				}
			}
			for rel, target := range tt.links {
				f.link(t, rel, target)
			}
			for rel, content := range tt.files {
				writeFile(t, filepath.Join(f.root, rel), content)
			}
			cwd := filepath.Join(f.root, tt.cwd)
			if err := os.MkdirAll(cwd, 0o755); err != nil {
				t.Fatal(err)
			}
			m := loadMemory(cwd, f.userDir, f.perm)
			assertMemory(t, f.root, m, tt.refused, tt.reason, tt.loaded, tt.withheld)
		})
	}
}

// assertMemory checks that m refused exactly the file refused (relative to
// root; "" for none) for the reason, says so in its text, holds loaded and
// does not hold withheld.
func assertMemory(t *testing.T, root string, m Memory, refused, reason, loaded, withheld string) {
	t.Helper()
	text := m.Text()
	got := refusedUnder(root, m.Refused)
	switch {
	case refused == "" && len(got) != 0:
		t.Errorf("refused %+v, want nothing refused", got)
	case refused != "" && (len(got) != 1 || got[0].Path != filepath.Join(root, refused) || !strings.Contains(got[0].Reason, reason)):
		t.Errorf("refused %+v, want %s refused because %q", got, refused, reason)
	case refused != "" && !strings.Contains(text, got[0].String()):
		t.Errorf("the memory section does not say %q:\n%s", got[0], text)
	}
	if loaded != "" && !strings.Contains(text, loaded) {
		t.Errorf("the memory section lacks %q:\n%s", loaded, text)
	}
	if withheld != "" && strings.Contains(text, withheld) {
		t.Errorf("the memory section holds %q:\n%s", withheld, text)
	}
}

func TestBuildReadsMemoryThroughTheGivenRules(t *testing.T) {
	f := newMemoryFixture(t)
	f.link(t, "proj/CLAUDE.md", "proj/private/rules.md")
	opts := Options{Cwd: filepath.Join(f.root, "proj"), Permissions: f.perm}
	for name, prompt := range map[string]string{
		"Build": build(opts, testHost(f.userDir)), "BuildSubAgent": BuildSubAgent("You review code.", opts),
	} {
		if strings.Contains(prompt, privateText) || !strings.Contains(prompt, filepath.Join(f.root, "proj", "CLAUDE.md")+" was not read") {
			t.Errorf("%s: the prompt shows the denied file or does not say it was not read:\n%s", name, prompt)
		}
	}
}

func TestMemoryWithoutRulesStillKeepsSecretsOut(t *testing.T) {
	f := newMemoryFixture(t)
	t.Setenv("HOME", f.home)
	f.link(t, "home/CLAUDE.md", "home/.ssh/id_rsa")
	m := loadMemory(filepath.Join(f.root, "home", "proj"), f.userDir, nil)
	assertMemory(t, f.root, m, "home/CLAUDE.md", "protected as a secret", "", keyText)
}
