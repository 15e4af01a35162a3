package agent

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// CarriedState is what a compaction keeps verbatim next to the summary, never
// summarised away.
type CarriedState struct {
	// OriginalTask is the first prompt of the session.
	OriginalTask string
	// LatestRequest is the prompt of the latest run.
	LatestRequest string
	// FilesEdited are the files changed by successful edit tool calls, in the
	// order first changed, across every compaction of the session.
	FilesEdited []string
	// Memory is the CLAUDE.md / AGENTS.md text of Options.Memory.
	Memory string
	// Sections are what the session's values carry (see tool.Carried): the
	// todo list, the other files read, the running background tasks.
	Sections []tool.Section
}

// Section returns the lines of the carried section tagged tag, if any.
func (s CarriedState) Section(tag string) []string {
	for _, section := range s.Sections {
		if section.Tag == tag {
			return section.Lines
		}
	}
	return nil
}

// editTools are the tools whose successful calls change the file named in
// their input, with that input's field.
var editTools = map[string]string{
	"Write":        "file_path",
	"Edit":         "file_path",
	"MultiEdit":    "file_path",
	"NotebookEdit": "notebook_path",
}

// carriedState gathers the state a compaction keeps from the history and the session.
func (a *Agent) carriedState() CarriedState {
	env := a.opts.Env
	env.Cwd = env.Session.Cwd()
	edited := slices.Clone(a.edited)
	for _, path := range editedFiles(a.messages) {
		path = workspace.Resolve(&env, path)
		if !slices.Contains(edited, path) {
			edited = append(edited, path)
		}
	}
	original, latest := a.originalTask, a.latestRequest
	if original == "" {
		original = firstPrompt(a.messages)
	}
	return CarriedState{
		OriginalTask: original, LatestRequest: latest, FilesEdited: edited, Memory: a.opts.Memory,
		Sections: env.Session.Carried(edited),
	}
}

// editedFiles returns the paths named by the successful edit tool calls of
// msgs, in call order, as the model wrote them.
func editedFiles(msgs []llm.Message) []string {
	failed := map[string]bool{}
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult && b.IsError {
				failed[b.ToolUseID] = true
			}
		}
	}
	var paths []string
	for _, m := range msgs {
		for _, b := range m.Content {
			field, ok := editTools[b.Name]
			if b.Type != llm.BlockToolUse || !ok || failed[b.ID] {
				continue
			}
			var input map[string]any
			if json.Unmarshal(b.Input, &input) != nil {
				continue
			}
			if path, ok := input[field].(string); ok && path != "" {
				paths = append(paths, path)
			}
		}
	}
	return paths
}

// compactedPrefix starts the message that replaces a compacted history.
const compactedPrefix = "This session continues an earlier conversation that was compacted to free context."

// claudeCodeCompactedPrefix starts the message Claude Code replaces a
// compacted history with, which a transcript it wrote holds.
const claudeCodeCompactedPrefix = "This session is being continued from a previous conversation that ran out of context."

// IsCompactSummary reports whether text is the message a compaction replaced
// the history with, ours or Claude Code's: the UI shows it as the compaction,
// not as a prompt.
func IsCompactSummary(text string) bool {
	return strings.HasPrefix(text, compactedPrefix) || strings.HasPrefix(text, claudeCodeCompactedPrefix)
}

// firstPrompt returns the first prompt of a history, looking inside a
// compacted message for the original task it carried; messages of reminders
// alone, such as a mentioned file's Read call, are no prompt.
func firstPrompt(msgs []llm.Message) string {
	for _, m := range msgs {
		if m.Role != llm.RoleUser || slices.ContainsFunc(m.Content, isToolResult) {
			continue
		}
		text := m.PromptText()
		if text == "" {
			continue
		}
		if !strings.HasPrefix(text, compactedPrefix) {
			return text
		}
		if _, rest, ok := strings.Cut(text, "\n<original-task>\n"); ok {
			task, _, _ := strings.Cut(rest, "\n</original-task>\n")
			return task
		}
		return ""
	}
	return ""
}

// carriedOrder places the sections the compacted message knows, its own
// files-edited among the session's; a section of another tag follows them,
// in tag order (the order Session.Carried gives).
var carriedOrder = []string{"todo-list", "files-edited", "files-read", "background-tasks"}

// compactedText is the message that replaces the history: the summary, then
// the carried state in tagged sections, then how to go on.
func compactedText(summary string, s CarriedState) string {
	var b strings.Builder
	b.WriteString(compactedPrefix + " The summary below covers the earlier part. The sections after it are carried over verbatim and are authoritative where the summary differs.\n")
	section := func(tag, body string) {
		if strings.TrimSpace(body) != "" {
			fmt.Fprintf(&b, "\n<%s>\n%s\n</%s>\n", tag, body, tag)
		}
	}
	section("summary", summary)
	section("original-task", s.OriginalTask)
	if s.LatestRequest != "" && s.LatestRequest == s.OriginalTask {
		section("latest-user-request", "(the original task above)")
	} else {
		section("latest-user-request", s.LatestRequest)
	}
	sections := append([]tool.Section{{Tag: "files-edited", Lines: s.FilesEdited}}, s.Sections...)
	slices.SortStableFunc(sections, func(x, y tool.Section) int { return carriedRank(x.Tag) - carriedRank(y.Tag) })
	for _, sec := range sections {
		section(sec.Tag, strings.Join(sec.Lines, "\n"))
	}
	section("memory", s.Memory)
	b.WriteString("\nContinue the work from where it stopped, following the latest user request, without asking the user to repeat anything. Read a file again before changing it: its content is no longer in the conversation.")
	return b.String()
}

// carriedRank is where carriedOrder puts a section's tag: tags it does not
// know come after.
func carriedRank(tag string) int {
	if i := slices.Index(carriedOrder, tag); i >= 0 {
		return i
	}
	return len(carriedOrder)
}
