package llmtest

import (
	"context"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// textOf returns the concatenated text deltas of a streamed answer.
func textOf(t *testing.T, events []sseEvent) string {
	t.Helper()
	var s strings.Builder
	for _, e := range events {
		if e.Name != "content_block_delta" {
			continue
		}
		if i := strings.Index(e.Data, `"text":"`); i >= 0 {
			rest := e.Data[i+len(`"text":"`):]
			s.WriteString(rest[:strings.Index(rest, `"`)])
		}
	}
	return s.String()
}

func TestRouteServesEachConversationItsOwnScript(t *testing.T) {
	srv := New(t)
	srv.Push(Turn{Blocks: []llm.ContentBlock{Text("main")}})
	srv.Route(FirstUserText("task A"), Turn{Blocks: []llm.ContentBlock{Text("A0")}}, Turn{Blocks: []llm.ContentBlock{Text("A1")}})
	srv.Route(FirstUserText("task B"), Turn{Blocks: []llm.ContentBlock{Text("B0")}})
	tests := []struct {
		name string
		msgs []llm.Message
		want string
	}{
		{"second turn of A", []llm.Message{user(Text("do task A")), assistant(Text("x")), user(Text("go on"))}, "A1"},
		{"first turn of B", []llm.Message{user(Text("do task B"))}, "B0"},
		{"first turn of A", []llm.Message{user(Text("do task A"))}, "A0"},
		{"past the end of A", []llm.Message{user(Text("do task A")), assistant(Text("x")), user(Text("y")), assistant(Text("z")), user(Text("w"))}, "A1"},
		{"no route: the main script", []llm.Message{user(Text("something else"))}, "main"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := post(t, context.Background(), srv.URL, "/v1/messages", body(t, tt.msgs...))
			events, err := readSSE(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if got := textOf(t, events); got != tt.want {
				t.Fatalf("served %q, want %q", got, tt.want)
			}
		})
	}
	if n := srv.Pending(); n != 0 {
		t.Fatalf("%d main turns left, want 0", n)
	}
}

func TestRouteRefusesFaults(t *testing.T) {
	srv := New(t)
	defer func() {
		if recover() == nil {
			t.Fatal("Route accepted a turn with faults")
		}
	}()
	srv.Route(FirstUserText("x"), Turn{Faults: []Fault{{Status: 500}}, Blocks: []llm.ContentBlock{Text("x")}})
}
