package session

import (
	"slices"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
)

// prompt records a prompt and its answer as a run's events would.
func prompt(tr *Transcript, id, text, answer string) {
	tr.OnEvent(agent.UserMessage{Message: llm.UserText(text), PromptID: id})
	tr.OnEvent(agent.AssistantMessage{Message: assistant(llm.TextBlock(answer)), StopReason: llm.StopEndTurn})
}

func texts(msgs []llm.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Text()
	}
	return out
}

// TestRewoundConversationLoadsWithoutTheDroppedPrompts records three
// prompts, a rewind before the second and one more prompt: a resumed session
// gets the first exchange and the last, can rewind again, and its next line
// follows on from the rewind's branch.
func TestRewoundConversationLoadsWithoutTheDroppedPrompts(t *testing.T) {
	cfg := Config{Project: setup(t), ID: NewID(), Version: "test"}
	tr, err := Create(cfg)
	if err != nil {
		t.Fatal(err)
	}
	prompt(tr, "p1", "first", "One.")
	prompt(tr, "p2", "second", "Two.")
	prompt(tr, "p3", "third", "Three.")
	tr.OnEvent(agent.ConversationRewound{PromptID: "p2"})
	prompt(tr, "p4", "second again", "Two again.")
	tr.Close()

	loaded, err := Load(Path(cfg.Project, cfg.ID))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := texts(loaded.Messages), []string{"first", "One.", "second again", "Two again."}; !slices.Equal(got, want) {
		t.Fatalf("messages %q, want %q", got, want)
	}
	want := []agent.PromptMark{{ID: "p1", Text: "first", At: 0}, {ID: "p4", Text: "second again", At: 2}}
	if !slices.Equal(loaded.Prompts, want) {
		t.Errorf("prompts %+v, want %+v", loaded.Prompts, want)
	}
	rewind := loaded.Lines[6]
	if rewind.Subtype != SubtypeConversationRewound || rewind.ParentUUID == nil || *rewind.ParentUUID != loaded.Lines[1].UUID {
		t.Errorf("the rewind line %+v does not branch off after the first answer (%s)", rewind, loaded.Lines[1].UUID)
	}

	again, err := Resume(cfg, loaded)
	if err != nil {
		t.Fatal(err)
	}
	again.OnEvent(agent.ConversationRewound{PromptID: "p4"})
	again.Close()
	reloaded, _ := Load(Path(cfg.Project, cfg.ID))
	if got := texts(reloaded.Messages); !slices.Equal(got, []string{"first", "One."}) {
		t.Errorf("after a second rewind, resumed: %q", got)
	}
	last := reloaded.Lines[len(reloaded.Lines)-1]
	if last.ParentUUID == nil || *last.ParentUUID != rewind.UUID {
		t.Errorf("the resumed rewind branches off at %v, want where the fourth prompt started (%s)", last.ParentUUID, rewind.UUID)
	}
}

func TestCompactionEndsThePromptsToRewindTo(t *testing.T) {
	cfg := Config{Project: setup(t), ID: NewID(), Version: "test"}
	tr, _ := Create(cfg)
	prompt(tr, "p1", "first", "One.")
	tr.Compacted([]llm.Message{llm.UserText("summary")}, nil)
	prompt(tr, "p2", "second", "Two.")
	tr.Close()
	loaded, _ := Load(Path(cfg.Project, cfg.ID))
	if want := []agent.PromptMark{{ID: "p2", Text: "second", At: 1}}; !slices.Equal(loaded.Prompts, want) {
		t.Errorf("prompts %+v, want %+v", loaded.Prompts, want)
	}
}
