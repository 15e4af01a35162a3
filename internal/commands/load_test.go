package commands

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadReadsCommandsAndSkillsAsClaudeCodeNamesThem(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, ".claude/commands/mine.md"), "# Say hello in my style\n\nSay hello: $ARGUMENTS\n")
	write(t, filepath.Join(proj, ".claude/commands/review.md"), "---\ndescription: Review a file for bugs\nargument-hint: <file>\n---\nReview $ARGUMENTS.\n")
	write(t, filepath.Join(proj, ".claude/commands/team/deploy.md"), "---\ndescription: Deploy\nallowed-tools: Bash(echo:*), Bash(touch:*)\nmodel: claude-haiku-4-5\n---\nDeploy.\n")
	write(t, filepath.Join(proj, ".claude/commands/release.md"), "---\ndisable-model-invocation: true\n---\nRelease $0.\n")
	write(t, filepath.Join(proj, ".claude/commands/notes.txt"), "not a command")
	write(t, filepath.Join(proj, ".claude/skills/pdf/SKILL.md"), "---\nname: pdf\ndescription: Extract text from PDFs.\nallowed-tools:\n  - Bash(touch:*)\n  - Read\n---\n# PDF\n")
	write(t, filepath.Join(proj, ".claude/skills/empty/README.md"), "no SKILL.md here")
	write(t, filepath.Join(proj, ".mini-claude/commands/review.md"), "---\ndescription: mini-claude's review\n---\nReview.\n")

	user := UserDirs(filepath.Join(home, ".mini-claude"), home)
	cmds, errs := Load(append(user, ProjectDirs(proj, user)...))
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	set := NewSet(cmds)
	var names []string
	for _, c := range set.All() {
		names = append(names, c.Name)
	}
	if want := []string{"pdf", "mine", "release", "review", "team:deploy"}; !slices.Equal(names, want) {
		t.Fatalf("names = %q, want %q", names, want)
	}
	for _, tc := range []struct {
		name  string
		check func(Command) bool
		what  string
	}{
		{"mine", func(c Command) bool { return c.Description == "Say hello in my style" && c.Scope == User }, "description from the heading, user scope"},
		{"review", func(c Command) bool { return c.Description == "mini-claude's review" && c.Scope == Project }, ".mini-claude's wins over .claude's"},
		{"team:deploy", func(c Command) bool {
			return slices.Equal(c.AllowedTools, []string{"Bash(echo:*), Bash(touch:*)"}) && c.Model == "claude-haiku-4-5"
		}, "allowed-tools and model"},
		{"release", func(c Command) bool { return c.DisableModelInvocation && c.Description == "Release $0." }, "disable-model-invocation"},
		{"pdf", func(c Command) bool {
			return c.Skill && c.Dir == filepath.Join(proj, ".claude/skills/pdf") && c.Body == "# PDF\n" && slices.Equal(c.AllowedTools, []string{"Bash(touch:*)", "Read"})
		}, "a skill with its folder and a list of tools"},
	} {
		c, ok := set.Find(tc.name)
		if !ok || !tc.check(c) {
			t.Errorf("%s: want %s, got %+v", tc.name, tc.what, c)
		}
	}
	if got := set.SkillNames(); !slices.Equal(got, []string{"pdf"}) {
		t.Errorf("SkillNames = %q", got)
	}
	var invocable []string
	for _, c := range set.ModelInvocable() {
		invocable = append(invocable, c.Name)
	}
	if want := []string{"pdf", "mine", "review", "team:deploy"}; !slices.Equal(invocable, want) {
		t.Errorf("ModelInvocable = %q, want %q", invocable, want)
	}
}

func TestLoadReportsABadFileAndKeepsTheOthers(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "good.md"), "Good.\n")
	write(t, filepath.Join(dir, "bad.md"), "---\ndescription: [unclosed\n---\nBad.\n")
	cmds, errs := Load([]Dir{{Path: dir}, {Path: filepath.Join(dir, "missing")}, {Path: filepath.Join(dir, "missing"), Skills: true}})
	if len(cmds) != 1 || cmds[0].Name != "good" {
		t.Errorf("commands = %+v, want good alone", cmds)
	}
	if len(errs) != 1 {
		t.Errorf("errors = %v, want one for bad.md", errs)
	}
}

func TestFirstLineIsTheDescriptionOfACommandWithoutOne(t *testing.T) {
	long := ""
	for range 30 {
		long += "word "
	}
	for _, tc := range []struct{ body, want string }{
		{"\n\n  Summarize it.  \nMore.", "Summarize it."},
		{"## Heading here\nbody", "Heading here"},
		{"#hashtag", "#hashtag"},
		{"", "Custom item"},
		{long, long[:97] + "..."},
	} {
		if got := firstLine(tc.body, "Custom item"); got != tc.want {
			t.Errorf("firstLine(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}

func TestASkillIsNamedForItsFolderAndFoundByItsFrontMatterNameToo(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "pdf-tools/SKILL.md"), "---\nname: pdf\ndescription: PDF tools.\n---\nUse the tools.\n")
	cmds, errs := Load([]Dir{{Path: dir, Skills: true}})
	if len(errs) > 0 || len(cmds) != 1 {
		t.Fatalf("cmds %v, errs %v", cmds, errs)
	}
	set := NewSet(cmds)
	if c, ok := set.Find("pdf"); !ok || c.Name != "pdf-tools" {
		t.Errorf("Find(pdf) = %+v, %v", c, ok)
	}
	if got := Listing(set.All(), 8000); !strings.Contains(got, "\n- pdf-tools (pdf): PDF tools.\n") {
		t.Errorf("listing %q", got)
	}
}
