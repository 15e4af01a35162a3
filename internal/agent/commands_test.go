package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/commands"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/bash"
	"github.com/mini-claude/mini-claude/internal/tools/skill"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// commandHarness is an agent with the real Bash and Skill tools and the
// given commands, deciding permissions in the harness's folder.
func commandHarness(t *testing.T, cmds []commands.Command, configure func(*agent.Options)) (*harness, *agent.Agent) {
	t.Helper()
	h := newHarness(t)
	set := commands.NewSet(cmds)
	state := tool.NewSession(h.cwd)
	t.Cleanup(state.Close)
	skill.Attach(state, set)
	a := h.agent(t, func(o *agent.Options) {
		o.Tools = []tool.Tool{bash.Tool, skill.Tool}
		o.Commands = set
		o.Env = tool.Env{Cwd: h.cwd, Session: state}
		o.Permissions = &permission.Context{Mode: permission.ModeDefault, Dirs: []string{workspace.RealPath(h.cwd)}}
		if configure != nil {
			configure(o)
		}
	})
	return h, a
}

func texts(blocks []llm.ContentBlock) []string {
	var out []string
	for _, b := range blocks {
		if b.Type == llm.BlockText {
			out = append(out, b.Text)
		}
	}
	return out
}

func TestACommandSendsItsHeaderAndItsTextWithArgumentsFilledIn(t *testing.T) {
	h, a := commandHarness(t, []commands.Command{{Name: "review", Description: "Review a file", Body: "Review $ARGUMENTS.\n", UserInvocable: true}}, nil)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	if res := a.Run(context.Background(), "/review src/auth.go"); res.Err != nil {
		t.Fatal(res.Err)
	}
	got := texts(h.srv.Requests()[0].Messages[0].Content)
	want := []string{
		"<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n- review: Review a file\n</system-reminder>",
		"<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/auth.go</command-args>\n",
		"Review src/auth.go.\n",
	}
	if !slices.Equal(got, want) {
		t.Errorf("first message =\n%q\nwant\n%q", got, want)
	}
}

func TestTheSkillListingGoesOnceInAConversation(t *testing.T) {
	h, a := commandHarness(t, []commands.Command{{Name: "pdf", Skill: true, Description: "PDFs", UserInvocable: true}}, nil)
	for _, prompt := range []string{"hello", "again"} {
		h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
		if res := a.Run(context.Background(), prompt); res.Err != nil {
			t.Fatal(res.Err)
		}
	}
	msgs := h.srv.Requests()[1].Messages
	listings := 0
	for _, m := range msgs {
		for _, text := range texts(m.Content) {
			if strings.Contains(text, "The following skills are available") {
				listings++
			}
		}
	}
	if listings != 1 {
		t.Errorf("the conversation holds %d listings, want 1", listings)
	}
	if first := texts(msgs[0].Content); len(first) != 2 || first[1] != "hello" {
		t.Errorf("first message = %q, want the listing then the prompt", first)
	}
}

func TestACommandsAllowedToolsHoldForItsTurnOnly(t *testing.T) {
	cmd := commands.Command{Name: "mark", Body: "Mark it.", AllowedTools: []string{"Bash(sh mark.sh:*)"}, UserInvocable: true}
	h, a := commandHarness(t, []commands.Command{cmd}, nil)
	writeFiles(t, h.cwd, map[string]string{"mark.sh": "touch \"$1\"\n"})
	touch := func(name string) llmtest.Turn {
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Bash", `{"command":"sh mark.sh `+name+`"}`)}}
	}
	done := llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}}
	h.srv.Push(touch("first.txt"), done, touch("second.txt"), done)
	a.Run(context.Background(), "/mark")
	a.Run(context.Background(), "and again")
	if _, err := os.Stat(filepath.Join(h.cwd, "first.txt")); err != nil {
		t.Errorf("the command's turn could not touch: %v", err)
	}
	if _, err := os.Stat(filepath.Join(h.cwd, "second.txt")); err == nil {
		t.Error("the next prompt's turn could touch: the command's allowed-tools outlived its turn")
	}
}

func TestACommandsShellCommandRunsWhenAllowedAndStopsItOtherwise(t *testing.T) {
	allowed := commands.Command{Name: "branch", Body: "Branch: !`echo main`\n", AllowedTools: []string{"Bash(echo:*)"}, UserInvocable: true}
	refused := commands.Command{Name: "status", Body: "Status: !`touch made.txt`\n", UserInvocable: true}
	h, a := commandHarness(t, []commands.Command{allowed, refused}, nil)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	a.Run(context.Background(), "/branch")
	if got := texts(h.srv.Requests()[0].Messages[0].Content); got[len(got)-1] != "Branch: main\n" {
		t.Errorf("command text = %q, want the output in place", got[len(got)-1])
	}
	res := a.Run(context.Background(), "/status")
	if !strings.HasPrefix(res.Text, "Shell command permission check failed for pattern \"!`touch made.txt`\": ") {
		t.Errorf("result = %q, want the refusal", res.Text)
	}
	if n := len(h.srv.Requests()); n != 1 {
		t.Errorf("%d requests, want none for the refused command", n)
	}
	if _, err := os.Stat(filepath.Join(h.cwd, "made.txt")); err == nil {
		t.Error("the refused shell command ran")
	}
}

