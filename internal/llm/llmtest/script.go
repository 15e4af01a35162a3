package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// scriptFile is the JSON form of a script; cmd/llmtest-serve documents it.
type scriptFile struct {
	Turns []scriptTurn `json:"turns"`
}

type scriptTurn struct {
	Thinking *struct {
		Text      string `json:"text"`
		Signature string `json:"signature"`
	} `json:"thinking"`
	Text     string `json:"text"`
	ToolUses []struct {
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"tool_uses"`
	Blocks       []llm.ContentBlock `json:"blocks"`
	StopReason   llm.StopReason     `json:"stop_reason"`
	Usage        llm.Usage          `json:"usage"`
	Model        string             `json:"model"`
	ChunkDelayMs int                `json:"chunk_delay_ms"`
	Faults       []Fault            `json:"faults"`
}

// LoadScript reads a script file (the JSON format documented by
// cmd/llmtest-serve) into turns ready for Push or ServeByHistory.
func LoadScript(path string) ([]Turn, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("llmtest: read script: %w", err)
	}
	return ParseScript(data, path)
}

// ParseScript is LoadScript for a script already read; name says where it
// came from in errors.
func ParseScript(data []byte, name string) ([]Turn, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var file scriptFile
	if err := dec.Decode(&file); err != nil {
		return nil, fmt.Errorf("llmtest: parse script %s: %w", name, err)
	}
	if len(file.Turns) == 0 {
		return nil, fmt.Errorf("llmtest: script %s has no turns", name)
	}
	turns := make([]Turn, len(file.Turns))
	for i, st := range file.Turns {
		t, err := st.turn()
		if err == nil {
			err = t.validate()
		}
		if err != nil {
			return nil, fmt.Errorf("llmtest: script %s: turn %d: %w", name, i, err)
		}
		turns[i] = t
	}
	return turns, nil
}

// turn converts the JSON form of a turn.
func (st scriptTurn) turn() (Turn, error) {
	t := Turn{
		StopReason: st.StopReason, Usage: st.Usage, Model: st.Model, Faults: st.Faults,
		ChunkDelay: time.Duration(st.ChunkDelayMs) * time.Millisecond,
	}
	if len(st.Blocks) > 0 {
		if st.Thinking != nil || st.Text != "" || len(st.ToolUses) > 0 {
			return Turn{}, fmt.Errorf(`"blocks" cannot be combined with "thinking", "text" or "tool_uses"`)
		}
		t.Blocks = st.Blocks
		return t, nil
	}
	if st.Thinking != nil {
		t.Blocks = append(t.Blocks, Thinking(st.Thinking.Text, st.Thinking.Signature))
	}
	if st.Text != "" {
		t.Blocks = append(t.Blocks, Text(st.Text))
	}
	for j, u := range st.ToolUses {
		if u.Name == "" {
			return Turn{}, fmt.Errorf("tool_uses[%d]: name is required", j)
		}
		t.Blocks = append(t.Blocks, ToolUse(u.ID, u.Name, string(u.Input)))
	}
	return t, nil
}
