package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

const (
	claudeModel = "claude-sonnet-4-5-20250929"
	// codexModel is a model Codex CLI has metadata for; for others it warns
	// and falls back to defaults.
	codexModel = "gpt-5.5"
	toolList   = "Bash,Edit,Grep,Read"
	prompt     = "Do the task."
)

// agent is one program under test: how to start it headless against the
// scripted server, how its model does each step, and what its output shows
// when the run succeeded.
type agent struct {
	name string
	bin  string
	// command returns the arguments and the environment of one run; home is
	// the agent's scratch HOME.
	command func(bin, url, home string) ([]string, []string, error)
	// tools is how the scripted model of this agent reads, runs and edits.
	tools   func(dir string) toolset
	success string
}

// claudeCode is Claude Code itself, on the Anthropic API.
func claudeCode(bin string) agent {
	return agent{name: "Claude Code", bin: bin, tools: claudeToolset, success: `"subtype":"success"`,
		command: func(bin, url, home string) ([]string, []string, error) {
			env := []string{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
				"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=bench"}
			return claudeArgs(claudeModel), env, nil
		}}
}

// miniClaude is mini-claude on the Anthropic API, or on OpenAI's chat
// completions when openai is set (the counterpart of Codex CLI).
func miniClaude(bin string, openai bool) agent {
	return agent{name: "mini-claude", bin: bin, tools: claudeToolset, success: `"subtype":"success"`,
		command: func(bin, url, home string) ([]string, []string, error) {
			if openai {
				args := append(claudeArgs(codexModel), "--provider", "openai")
				return args, []string{"OPENAI_BASE_URL=" + url + "/v1", "OPENAI_API_KEY=bench"}, nil
			}
			return claudeArgs(claudeModel), []string{"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=bench"}, nil
		}}
}

func claudeArgs(model string) []string {
	return []string{"-p", prompt, "--output-format", "stream-json", "--verbose",
		"--dangerously-skip-permissions", "--tools", toolList, "--model", model}
}

// codex is Codex CLI on the Responses API through a model provider of its
// own in a scratch CODEX_HOME; it has no retries, so a failed request fails
// the run rather than hiding in its time.
func codex(bin string) agent {
	return agent{name: "Codex CLI", bin: bin, tools: codexToolset, success: `"type":"turn.completed"`,
		command: func(bin, url, home string) ([]string, []string, error) {
			config := fmt.Sprintf(`model = %q
model_provider = "scripted"

[model_providers.scripted]
name = "scripted"
base_url = "%s/v1"
wire_api = "responses"
env_key = "OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0
`, codexModel, url)
			if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o644); err != nil {
				return nil, nil, err
			}
			args := []string{"exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-m", codexModel, prompt}
			return args, []string{"CODEX_HOME=" + home, "OPENAI_API_KEY=bench"}, nil
		}}
}

// toolset is how one agent's scripted model does each step of a scenario.
type toolset interface {
	read(path string) llm.ContentBlock
	bash(command string) llm.ContentBlock
	grep(pattern, dir string) llm.ContentBlock
	edit(path, old, new string) llm.ContentBlock
}

// claudeTools are Claude Code's tools, which mini-claude shares.
type claudeTools struct{}

func claudeToolset(string) toolset { return claudeTools{} }

func (claudeTools) read(path string) llm.ContentBlock {
	return llmtest.ToolUse("", "Read", jsonInput(map[string]any{"file_path": path}))
}

func (claudeTools) bash(command string) llm.ContentBlock {
	return llmtest.ToolUse("", "Bash", jsonInput(map[string]any{"command": command}))
}

func (claudeTools) grep(pattern, dir string) llm.ContentBlock {
	return llmtest.ToolUse("", "Grep", jsonInput(map[string]any{"pattern": pattern, "path": dir}))
}

func (claudeTools) edit(path, old, new string) llm.ContentBlock {
	return llmtest.ToolUse("", "Edit", jsonInput(map[string]any{"file_path": path, "old_string": old, "new_string": new}))
}

// codexTools do every step through Codex's shell tool, as its models do:
// cat to read, rg to search (finding nothing, exit status 1, is not a
// failure, as it is not for Grep), and apply_patch, which Codex intercepts,
// to edit a file named relative to the working directory dir.
type codexTools struct{ dir string }

func codexToolset(dir string) toolset { return codexTools{dir: dir} }

func (codexTools) read(path string) llm.ContentBlock { return shell("cat " + quote(path)) }

func (codexTools) bash(command string) llm.ContentBlock { return shell(command) }

func (codexTools) grep(pattern, dir string) llm.ContentBlock {
	return shell("rg -n " + quote(pattern) + " " + quote(dir) + "; test $? -le 1")
}

func (c codexTools) edit(path, old, new string) llm.ContentBlock {
	rel, err := filepath.Rel(c.dir, path)
	if err != nil {
		rel = path
	}
	return shell(fmt.Sprintf("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: %s\n@@\n-%s\n+%s\n*** End Patch\nEOF\n", rel, old, new))
}

func shell(command string) llm.ContentBlock {
	return llmtest.ToolUse("", "exec_command", jsonInput(map[string]any{"cmd": command}))
}

// quote makes s one word for the shell.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
