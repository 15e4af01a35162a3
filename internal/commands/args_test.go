package commands

import (
	"slices"
	"testing"
)

func TestExpandFillsArgumentsAsClaudeCodeNumbersThem(t *testing.T) {
	same := func(s string) string { return s }
	for _, tc := range []struct {
		name, text, args, want string
	}{
		{"whole string", "Review $ARGUMENTS now.", "src/auth.go", "Review src/auth.go now."},
		{"positional from zero, quotes group, missing stays, escape keeps literal",
			"Fix issue #$0 with priority $1.\nNote: $2. Also $ARGUMENTS[1]; unknown $3 and $ARGUMENTS[7]; escaped \\$0.\nAll: $ARGUMENTS\n",
			`123 high "two words"`,
			"Fix issue #123 with priority high.\nNote: two words. Also high; unknown $3 and $ARGUMENTS[7]; escaped $0.\nAll: 123 high \"two words\"\n"},
		{"appended when none is named", "Summarize the project's README.\n", "in one line", "Summarize the project's README.\n\n\nARGUMENTS: in one line"},
		{"appended when only missing ones are named", "Release version $1.\n", "1.0", "Release version $1.\n\n\nARGUMENTS: 1.0"},
		{"nothing appended without arguments", "Say hi.", "", "Say hi."},
		{"$ARGUMENTS without arguments is empty", "Say [$ARGUMENTS].", "", "Say []."},
		{"a digit run followed by a letter is no placeholder", "$1a and $1", "x y", "$1a and y"},
		{"filled-in text is not read again", "$0 then $1", "$1 z", "$1 then z"},
		{"double backslash is no escape", `\\$0`, "a", `\\a`},
		{"unbalanced quote splits on blanks", "$0|$1", `it's fine`, "it's|fine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := expand(tc.text, tc.args, same); got != tc.want {
				t.Errorf("expand(%q, %q) =\n%q\nwant\n%q", tc.text, tc.args, got, tc.want)
			}
		})
	}
}

func TestPromptKeepsArgumentsFromRunningShellCommands(t *testing.T) {
	c := Command{Name: "x", Body: "Look at $ARGUMENTS\n"}
	got := c.Prompt("!`rm -rf /` and `!x` and !bang")
	if cmds := ShellCommands(got); len(cmds) != 0 {
		t.Errorf("arguments formed shell commands %v in %q", cmds, got)
	}
	if want := "Look at \\! `rm -rf /` and ` \\!x` and \\!bang\n"; got != want {
		t.Errorf("Prompt = %q, want %q", got, want)
	}
}

func TestPromptOfASkillNamesItsBaseDirectory(t *testing.T) {
	c := Command{Name: "pdf", Skill: true, Dir: "/p/.claude/skills/pdf", Body: "# PDF\n\nRun ${CLAUDE_SKILL_DIR}/x.py.\n"}
	want := "Base directory for this skill: /p/.claude/skills/pdf\n\n# PDF\n\nRun /p/.claude/skills/pdf/x.py.\n\n\nARGUMENTS: report.pdf"
	if got := c.Prompt("report.pdf"); got != want {
		t.Errorf("Prompt = %q, want %q", got, want)
	}
}

func TestSplitArgsGroupsQuotedWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  a  b ", []string{"a", "b"}},
		{`a "b c" 'd e' f\ g`, []string{"a", "b c", "d e", "f g"}},
		{`"" x`, []string{"", "x"}},
		{`say "hi`, []string{"say", `"hi`}},
	} {
		if got := splitArgs(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("splitArgs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
