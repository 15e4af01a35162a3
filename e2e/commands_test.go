package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// teamFolder writes the team repository into the run's folder: a
// review command, a namespaced deploy command with @file and !`cmd`, a
// command whose shell command needs a permission, a PDF skill with a
// script, and the files they name.
func teamFolder(t *testing.T, r *run) {
	t.Helper()
	for rel, content := range map[string]string{
		".claude/commands/review.md":            "---\ndescription: Review a file for bugs\nargument-hint: <file>\n---\nReview $ARGUMENTS for bugs and security problems.\n",
		".claude/commands/team/deploy.md":       "---\ndescription: Deploy to an environment\nallowed-tools: Bash(git status:*), Bash(sh scripts/deploy.sh:*)\n---\nDeploy to $0.\n\nChecklist: @docs/checklist.md\n\nBranch: !`echo main`\n",
		".claude/commands/status.md":            "---\ndescription: Show the status\n---\nStatus: !`sh scripts/status.sh`\n",
		".claude/skills/pdf/SKILL.md":           "---\nname: pdf\ndescription: Extract text and tables from PDF files.\n---\n# PDF\n\nRun `python3 scripts/extract.py FILE` from this skill's folder.\n",
		".claude/skills/pdf/scripts/extract.py": "print('text')\n",
		"docs/checklist.md":                     "1. Run the tests.\n",
		"scripts/status.sh":                     "touch ran.txt; echo green\n",
		"scripts/deploy.sh":                     "touch \"deployed-$1.txt\"\n",
		"src/auth.go":                           "package auth\n",
	} {
		writeSettings(t, r.dir, rel, content)
	}
}

func textTurn(s string) llmtest.Turn {
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(s)}}
}

func toolTurn(name, input string) llmtest.Turn {
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", name, input)}}
}

// userTexts are the text blocks of a request's user messages, in order.
func userTexts(req llmtest.Request) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role != llm.RoleUser {
			continue
		}
		for _, b := range m.Content {
			if b.Type == llm.BlockText {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

// toolResultText is the text of the last tool result of a request.
func toolResultText(req llmtest.Request) string {
	msgs := req.Messages
	for _, b := range msgs[len(msgs)-1].Content {
		if b.Type == llm.BlockToolResult {
			var s []string
			for _, c := range b.Content {
				s = append(s, c.Text)
			}
			return strings.Join(s, "")
		}
	}
	return ""
}

func TestACommandRunsWithItsArgumentsFileAndShellOutput(t *testing.T) {
	r := newRun(t)
	teamFolder(t, r)
	r.trust(false)
	r.srv.Push(textTurn("Deploying."))
	out := r.exec("-p", "/team:deploy staging")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	got := strings.Join(userTexts(r.srv.Requests()[0]), "\n---\n")
	for _, want := range []string{
		"<command-message>team:deploy</command-message>\n<command-name>/team:deploy</command-name>\n<command-args>staging</command-args>\n",
		"Deploy to staging.\n\nChecklist: @docs/checklist.md\n\nBranch: main\n",
		"Called the Read tool with the following input: {\"file_path\":\"" + filepath.Join(r.dir, "docs/checklist.md") + "\"}",
		"Result of calling the Read tool:\n1\t1. Run the tests.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the request lacks %q:\n%s", want, got)
		}
	}
}

