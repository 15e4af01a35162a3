package agent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/commands"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/bash"
	"github.com/mini-claude/mini-claude/internal/tools/skill"
)

// hundredSkills are 100 skills with descriptions of 200 to 300 characters,
// the length of the descriptions in Anthropic's public skills, and bodies of
// 5,000 characters that must not reach the prompt until one is loaded.
func hundredSkills() []commands.Command {
	var cmds []commands.Command
	for i := range 100 {
		desc := fmt.Sprintf("Skill number %d: works with the team's %s files, checks them against the house rules and fixes what it can. Use it when the user asks about %s files, their format, their validation or their conversion to other formats.", i, strings.Repeat("x", i%40), strings.Repeat("y", i%60))
		cmds = append(cmds, commands.Command{Name: fmt.Sprintf("skill-%03d", i), Skill: true, Dir: fmt.Sprintf("/skills/skill-%03d", i),
			Description: desc, Body: strings.Repeat("Step. ", 850), UserInvocable: true})
	}
	return cmds
}

// firstRequestBytes is the size of the first request's body for a prompt,
// with the given commands and the Bash tool.
func firstRequestBytes(t *testing.T, cmds []commands.Command) (int, string) {
	t.Helper()
	h := newHarness(t)
	set := commands.NewSet(cmds)
	state := tool.NewSession(h.cwd)
	t.Cleanup(state.Close)
	skill.Attach(state, set)
	a := h.agent(t, func(o *agent.Options) {
		o.Model = "claude-sonnet-4-5"
		o.Tools = []tool.Tool{bash.Tool}
		if len(cmds) > 0 {
			o.Tools = append(o.Tools, skill.Tool)
		}
		o.Commands = set
		o.Env = tool.Env{Cwd: h.cwd, Session: state}
	})
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	if res := a.Run(context.Background(), "hello"); res.Err != nil {
		t.Fatal(res.Err)
	}
	req := h.srv.Requests()[0]
	return len(req.Body), string(req.Body)
}

// A hundred skills cost the prompt under 3,000 tokens until one is used:
// the listing (names, and descriptions as far as Claude Code's budget
// goes) and the Skill tool's definition, counted as the growth of the first
// request's body, at four characters a token as mini-claude counts
// elsewhere (and at three, a stricter count, under 3,500).
func TestAHundredSkillsCostUnder3000TokensUntilOneIsUsed(t *testing.T) {
	without, _ := firstRequestBytes(t, nil)
	with, body := firstRequestBytes(t, hundredSkills())
	if strings.Contains(body, "Step. Step.") {
		t.Fatal("a skill's body reached the prompt before it was loaded")
	}
	if !strings.Contains(body, "- skill-099") {
		t.Fatal("a skill is missing from the listing")
	}
	grown := with - without
	t.Logf("100 skills add %d bytes to the first request: %d tokens at 4 characters a token, %d at 3", grown, grown/4, grown/3)
	if grown/4 >= 3000 || grown/3 >= 3500 {
		t.Errorf("100 skills add %d bytes, %d tokens at 4 characters a token (%d at 3): want under 3,000 (3,500)", grown, grown/4, grown/3)
	}
}
