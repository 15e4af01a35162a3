package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// InterruptedResult is the text of the is_error result a call gets when the
// transcript holds no result for it: the session ended while it ran.
const InterruptedResult = "The session was interrupted before this call finished (mini-claude was stopped or crashed), so its result was lost: it may or may not have taken effect. Check the current state (read the file, list the directory, look at git status) before repeating it."

// Loaded is a transcript read back.
type Loaded struct {
	ID   string
	Path string
	// Lines are the lines that could be read, in order.
	Lines []Line
	// Messages is the conversation, valid for the API: messages in a row from
	// one role joined, every tool_use answered (InterruptedResult where the
	// transcript has no result), results that answer nothing dropped, and
	// only what follows the last compact boundary.
	Messages []llm.Message
	// Interrupted is the user message of made-up results that Messages ends
	// with when the last assistant message's calls have no results; nil when
	// there is none. Resume records it.
	Interrupted *llm.Message
	// Warnings describe lines that were skipped; a crash mid-write leaves a
	// torn last line.
	Warnings []string
	// LastUUID is the uuid of the last line, the parent of the next.
	LastUUID string
	// Files is the last record of each file the session read or wrote.
	Files map[string]FileRecord
	// Prompts are the prompts since the last compaction, for /rewind.
	Prompts []agent.PromptMark
	// Results are what the lines after the last compact boundary keep of tool
	// calls besides their tool_result, by tool_use_id: read from lines that
	// hold one tool_result, as Claude Code and Transcript write them.
	Results map[string]ToolResult

	size, complete int64
	prompts        []promptStart
}

// Load reads a transcript. Lines that cannot be read are skipped with a
// warning, never fatal; only a file that cannot be opened is an error.
func Load(path string) (*Loaded, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open the transcript: %w", err)
	}
	defer f.Close()
	l := &Loaded{ID: strings.TrimSuffix(filepath.Base(path), ".jsonl"), Path: path, Files: map[string]FileRecord{}, Results: map[string]ToolResult{}}
	var history []llm.Message
	number := 0
	err = eachLine(f, func(data []byte, complete bool) {
		number++
		l.size += int64(len(data))
		if complete {
			l.size++
		}
		if !complete {
			l.Warnings = append(l.Warnings, fmt.Sprintf("the last line of %s (%d bytes) was cut off mid-write and is skipped", path, len(data)))
			return
		}
		l.complete = l.size
		if len(strings.TrimSpace(string(data))) == 0 {
			return
		}
		var line Line
		if err := json.Unmarshal(data, &line); err != nil {
			l.Warnings = append(l.Warnings, fmt.Sprintf("line %d of %s is not a transcript line and is skipped: %v", number, path, err))
			return
		}
		history = l.add(line, history)
	})
	if err != nil {
		return nil, fmt.Errorf("read the transcript %s: %w", path, err)
	}
	l.Messages, l.Interrupted = repair(history)
	l.Prompts = l.promptMarks(history)
	return l, nil
}

// add takes in one line and returns the history with it.
func (l *Loaded) add(line Line, history []llm.Message) []llm.Message {
	l.Lines = append(l.Lines, line)
	if line.UUID != "" {
		l.LastUUID = line.UUID
	}
	for path, r := range line.FileState {
		l.Files[path] = r
	}
	switch {
	case line.Type == TypeSystem && line.Subtype == SubtypeCompactBoundary:
		clear(l.Results)
		l.prompts = nil
		return nil
	case line.Type == TypeSystem && line.Subtype == SubtypeConversationRewound:
		return l.rewind(line, history)
	case line.Type == TypeUser && line.Message != nil:
		l.markPrompt(line, history)
		if c := line.Message.Content; len(c) == 1 && c[0].Type == llm.BlockToolResult {
			r := ToolResult{Output: line.ToolUseResult, Rejected: line.PermissionDecision != nil && line.PermissionDecision.Decision == DecisionReject}
			if r.Output != nil || r.Rejected {
				l.Results[c[0].ToolUseID] = r
			}
		}
		return append(history, line.Message.llmMessage())
	case line.Type == TypeAssistant && line.Message != nil:
		return append(history, line.Message.llmMessage())
	}
	return history
}

// RestoreFiles gives the tools' session back the file records of the
// transcript and returns how many files are still the version the session
// saw and how many changed or went away since; Write and Edit refuse to
// overwrite those until the model reads them again.
func (l *Loaded) RestoreFiles(state *tool.Session) (current, stale int) {
	files := fileaccess.StateOf(&tool.Env{Session: state})
	for path, fr := range l.Files {
		r, err := fr.record()
		if err == nil && files.Restore(path, r) {
			current++
			continue
		}
		stale++
	}
	return current, stale
}

// repair returns msgs as a conversation the API accepts, and the message of
// made-up results it ends with, if any.
func repair(msgs []llm.Message) ([]llm.Message, *llm.Message) {
	msgs = joinRoles(msgs)
	var out []llm.Message
	madeUp := false
	var used []string // the tool_use ids of the previous message
	for i, m := range msgs {
		if m.Role == llm.RoleUser {
			m.Content = answer(m.Content, used)
		}
		used = nil
		if len(m.Content) > 0 {
			out = append(out, m)
		}
		if m.Role != llm.RoleAssistant {
			continue
		}
		for _, b := range m.ToolUses() {
			used = append(used, b.ID)
		}
		if len(used) > 0 && i == len(msgs)-1 {
			out = append(out, llm.Message{Role: llm.RoleUser, Content: answer(nil, used)})
			madeUp = true
		}
	}
	out = joinRoles(out)
	if madeUp {
		return out, &out[len(out)-1]
	}
	return out, nil
}

// answer returns the content of a user message that follows calls with ids
// used: their results first, in call order, with InterruptedResult for a call
// without one, then the other blocks; results that answer none of the calls
// are dropped.
func answer(content []llm.ContentBlock, used []string) []llm.ContentBlock {
	results := map[string]llm.ContentBlock{}
	var rest []llm.ContentBlock
	for _, b := range content {
		if b.Type != llm.BlockToolResult {
			rest = append(rest, b)
			continue
		}
		if _, seen := results[b.ToolUseID]; !seen && slices.Contains(used, b.ToolUseID) {
			results[b.ToolUseID] = b
		}
	}
	out := make([]llm.ContentBlock, 0, len(used)+len(rest))
	for _, id := range used {
		r, ok := results[id]
		if !ok {
			r = llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock(InterruptedResult)}, true)
		}
		out = append(out, r)
	}
	return append(out, rest...)
}

// joinRoles joins messages in a row from one role into one, as the API would.
func joinRoles(msgs []llm.Message) []llm.Message {
	var out []llm.Message
	for _, m := range msgs {
		if n := len(out); n > 0 && out[n-1].Role == m.Role {
			out[n-1].Content = append(slices.Clone(out[n-1].Content), m.Content...)
			continue
		}
		out = append(out, m)
	}
	return out
}
