package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
)

// credentialCases are the settings of the credential tests: a project file
// always asks for both keys (and is ignored); the user's file passes one or none.
var credentialCases = []struct {
	name     string
	userFile string
	openAI   bool
}{
	{"no key reaches a child, even when the project asks", `{}`, false},
	{"a key the user's settings pass reaches it", `{"passEnv":["OPENAI_API_KEY"]}`, true},
}

// credentialRun is a run with the user's keys and a GitHub token set, the
// project's settings asking for the keys, and the user's settings as given.
func credentialRun(t *testing.T, userFile string) *run {
	t.Helper()
	r := newRun(t)
	r.setenv("OPENAI_API_KEY=sk-oai-e2e")
	r.setenv("GITHUB_TOKEN=gh-user")
	for path, content := range map[string]string{
		filepath.Join(r.dir, ".mini-claude", "settings.json"): `{"passEnv":["ANTHROPIC_API_KEY","OPENAI_API_KEY"]}`,
		filepath.Join(r.home(), "settings.json"):              userFile,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// home is the run's MINI_CLAUDE_HOME, where the user's settings file is.
func (r *run) home() string {
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "MINI_CLAUDE_HOME="); ok {
			return v
		}
	}
	r.t.Fatal("no MINI_CLAUDE_HOME in the run's environment")
	return ""
}

func TestBashSeesOnlyTheCredentialsTheUserPasses(t *testing.T) {
	for _, tt := range credentialCases {
		t.Run(tt.name, func(t *testing.T) {
			r := credentialRun(t, tt.userFile)
			r.srv.Push(calls(bashUse("b1", `echo "[$ANTHROPIC_API_KEY] [$OPENAI_API_KEY] [$GITHUB_TOKEN]"`)), text("done"))
			if out := r.exec("-p", "show the keys", "--allowedTools", "Bash"); out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			want := "[] [] [gh-user]"
			if tt.openAI {
				want = "[] [sk-oai-e2e] [gh-user]"
			}
			if got := contentText(lastResults(t, r.srv, 1)[0]); got != want {
				t.Errorf("the command saw %q, want %q", got, want)
			}
		})
	}
}

func TestMCPServerSeesOnlyTheCredentialsTheUserPasses(t *testing.T) {
	s := mcptest.Find(t)
	for _, tt := range credentialCases {
		t.Run(tt.name, func(t *testing.T) {
			r := credentialRun(t, tt.userFile)
			r.setenv("MINI_CLAUDE_MCP_WAIT_MS=30000")
			config := mcpConfig(t, map[string]any{"everything": map[string]any{"command": s.Node, "args": []string{s.Everything, "stdio"}}})
			r.srv.Push(calls(llmtest.ToolUse("e1", "mcp__everything__get-env", `{}`)), text("done"))
			if out := r.exec("-p", "show the environment", "--tools", testTools, "--mcp-config", config, "--allowedTools", "mcp__everything"); out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			got := contentText(lastResults(t, r.srv, 1)[0])
			if strings.Contains(got, "test-key") || strings.Contains(got, "sk-oai-e2e") != tt.openAI || !strings.Contains(got, "gh-user") {
				t.Errorf("the server's environment holds the Anthropic key %v, the OpenAI key %v (want %v), GITHUB_TOKEN %v (want true)",
					strings.Contains(got, "test-key"), strings.Contains(got, "sk-oai-e2e"), tt.openAI, strings.Contains(got, "gh-user"))
			}
		})
	}
}
