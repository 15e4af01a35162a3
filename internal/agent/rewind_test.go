package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/checkpoint"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tools/write"
)

// TestCheckpointsCoverTheFileToolsOfAPromptAndItsSubAgents writes a file
// from the prompt, another from a sub-agent and a third with Bash: the
// checkpoints of the prompt hold the first two, and Bash's file is not tracked.
func TestCheckpointsCoverTheFileToolsOfAPromptAndItsSubAgents(t *testing.T) {
	h := newHarness(t)
	store, err := checkpoint.Open(filepath.Join(t.TempDir(), "cp"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	main, sub, shell := filepath.Join(h.cwd, "main.txt"), filepath.Join(h.cwd, "sub.txt"), filepath.Join(h.cwd, "shell.txt")
	os.WriteFile(main, []byte("before\r\n"), 0o644)
	h.srv.Route(llmtest.FirstUserText("make the files"),
		turn(llmtest.ToolUse("w", "Write", `{"file_path":"new.txt","content":"x"}`), agentCall("a", "Write sub", "task sub", ""),
			llmtest.ToolUse("b", "Bash", `{"command":"echo shell > shell.txt"}`)),
		turn(llm.TextBlock("Done.")))
	h.srv.Route(llmtest.FirstUserText("task sub"),
		turn(llmtest.ToolUse("s", "Write", `{"file_path":"sub.txt","content":"from the sub-agent"}`)),
		turn(llm.TextBlock("Written.")))
	a := h.agent(t, func(o *agent.Options) {
		withSubAgents(o)
		o.Tools = append(o.Tools, write.Tool)
		o.Permissions = &permission.Context{Mode: permission.ModeBypassPermissions}
		o.Checkpoints = store
	})
	if res := a.Run(context.Background(), "make the files"); res.Outcome != agent.Completed {
		t.Fatalf("run: %v", res.Err)
	}
	prompts := a.Prompts()
	if len(prompts) != 1 || prompts[0].Text != "make the files" || prompts[0].At != 0 {
		t.Fatalf("prompts %+v", prompts)
	}
	changed := store.Changed(prompts[0].ID)
	slices.Sort(changed)
	if want := []string{filepath.Join(h.cwd, "new.txt"), sub}; !slices.Equal(changed, want) {
		t.Errorf("the prompt's checkpoints hold %v, want %v (not %s, which Bash wrote)", changed, want, shell)
	}
	if _, err := os.Stat(shell); err != nil {
		t.Fatalf("Bash did not write its file: %v", err)
	}
}

// TestRewindDropsThePromptAndWhatFollowed sends three prompts, goes back
// before the second, and sends another: the model gets the first exchange
// and the new prompt only.
func TestRewindDropsThePromptAndWhatFollowed(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(turn(llm.TextBlock("One.")), turn(llm.TextBlock("Two.")), turn(llm.TextBlock("Three.")), turn(llm.TextBlock("Again.")))
	a := h.agent(t, nil)
	for _, p := range []string{"first", "second", "third"} {
		a.Run(context.Background(), p)
	}
	prompts := a.Prompts()
	if len(prompts) != 3 || prompts[1].At != 2 {
		t.Fatalf("prompts %+v", prompts)
	}
	mark, err := a.Rewind(prompts[1].ID)
	if err != nil || mark.Text != "second" {
		t.Fatalf("rewind: %+v %v", mark, err)
	}
	if _, err := a.Rewind(prompts[2].ID); err == nil {
		t.Error("a prompt the rewind dropped can be rewound to")
	}
	a.Run(context.Background(), "second, differently")
	msgs := h.srv.Requests()[3].Messages
	got := make([]string, len(msgs))
	for i, m := range msgs {
		got[i] = m.Text()
	}
	if want := []string{"first", "One.", "second, differently"}; !slices.Equal(got, want) {
		t.Errorf("the request after the rewind holds %q, want %q", got, want)
	}
	if n := len(a.Prompts()); n != 2 {
		t.Errorf("%d prompts after the rewind and a new one, want 2", n)
	}
	var rewound []agent.ConversationRewound
	for _, e := range h.taken() {
		if r, ok := e.(agent.ConversationRewound); ok {
			rewound = append(rewound, r)
		}
	}
	if len(rewound) != 1 || rewound[0].PromptID != prompts[1].ID {
		t.Errorf("events %+v, want one ConversationRewound for the second prompt", rewound)
	}
}
