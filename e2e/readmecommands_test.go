package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// The README's commands and skill, taken from the README itself, run as
// the README says.

// readmeCommandFiles returns the files of the README's custom commands
// section: each markdown block, under the path named in backquotes at the
// start of the line before it.
func readmeCommandFiles(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Custom slash commands and skills\n")
	if !ok {
		t.Fatal("the README has no custom commands section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	files := map[string]string{}
	label := regexp.MustCompile("(?m)^`([^`]+)`[^\\n]*:\\n\\n```markdown\\n")
	for _, m := range label.FindAllStringSubmatchIndex(section, -1) {
		body, _, _ := strings.Cut(section[m[1]:], "```\n")
		files[section[m[2]:m[3]]] = body
	}
	if len(files) != 3 {
		t.Fatalf("the README's section has %d example files, want 3: %v", len(files), files)
	}
	return files
}

func TestTheREADMEsCommandsAndSkillWork(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the README's deploy command runs git")
	}
	r := newRun(t)
	for path, content := range readmeCommandFiles(t) {
		writeSettings(t, r.dir, path, content)
	}
	writeSettings(t, r.dir, "docs/checklist.md", "1. Run the tests.\n")
	writeSettings(t, r.dir, "scripts/deploy.sh", "touch \"deployed-$1.txt\"\n")
	writeSettings(t, r.dir, ".claude/skills/pdf/scripts/extract.py", "print('text')\n")
	writeSettings(t, r.dir, "src/auth.go", "package auth\n")
	if out, err := exec.Command("git", "-C", r.dir, "init", "-q", "-b", "main").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	r.trust(false)

	r.srv.Route(llmtest.FirstUserText("Review src/auth.go"), textTurn("No bugs."))
	r.srv.Route(llmtest.FirstUserText("checklist.md"), toolTurn("Bash", `{"command":"sh scripts/deploy.sh staging"}`), textTurn("Deployed."))
	r.srv.Route(llmtest.FirstUserText("report.pdf"), toolTurn("Skill", `{"skill":"pdf","args":"report.pdf"}`), textTurn("Extracted."))
	if out := r.exec("-p", "/review src/auth.go"); out.stdout != "No bugs.\n" {
		t.Fatalf("/review: %q %q", out.stdout, out.stderr)
	}
	if got := userTexts(r.srv.Requests()[0]); got[len(got)-1] != "Review src/auth.go for bugs and security problems. Report each with its line number.\n" {
		t.Errorf("/review sent %q", got)
	}

	if out := r.exec("-p", "/team:deploy staging"); out.stdout != "Deployed.\n" {
		t.Fatalf("/team:deploy: %q %q", out.stdout, out.stderr)
	}
	sent := strings.Join(userTexts(r.srv.Requests()[1]), "\n")
	for _, want := range []string{"Deploy the service to staging with `sh scripts/deploy.sh staging`.", "Current branch: main\n", "Result of calling the Read tool:\n1\t1. Run the tests."} {
		if !strings.Contains(sent, want) {
			t.Errorf("/team:deploy sent no %q:\n%s", want, sent)
		}
	}
	present(t, filepath.Join(r.dir, "deployed-staging.txt"), "the deploy script the command allows")

	if out := r.exec("-p", "What does report.pdf say?"); out.stdout != "Extracted.\n" {
		t.Fatalf("skill: %q %q", out.stdout, out.stderr)
	}
	reqs := r.srv.Requests()
	if got := userTexts(reqs[len(reqs)-1]); !strings.Contains(got[len(got)-1], "Run `python3 scripts/extract.py FILE` from this skill's folder") {
		t.Errorf("the Skill call brought %q", got[len(got)-1])
	}
}