func TestACommandsShellCommandIsRefusedWithoutPermission(t *testing.T) {
	r := newRun(t)
	teamFolder(t, r)
	r.trust(false)
	out := r.exec("-p", "/status")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if !strings.HasPrefix(out.stdout, "Shell command permission check failed for pattern \"!`sh scripts/status.sh`\": ") {
		t.Errorf("stdout = %q, want Claude Code's refusal", out.stdout)
	}
	if n := len(r.srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model, want none", n)
	}
	absent(t, filepath.Join(r.dir, "ran.txt"), "the refused !`sh scripts/status.sh`")
	// stream-json: Claude Code's synthetic answer, then the result.
	events := lines(t, r.exec("-p", "/status", "--output-format", "stream-json", "--verbose").stdout)
	if len(events) != 3 || events[1]["type"] != "assistant" || events[1]["message"].(map[string]any)["model"] != "<synthetic>" ||
		events[2]["num_turns"] != float64(0) || !strings.HasPrefix(events[2]["result"].(string), "Shell command permission check failed") {
		t.Errorf("stream-json of a refused command: %v", events)
	}
	// The user's own rule lets it run.
	r.srv.Push(textTurn("Green."))
	out = r.exec("-p", "/status", "--allowedTools", "Bash(sh scripts/status.sh)")
	if reqs := r.srv.Requests(); out.code != 0 || len(reqs) != 1 || !slices.Contains(userTexts(reqs[0]), "Status: green\n") {
		t.Fatalf("allowed: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	present(t, filepath.Join(r.dir, "ran.txt"), "the allowed !`sh scripts/status.sh`")
}

func TestACommandsAllowedToolsHoldForItsTurn(t *testing.T) {
	r := newRun(t)
	teamFolder(t, r)
	r.trust(false)
	// The command's first message is the checklist's Read call, which it attaches.
	r.srv.Route(llmtest.FirstUserText("checklist.md"), toolTurn("Bash", `{"command":"sh scripts/deploy.sh staging"}`), textTurn("Done."))
	r.srv.Route(llmtest.FirstUserText("deploy to prod"), toolTurn("Bash", `{"command":"sh scripts/deploy.sh prod"}`), textTurn("Done."))
	if out := r.exec("-p", "/team:deploy staging"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	present(t, filepath.Join(r.dir, "deployed-staging.txt"), "the deploy script the command allows")
	// The same call in a plain prompt is refused.
	r.exec("-p", "deploy to prod")
	reqs := r.srv.Requests()
	if n := len(reqs); n != 4 {
		t.Fatalf("%d requests, want two per run", n)
	}
	if got := toolResultText(reqs[3]); !strings.Contains(got, "nobody can approve it") {
		t.Errorf("outside the command the call got %q, want a refusal", got)
	}
	absent(t, filepath.Join(r.dir, "deployed-prod.txt"), "the deploy script outside the command")
}

func TestASkillIsListedUntilASkillCallLoadsIt(t *testing.T) {
	r := newRun(t)
	teamFolder(t, r)
	r.trust(false)
	r.srv.ServeByHistory(toolTurn("Skill", `{"skill":"pdf","args":"report.pdf"}`), textTurn("Extracted."))
	if out := r.exec("-p", "Extract the text of report.pdf."); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	reqs := r.srv.Requests()
	first := strings.Join(userTexts(reqs[0]), "\n")
	if !strings.Contains(first, "- pdf: Extract text and tables from PDF files.") || strings.Contains(first, "extract.py") {
		t.Errorf("first request: want the skill listed, its body not loaded:\n%s", first)
	}
	if !slices.ContainsFunc(reqs[0].Tools, func(s llm.ToolSpec) bool { return s.Name == "Skill" }) {
		t.Error("the Skill tool was not offered")
	}
	msgs := reqs[1].Messages
	last := msgs[len(msgs)-1]
	if len(last.Content) != 2 || last.Content[0].Type != llm.BlockToolResult || last.Content[1].Text !=
		"Base directory for this skill: "+filepath.Join(r.dir, ".claude/skills/pdf")+"\n\n# PDF\n\nRun `python3 scripts/extract.py FILE` from this skill's folder.\n\n\nARGUMENTS: report.pdf" {
		t.Errorf("the Skill call's message = %+v", last.Content)
	}
}

func TestTheUserInvokesASkillByName(t *testing.T) {
	r := newRun(t)
	teamFolder(t, r)
	r.trust(false)
	r.srv.Push(textTurn("Extracted."))
	r.exec("-p", "/pdf report.pdf")
	got := userTexts(r.srv.Requests()[0])
	if want := "Base directory for this skill: " + filepath.Join(r.dir, ".claude/skills/pdf") + "\n\n# PDF"; !strings.HasPrefix(got[len(got)-1], want) {
		t.Errorf("last block %q, want the skill", got[len(got)-1])
	}
}

func TestProjectCommandsWaitForTrustAndTheUsersAlwaysLoad(t *testing.T) {
	r := newRun(t)
	teamFolder(t, r)
	home := ""
	for _, kv := range r.env {
		if h, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = h
		}
	}
	writeSettings(t, home, ".claude/commands/mine.md", "# Say hello in my style\n\nSay hello: $ARGUMENTS\n")
	initOf := func() (map[string]any, string) {
		r.srv.Push(textTurn("ok"))
		out := r.exec("-p", "hello", "--output-format", "stream-json", "--verbose")
		return lines(t, out.stdout)[0], out.stderr
	}
	init, stderr := initOf()
	if got := fmt.Sprint(init["slash_commands"], init["skills"]); got != "[mine] []" {
		t.Errorf("untrusted: slash_commands and skills %s, want the user's command alone", got)
	}
	for _, want := range []string{"slash command /review", "slash command /team:deploy (allows Bash(git status:*), Bash(sh scripts/deploy.sh:*))", "skill /pdf"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("untrusted: stderr does not name %q as ignored:\n%s", want, stderr)
		}
	}
	if listing := strings.Join(userTexts(r.srv.Requests()[0]), "\n"); strings.Contains(listing, "pdf") || !strings.Contains(listing, "- mine: Say hello in my style") {
		t.Errorf("untrusted: listing %q", listing)
	}
	r.trust(false)
	init, _ = initOf()
	if got := fmt.Sprint(init["slash_commands"], init["skills"]); got != "[pdf mine review status team:deploy] [pdf]" {
		t.Errorf("trusted: slash_commands and skills %s", got)
	}
}

func TestAnUnknownCommandInPrintModeReachesTheModelWithTheReminder(t *testing.T) {
	r := newRun(t)
	teamFolder(t, r)
	r.trust(false)
	r.srv.Push(textTurn("There is no such command."))
	if out := r.exec("-p", "/reveiw src/auth.go"); out.code != 0 || out.stdout != "There is no such command.\n" {
		t.Fatalf("exit %d, stdout %q", out.code, out.stdout)
	}
	got := userTexts(r.srv.Requests()[0])
	want := "<system-reminder>\nThe user's message starts with the slash command /reveiw, but no command with that name is available in this session, so it did not run. " +
		"The closest available command is /review. Ask the user before running it. Slash commands available in this session: /pdf, /review, /status, /team:deploy. "
	if len(got) < 2 || !strings.HasPrefix(got[len(got)-2], want) || got[len(got)-1] != "/reveiw src/auth.go" {
		t.Errorf("blocks = %q", got)
	}
}

func TestUserPromptExpansionHooksSeeTheCommand(t *testing.T) {
	r := newRun(t)
	teamFolder(t, r)
	log := filepath.Join(t.TempDir(), "expansion.json")
	writeSettings(t, r.dir, ".claude/settings.json", fmt.Sprintf(`{"hooks": {"UserPromptExpansion": [{"matcher": "review", "hooks": [{"type": "command", "command": "cat > %s"}]}]}}`, log))
	r.trust(false)
	r.srv.Push(textTurn("Reviewed."))
	r.exec("-p", "/review src/auth.go")
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("the hook did not run: %v", err)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"hook_event_name": "UserPromptExpansion", "expansion_type": "slash_command", "command_name": "review",
		"command_args": "src/auth.go", "command_source": "projectSettings", "prompt": "/review src/auth.go"} {
		if in[k] != want {
			t.Errorf("%s = %v, want %q", k, in[k], want)
		}
	}
}
