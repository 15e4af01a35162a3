package main

import (
	"encoding/json"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// The team's files of issue 17: a review command, a namespaced deploy
// command and a PDF skill, with a file for @ and a command for !.
const (
	reviewMD = `---
description: Review a file for bugs
argument-hint: <file>
---
Review $ARGUMENTS for bugs and security problems. Report each with its line number.
`
	fixMD = `---
description: Fix an issue by number
argument-hint: <number> <priority> <note>
---
Fix issue #$0 with priority $1.
Note: $2. Also $ARGUMENTS[1]; unknown $3 and $ARGUMENTS[7]; escaped \$0.
All: $ARGUMENTS
`
	deployMD = `---
description: Deploy to an environment
argument-hint: <environment>
allowed-tools: Bash(echo:*), Bash(touch:*)
---
Deploy the service to $ARGUMENTS.

The checklist: @docs/checklist.md

Current branch: !` + "`echo main`" + `
`
	plainMD   = "Summarize the project's README.\n"
	checklist = "1. Run the tests.\n2. Tag the release.\n"
	pdfSkill  = `---
name: pdf
description: Extract text and tables from PDF files. Use when the user works with PDF files.
allowed-tools: Bash(touch:*)
---
# PDF

Run ` + "`python3 scripts/extract.py FILE`" + ` from this skill's folder to get a PDF's text.
`
	extractPy  = "print('text')\n"
	statusMD   = "---\ndescription: Mark the status\n---\nStatus: !`touch made.txt`\n"
	notesSkill = "---\nname: notes\ndescription: Write meeting notes in the team's format.\n---\nWrite the notes as a list of decisions, then a list of actions with owners.\n"
	quickMD    = "---\ndescription: Answer quickly\nmodel: claude-haiku-4-5-20251001\n---\nAnswer in one word: $ARGUMENTS\n"
	hiddenMD   = "---\ndescription: Release the project\ndisable-model-invocation: true\n---\nRelease version $1.\n"
	mineMD     = "# Say hello in my style\n\nSay hello the way I like: $ARGUMENTS\n"
)

// team is the project of issue 17.
var team = map[string]string{
	".claude/commands/review.md":            reviewMD,
	".claude/commands/fix-issue.md":         fixMD,
	".claude/commands/team/deploy.md":       deployMD,
	".claude/commands/plain.md":             plainMD,
	".claude/skills/pdf/SKILL.md":           pdfSkill,
	".claude/skills/pdf/scripts/extract.py": extractPy,
	"docs/checklist.md":                     checklist,
	"src/auth.go":                           "package auth\n",
	".claude/commands/status.md":            statusMD,
	".claude/skills/notes/SKILL.md":         notesSkill,
	".claude/commands/quick.md":             quickMD,
	".claude/commands/release.md":           hiddenMD,
}

// mine are the user's own command and skill.
var mine = map[string]string{
	".claude/commands/mine.md":         mineMD,
	".claude/skills/greeting/SKILL.md": "---\nname: greeting\ndescription: Greet people warmly.\n---\nGreet warmly.\n",
}

func scenarios() []scenario {
	done := text("Done.")
	return []scenario{
		{name: "review", project: team, prompt: "/review src/auth.go", turns: []llmtest.Turn{done}},
		{name: "positional", project: team, prompt: `/fix-issue 123 high "two words"`, turns: []llmtest.Turn{done}},
		{name: "namespaced", project: team, prompt: "/team:deploy staging", turns: []llmtest.Turn{bash("echo ok", "Check"), bash("touch deployed.txt", "Mark"), done}},
		{name: "plain", project: team, prompt: "/plain in one line", turns: []llmtest.Turn{done}},
		{name: "noargs", project: team, prompt: "/plain", turns: []llmtest.Turn{done}},
		{name: "skill_named", project: map[string]string{".claude/skills/pdf-tools/SKILL.md": "---\nname: pdf\ndescription: PDF tools.\n---\nUse the tools.\n"},
			prompt: "/pdf-tools x", turns: []llmtest.Turn{done}},
		{name: "skill_call", project: team, prompt: "Extract the text of report.pdf.", turns: []llmtest.Turn{
			tool("Skill", map[string]any{"skill": "pdf", "args": "report.pdf"}), bash("touch skill.txt", "Mark"), done}},
		{name: "skill_user", project: team, prompt: "/pdf report.pdf", turns: []llmtest.Turn{done}},
		{name: "unknown", project: team, prompt: "/nosuch foo", turns: []llmtest.Turn{done}},
		{name: "skill_allowed", project: team, prompt: "Extract the text of report.pdf.", extra: []string{"--allowedTools", "Skill(pdf)"}, turns: []llmtest.Turn{
			tool("Skill", map[string]any{"skill": "pdf", "args": "report.pdf"}), bash("touch skill.txt", "Mark"), done}},
		{name: "skill_safe", project: team, prompt: "Write the notes.", turns: []llmtest.Turn{
			tool("Skill", map[string]any{"skill": "notes"}), done}},
		{name: "skill_unknown", project: team, prompt: "Use a skill.", turns: []llmtest.Turn{
			tool("Skill", map[string]any{"skill": "nosuch"}), tool("Skill", map[string]any{"skill": "release", "args": "1.0"}), tool("Skill", map[string]any{"skill": "review", "args": "src/auth.go"}), done}},
		{name: "bang_denied", project: team, prompt: "/status", turns: []llmtest.Turn{done}},
		{name: "model", project: team, prompt: "/quick why", turns: []llmtest.Turn{done}},
		{name: "hidden", project: team, prompt: "/release 1.0", turns: []llmtest.Turn{done}},
		{name: "user", project: team, home: mine, prompt: "/mine friend", turns: []llmtest.Turn{done}},
		{name: "unknown_near", project: team, prompt: "/reveiw src/auth.go", turns: []llmtest.Turn{done}},
		{name: "untrusted", project: team, untrusted: true, prompt: "/review src/auth.go", turns: []llmtest.Turn{done}},
	}
}

func text(s string) llmtest.Turn {
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(s)}}
}

func tool(name string, input any) llmtest.Turn {
	data, err := json.Marshal(input)
	if err != nil {
		panic(err)
	}
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", name, string(data))}}
}

func bash(command, description string) llmtest.Turn {
	return tool("Bash", map[string]string{"command": command, "description": description})
}
