package session

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
)

func TestEveryLineIsInTheFileWhenItsCallReturns(t *testing.T) {
	project := setup(t)
	tr, err := Create(Config{Project: project, ID: NewID()})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for i, text := range []string{"first", "second", "third"} {
		tr.OnEvent(agent.UserMessage{Message: user(llm.TextBlock(text))})
		data, err := os.ReadFile(tr.Path())
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Count(string(data), "\n"); lines != i+1 || !strings.Contains(string(data), text) {
			t.Fatalf("after writing %q the file holds %d lines:\n%s", text, lines, data)
		}
	}
}

func TestAFailedSyncStopsTheTranscriptAndSaysSoOnce(t *testing.T) {
	// A pipe takes writes but refuses fsync, as a file on a failing disk would.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var mu sync.Mutex
	var reported []error
	cfg := Config{Project: t.TempDir(), ID: NewID(), OnError: func(err error) {
		mu.Lock()
		defer mu.Unlock()
		reported = append(reported, err)
	}}
	tr := newTranscript(cfg, "pipe", w, "")
	go func() {
		buf := make([]byte, 64<<10)
		for {
			if _, err := r.Read(buf); err != nil {
				return
			}
		}
	}()
	tr.OnEvent(agent.UserMessage{Message: user(llm.TextBlock("one"))})
	tr.sync.wait()
	tr.OnEvent(agent.UserMessage{Message: user(llm.TextBlock("two"))})
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 1 || !strings.Contains(reported[0].Error(), "no longer saved") {
		t.Fatalf("reported %v, want one error saying the session is no longer saved", reported)
	}
	if tr.Err() == nil {
		t.Fatal("Err() = nil after a failed fsync")
	}
}