func TestASkillCallLoadsTheBodyAfterItsResultAndAllowsItsTools(t *testing.T) {
	dir := "/skills/pdf"
	pdf := commands.Command{Name: "pdf", Skill: true, Dir: dir, Description: "PDFs", Body: "# PDF\nRun the script.\n", AllowedTools: []string{"Bash(sh mark.sh:*)"}, UserInvocable: true}
	h, a := commandHarness(t, []commands.Command{pdf}, func(o *agent.Options) {
		allow, _ := permission.ParseRuleList([]string{"Skill(pdf)"}, "test")
		o.Permissions.Allow = allow
	})
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Skill", `{"skill":"pdf","args":"report.pdf"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Bash", `{"command":"sh mark.sh skill.txt"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	writeFiles(t, h.cwd, map[string]string{"mark.sh": "touch \"$1\"\n"})
	a.Run(context.Background(), "Extract the text of report.pdf.")
	content := h.results(t, 1)
	if len(content) != 2 || content[0].Type != llm.BlockToolResult || resultText(content[0]) != "Launching skill: pdf" {
		t.Fatalf("skill result message = %+v", content)
	}
	if want := "Base directory for this skill: /skills/pdf\n\n# PDF\nRun the script.\n\n\nARGUMENTS: report.pdf"; content[1].Text != want {
		t.Errorf("skill text = %q, want %q", content[1].Text, want)
	}
	if _, err := os.Stat(filepath.Join(h.cwd, "skill.txt")); err != nil {
		t.Errorf("the skill's allowed-tools did not allow touch: %v", err)
	}
}

func TestASkillWithAllowedToolsAsksBeforeLoading(t *testing.T) {
	pdf := commands.Command{Name: "pdf", Skill: true, Dir: "/s", Description: "PDFs", AllowedTools: []string{"Bash(touch:*)"}, UserInvocable: true}
	notes := commands.Command{Name: "notes", Skill: true, Dir: "/n", Description: "Notes", Body: "Write notes.", UserInvocable: true}
	release := commands.Command{Name: "release", Description: "Release", DisableModelInvocation: true, UserInvocable: true}
	h, a := commandHarness(t, []commands.Command{pdf, notes, release}, nil)
	call := func(name string) llmtest.Turn {
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Skill", `{"skill":"`+name+`"}`)}}
	}
	h.srv.Push(call("pdf"), call("notes"), call("release"), call("nosuch"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	a.Run(context.Background(), "Use skills.")
	for i, want := range []string{"Execute skill: pdf", "Launching skill: notes",
		"<tool_use_error>Skill release cannot be used with Skill tool due to disable-model-invocation.", "<tool_use_error>Unknown skill: nosuch</tool_use_error>"} {
		if got := resultText(h.results(t, i+1)[0]); !strings.Contains(got, want) {
			t.Errorf("call %d: result %q, want it to hold %q", i+1, got, want)
		}
	}
	if listing := texts(h.srv.Requests()[0].Messages[0].Content)[0]; strings.Contains(listing, "release") {
		t.Errorf("the listing names a command the model may not run: %q", listing)
	}
}

func TestAnUnknownCommandReachesTheModelWithTheReminder(t *testing.T) {
	review := commands.Command{Name: "review", Description: "Review", UserInvocable: true}
	h, a := commandHarness(t, []commands.Command{review}, func(o *agent.Options) { o.UnknownCommands = true })
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	a.Run(context.Background(), "/reveiw src/auth.go")
	got := texts(h.srv.Requests()[0].Messages[0].Content)
	if len(got) != 3 || got[1] != commands.UnknownReminder("reveiw", []string{"review"}, 1) || got[2] != "/reveiw src/auth.go" {
		t.Errorf("message = %q", got)
	}
}

func TestACommandsModelHoldsForItsTurn(t *testing.T) {
	quick := commands.Command{Name: "quick", Body: "Answer: $ARGUMENTS", Model: "claude-haiku-4-5", UserInvocable: true}
	h, a := commandHarness(t, []commands.Command{quick}, nil)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}}, llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	a.Run(context.Background(), "/quick why")
	a.Run(context.Background(), "and then")
	if m0, m1 := h.srv.Requests()[0].Model, h.srv.Requests()[1].Model; m0 != "claude-haiku-4-5" || m1 != "claude-opus-5-5" {
		t.Errorf("models = %s, %s; want the command's, then the session's", m0, m1)
	}
}
