package agent

import (
	"fmt"
	"slices"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// keepRecentResults is how many of the latest tool-result messages (one per
// turn) keep their content when old results are cleared.
const keepRecentResults = 3

// clearMinChars is the size from which an old tool result is cleared; smaller
// ones cost little and often matter (an error, a short listing).
const clearMinChars = 2000

// clearedResult describes one tool result whose content was replaced.
type clearedResult struct {
	message   int
	toolUseID string
	chars     int
	saved     int
}

// clearOldResults replaces the content of large tool results older than the
// last keepRecentResults turns with a short placeholder, keeping every
// tool_use and tool_result in place, and emits ResultsCleared. It reports
// whether anything was cleared; before is the context size it started from.
func (a *Agent) clearOldResults(before int) bool {
	msgs, cleared := clearResults(a.messages, keepRecentResults, clearMinChars)
	if len(cleared) == 0 {
		return false
	}
	a.messages = msgs
	ids := make([]string, len(cleared))
	chars := 0
	for i, c := range cleared {
		ids[i] = c.toolUseID
		chars += c.chars
		if c.message < a.reportedLen {
			a.reported -= c.saved / charsPerToken
		}
	}
	a.reported = max(a.reported, 0)
	a.emit(ResultsCleared{ToolUseIDs: ids, Chars: chars, PreTokens: before, PostTokens: a.contextTokens()})
	return true
}

// clearResults returns msgs with the content of every tool result of at least
// minChars characters replaced by a placeholder, except in the last keep
// messages that hold tool results. Messages it changes are copied, so slices
// handed out earlier (in events) keep what they showed.
func clearResults(msgs []llm.Message, keep, minChars int) ([]llm.Message, []clearedResult) {
	var withResults []int
	for i, m := range msgs {
		if m.Role == llm.RoleUser && slices.ContainsFunc(m.Content, isToolResult) {
			withResults = append(withResults, i)
		}
	}
	if len(withResults) <= keep {
		return msgs, nil
	}
	names := toolNames(msgs)
	out := msgs
	var cleared []clearedResult
	for _, i := range withResults[:len(withResults)-keep] {
		var content []llm.ContentBlock
		for j, b := range msgs[i].Content {
			size := blockChars(b)
			if !isToolResult(b) || size < minChars {
				continue
			}
			if content == nil {
				content = slices.Clone(msgs[i].Content)
			}
			placeholder := clearedPlaceholder(names[b.ToolUseID], size)
			content[j] = llm.ToolResultBlock(b.ToolUseID, []llm.ContentBlock{llm.TextBlock(placeholder)}, b.IsError)
			cleared = append(cleared, clearedResult{message: i, toolUseID: b.ToolUseID, chars: size, saved: size - len(placeholder)})
		}
		if content == nil {
			continue
		}
		if len(cleared) > 0 && sameSlice(out, msgs) {
			out = slices.Clone(msgs)
		}
		out[i] = llm.Message{Role: msgs[i].Role, Content: content}
	}
	return out, cleared
}

func sameSlice(a, b []llm.Message) bool {
	return len(a) > 0 && len(b) > 0 && &a[0] == &b[0]
}

func isToolResult(b llm.ContentBlock) bool { return b.Type == llm.BlockToolResult }

// clearedPlaceholder is what the model reads in place of a cleared result.
func clearedPlaceholder(toolName string, chars int) string {
	if toolName == "" {
		toolName = "the tool"
	}
	return fmt.Sprintf("[Old tool result cleared to save context: %d characters of %s output. Call %s again if you need this content.]",
		chars, toolName, toolName)
}

// toolNames maps the id of every tool call in msgs to the tool's name.
func toolNames(msgs []llm.Message) map[string]string {
	names := map[string]string{}
	for _, m := range msgs {
		if m.Role != llm.RoleAssistant {
			continue
		}
		for _, b := range m.Content {
			if b.Type == llm.BlockToolUse {
				names[b.ID] = b.Name
			}
		}
	}
	return names
}
