package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/prompt"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/toolsearch"
)

func TestAgentOptionsCarryTheSessionsParts(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("MINI_CLAUDE_HOME", filepath.Join(dir, "home"))
	os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("Always run make check.\n"), 0o644)
	f, _, _ := testFactory("", true)
	f.Getwd = func() (string, error) { return dir, nil }
	f.Getenv = func(name string) string {
		if name == toolsearch.Env {
			return "true"
		}
		return ""
	}
	opts := &Options{MaxTurns: 7, CompactThreshold: 40000}
	s, err := newSession(f, opts, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	state := tool.NewSession(dir)
	defer state.Close()
	conv, err := openConversation(opts, s, state, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer conv.close()
	conv.history = []llm.Message{llm.UserText("earlier")}
	var shown []agent.Event
	got := s.agentOptions(opts, nil, mcp.Start(nil, mcp.Limits{}), conv, state, func(e agent.Event) { shown = append(shown, e) })
	switch {
	case got.Pool == nil || tool.Find(got.Pool(), "Read") == nil:
		t.Error("the pool has no Read")
	case got.ToolSearch != s.toolSearch || got.SubAgents == nil || got.MaxTurns != 7 || got.CompactThreshold != 40000:
		t.Errorf("options %+v", got)
	case got.Memory == "" || got.Env.SessionID != conv.id || len(got.History) != 1:
		t.Errorf("memory %q, session %q (want %q), history %v", got.Memory, got.Env.SessionID, conv.id, got.History)
	}
	got.OnEvent(agent.UserMessage{Message: llm.UserText("hello")})
	conv.close()
	data, _ := os.ReadFile(conv.transcript.Path())
	if len(shown) != 1 || len(data) == 0 {
		t.Errorf("the event reached the UI %d times and the transcript holds %q", len(shown), data)
	}
}

func TestRefusedMemoryFilesAreWithheldAndReported(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("MINI_CLAUDE_HOME", filepath.Join(home, ".mini-claude"))
	writeFile(t, filepath.Join(home, ".ssh", "id_rsa"), "PRIVATE KEY")
	writeFile(t, filepath.Join(cwd, "private", "rules.md"), "PRIVATE RULES")
	writeFile(t, filepath.Join(cwd, ".mini-claude", "settings.json"), `{"permissions":{"deny":["Read(./private/**)"]}}`)
	for link, target := range map[string]string{
		"CLAUDE.md": filepath.Join(cwd, "private", "rules.md"), "AGENTS.md": filepath.Join(home, ".ssh", "id_rsa"),
	} {
		if err := os.Symlink(target, filepath.Join(cwd, link)); err != nil {
			t.Fatal(err)
		}
	}
	f, _, errOut := testFactory("", true)
	f.Getwd = func() (string, error) { return cwd, nil }
	opts := &Options{Prompt: []string{"hello"}, OutputFormat: formatText}
	if err := runPrint(context.Background(), f, opts); err == nil {
		t.Fatal("the run went on without a client")
	}
	for _, link := range []string{"CLAUDE.md", "AGENTS.md"} {
		if want := "Warning: memory file " + filepath.Join(cwd, link) + " was not read: "; strings.Count(errOut.String(), want) != 1 {
			t.Errorf("stderr %q, want one warning starting %q", errOut.String(), want)
		}
	}
	s, err := newSession(f, opts, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	system := s.systemPrompt(opts)
	memory := prompt.LoadMemory(s.cwd, s.perm).Text()
	for _, text := range []string{system, memory, s.subAgents().System(tool.SubAgentRequest{Role: "You review."}, s.model, nil)} {
		if strings.Contains(text, "PRIVATE") || strings.Count(text, " was not read: ") != 2 {
			t.Errorf("a prompt holds a refused file or does not say both were not read:\n%s", text)
		}
	}
}

func TestSessionPassesOnlyTheUsersPassEnvToChildren(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("MINI_CLAUDE_HOME", filepath.Join(home, ".mini-claude"))
	writeFile(t, filepath.Join(home, ".mini-claude", "settings.json"), `{"passEnv":["OPENAI_API_KEY"]}`)
	writeFile(t, filepath.Join(cwd, ".mini-claude", "settings.json"), `{"passEnv":["ANTHROPIC_API_KEY"]}`)
	f, _, _ := testFactory("", true)
	f.Getwd = func() (string, error) { return cwd, nil }
	s, err := newSession(f, &Options{}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"OPENAI_API_KEY"}
	if got := s.env("id", nil).PassEnv; !slices.Equal(got, want) {
		t.Errorf("tool.Env.PassEnv = %q, want %q", got, want)
	}
	if got := mcpLimits(f.Getenv, s.passEnv).PassEnv; !slices.Equal(got, want) {
		t.Errorf("mcp.Limits.PassEnv = %q, want %q", got, want)
	}
}
