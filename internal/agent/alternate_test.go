package agent_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/session"
)

// TestInterruptedTurnThenPromptSendsWhatATranscriptLoadSends interrupts a
// turn (mid-call, as Esc does in the UI, and mid-stream) and sends a new
// prompt: the request has alternating roles, the interrupted call's result
// and the prompt in one user message, results first, and the same messages
// a fresh load of the transcript the run wrote gives.
func TestInterruptedTurnThenPromptSendsWhatATranscriptLoadSends(t *testing.T) {
	tests := []struct {
		name string
		turn llmtest.Turn
		// interrupt says at which event to interrupt; nil interrupts once
		// the request reached the server.
		interrupt func(agent.Event) bool
	}{
		{"mid-call", llmtest.Turn{Blocks: []llm.ContentBlock{sleepCall("long", "long", 60_000, false)}},
			func(e agent.Event) bool { _, ok := e.(agent.ToolStarted); return ok }},
		{"mid-stream", llmtest.Turn{Faults: []llmtest.Fault{{Hang: true}}, Blocks: []llm.ContentBlock{llmtest.Text("never")}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("MINI_CLAUDE_HOME", t.TempDir())
			h := newHarness(t)
			h.srv.Push(tt.turn, llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
			tr, err := session.Create(session.Config{Project: h.cwd, ID: session.NewID()})
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			ctx, cancel := context.WithCancel(context.Background())
			a := h.agent(t, func(o *agent.Options) {
				inner := o.OnEvent
				o.OnEvent = func(e agent.Event) {
					inner(e)
					tr.OnEvent(e)
					if tt.interrupt != nil && tt.interrupt(e) {
						cancel()
					}
				}
			})
			if tt.interrupt == nil {
				go func() {
					for len(h.srv.Requests()) == 0 {
						time.Sleep(5 * time.Millisecond)
					}
					cancel()
				}()
			}
			done := make(chan agent.Result)
			go func() { done <- a.Run(ctx, "first") }()
			select {
			case res := <-done:
				if res.Outcome != agent.Interrupted {
					t.Fatalf("outcome = %v (%v), want interrupted", res.Outcome, res.Err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the run did not stop after the interrupt")
			}
			if res := a.Run(context.Background(), "second"); res.Outcome != agent.Completed {
				t.Fatalf("second run: %v (%v)", res.Outcome, res.Err)
			}
			reqs := h.srv.Requests()
			sent := reqs[len(reqs)-1].Messages
			for i := 1; i < len(sent); i++ {
				if sent[i].Role == sent[i-1].Role {
					t.Fatalf("messages %d and %d are both %s: %s", i-1, i, sent[i].Role, jsonText(sent))
				}
			}
			loaded, err := session.Load(tr.Path())
			if err != nil {
				t.Fatal(err)
			}
			want := loaded.Messages[:len(loaded.Messages)-1] // without the answer
			if jsonText(sent) != jsonText(want) {
				t.Errorf("the request after the interrupt sent\n%s\na fresh load of its transcript gives\n%s", jsonText(sent), jsonText(want))
			}
		})
	}
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
