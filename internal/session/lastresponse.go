package session

import (
	"encoding/json"
	"time"
)

// LastResponse is what a transcript tells of its conversation's last
// assistant response, as Claude Code describes a resumed session to its
// SessionStart hooks.
type LastResponse struct {
	// At is when it was written.
	At time.Time
	// Model is the model that wrote it.
	Model string
	// ContextTokens is the input and output tokens of the last response since
	// the last compaction that reported usage; when none did, the compacted
	// conversation's size as the compaction estimated it (its postTokens),
	// or without a compaction an estimate of the conversation's.
	ContextTokens int
	// Cached says that context was sent since the last compaction, so the
	// prompt cache may still hold it; a compaction replaced what it held.
	Cached bool
}

// charsPerToken is the rough size of a token in English text and code.
const charsPerToken = 4

// LastResponse returns the conversation's last response, or false when the
// conversation has none since its last compaction: Claude Code then tells
// the hooks nothing of it.
func (l *Loaded) LastResponse() (LastResponse, bool) {
	var last LastResponse
	found := false
	var boundary *Line
	for i := range l.Lines {
		line := &l.Lines[i]
		switch {
		case line.Type == TypeSystem && line.Subtype == SubtypeCompactBoundary:
			boundary, last, found = line, LastResponse{}, false
		case line.Type == TypeAssistant && line.Message != nil:
			at, err := time.Parse(time.RFC3339Nano, line.Timestamp)
			if err != nil {
				continue
			}
			last.At, last.Model, found = at, line.Message.Model, true
			if u := line.Message.Usage; u != nil {
				if total := u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens + u.OutputTokens; total > 0 {
					last.ContextTokens, last.Cached = total, true
				}
			}
		}
	}
	if !found {
		return LastResponse{}, false
	}
	switch {
	case last.Cached:
	case boundary != nil:
		var meta struct {
			PostTokens int `json:"postTokens"`
		}
		json.Unmarshal(boundary.Metadata, &meta)
		last.ContextTokens = meta.PostTokens
	default:
		last.Cached = true
		if data, err := json.Marshal(l.Messages); err == nil {
			last.ContextTokens = len(data) / charsPerToken
		}
	}
	return last, true
}
