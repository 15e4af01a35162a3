package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sync"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// planFileRe finds the plan file the plan-mode reminder names in a request:
// ~/.claude/plans/<slug>.md for Claude Code, ~/.mini-claude/plans/<slug>.md for mini-claude.
var planFileRe = regexp.MustCompile(`/[^"\s\\]*/plans/[a-z0-9-]+\.md`)

// planSlugRe is the plan file's random name, which the golden files write
// as <plan>.
var planSlugRe = regexp.MustCompile(`/plans/[a-z0-9-]+\.md`)

// servePlanned makes srv serve turns by history with "<plan>" in their tool
// inputs standing for the plan file, whose name the CLI chooses at random
// and tells the model in its first request.
func servePlanned(srv *llmtest.Server, turns []llmtest.Turn) {
	var mu sync.Mutex
	plan := ""
	srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		mu.Lock()
		if m := planFileRe.Find(req.Body); m != nil && plan == "" {
			plan = string(m)
		}
		path := plan
		mu.Unlock()
		t := turns[min(req.AssistantTurns(), len(turns)-1)]
		blocks := make([]llm.ContentBlock, len(t.Blocks))
		for i, b := range t.Blocks {
			if b.Type == llm.BlockToolUse {
				b.Input = json.RawMessage(bytes.ReplaceAll(b.Input, []byte("<plan>"), []byte(path)))
			}
			blocks[i] = b
		}
		t.Blocks = blocks
		return t
	})
}

// planned reports whether a model script names the plan file.
func planned(script []byte) bool { return bytes.Contains(script, []byte("<plan>")) }
