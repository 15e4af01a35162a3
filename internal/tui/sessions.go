package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/session"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// SessionChoice is one entry of the /resume picker.
type SessionChoice struct {
	ID string
	// FirstPrompt is the session's first prompt, on one line.
	FirstPrompt string
	Modified    time.Time
	// Messages counts the session's user and assistant messages.
	Messages int
}

// Resumed is the conversation /resume switched to.
type Resumed struct {
	ID       string
	Messages []llm.Message
	// Results are what the transcript kept of the calls besides their
	// tool_result (the tools' outputs, refusals), by tool_use_id.
	Results map[string]session.ToolResult
	// Warnings are what loading it reported, one a line; "" when none.
	Warnings string
}

// picker is the open /resume list.
type picker struct {
	choices  []SessionChoice
	selected int
	// search is the term the sessions listed match, "" for all of them.
	search string
	// then is the prompt to send once the picker closes: the command line's,
	// with a bare -r.
	then string
}

func (m *model) cmdResume(search string) tea.Cmd {
	m.openPicker(strings.TrimSpace(search))
	return nil
}

// openPicker lists the sessions to resume, those whose first prompt or id
// holds search when it is set (in any case), or says why there are none.
func (m *model) openPicker(search string) {
	if m.opts.Sessions == nil || m.opts.Resume == nil {
		m.info("This session cannot resume others.")
		return
	}
	choices, err := m.opts.Sessions()
	if err != nil {
		m.conv.add(&block{kind: blockError, text: "The sessions could not be listed: " + err.Error()})
		return
	}
	if len(choices) == 0 {
		m.info("No other session of this project to resume.")
		return
	}
	if search != "" {
		needle := strings.ToLower(search)
		choices = slices.DeleteFunc(choices, func(c SessionChoice) bool {
			return !strings.Contains(strings.ToLower(c.FirstPrompt), needle) && !strings.Contains(c.ID, needle)
		})
		if len(choices) == 0 {
			m.info(fmt.Sprintf("No session of this project matches %q.", search))
			return
		}
	}
	m.picker = &picker{choices: choices, search: search}
}

// pickerKey handles a key while the picker is open: arrows move, Enter
// resumes the chosen session, Esc closes the picker.
func (m *model) pickerKey(k tea.KeyPressMsg) tea.Cmd {
	p := m.picker
	switch k.String() {
	case "up", "k", "shift+tab":
		p.selected = (p.selected + len(p.choices) - 1) % len(p.choices)
	case "down", "j", "tab":
		p.selected = (p.selected + 1) % len(p.choices)
	case "esc", "ctrl+c":
		m.picker = nil
	case "enter":
		if m.turn != nil {
			m.info("/resume waits until the running turn ends (Esc interrupts it).")
			return nil
		}
		m.picker = nil
		m.resume(p.choices[p.selected])
	default:
		return nil
	}
	if p.then != "" {
		return m.startTurn(p.then)
	}
	return nil
}

// resume replaces the conversation on screen by the chosen session's.
func (m *model) resume(choice SessionChoice) {
	resumed, err := m.opts.Resume(choice.ID)
	if err != nil {
		m.conv.add(&block{kind: blockError, text: "The session was not resumed: " + err.Error()})
		return
	}
	m.conv.clear()
	m.showConversation(resumed)
	m.info(fmt.Sprintf("Resumed session %s (%d messages).", resumed.ID, len(resumed.Messages)))
	if resumed.Warnings != "" {
		m.conv.add(&block{kind: blockNotice, text: resumed.Warnings})
	}
}

// showConversation adds a loaded conversation to the screen: its prompts and
// answers, its compaction summary, and its tool calls drawn as live ones end.
// Until the next answer reports its size, the context used is estimated from
// its length.
func (m *model) showConversation(r Resumed) {
	results := map[string]llm.ContentBlock{}
	chars := 0
	for _, msg := range r.Messages {
		chars += contentChars(msg.Content)
		for _, b := range msg.Content {
			if b.Type == llm.BlockToolResult {
				results[b.ToolUseID] = b
			}
		}
	}
	for _, msg := range r.Messages {
		for _, b := range msg.Content {
			switch {
			case b.Type == llm.BlockText && strings.TrimSpace(b.Text) == "", llm.IsReminder(b):
			case b.Type == llm.BlockText && msg.Role == llm.RoleUser && agent.IsCompactSummary(b.Text):
				m.conv.add(&block{kind: blockCompact, text: "Conversation compacted", body: b.Text})
			case b.Type == llm.BlockText && msg.Role == llm.RoleUser:
				m.conv.add(&block{kind: blockUser, text: b.Text})
			case b.Type == llm.BlockText:
				m.conv.add(&block{kind: blockAssistant, text: b.Text})
			case b.Type == llm.BlockToolUse:
				m.showCall(b, results[b.ID], r.Results[b.ID])
			}
		}
	}
	m.ctxUsed = chars / charsPerToken
}

// showCall adds a finished call of a loaded conversation. Its result goes
// through the tool's hooks from the output the transcript kept, in its
// storage form as Claude Code loads it (a Read without its lines), when the
// tool reads it back; otherwise (an older transcript, an MCP tool) from the
// tool_result text.
func (m *model) showCall(use, result llm.ContentBlock, kept session.ToolResult) {
	m.conv.toolQueued(use.ID, use.Name, use.Input)
	if kept.Rejected {
		text := resultText(result)
		m.conv.toolRejected(use.ID, text, hookRefused(text))
	}
	var output any
	if t := m.render.tools(use.Name); t != nil {
		if decoded, ok := tool.DecodeOutput(t, kept.Output); ok {
			output = tool.Stored(decoded)
		}
	}
	m.conv.toolFinished(use.ID, result, output, 0)
}

// charsPerToken is the rough size of a token in English text and code.
const charsPerToken = 4

func contentChars(blocks []llm.ContentBlock) int {
	n := 0
	for _, b := range blocks {
		n += len(b.Text) + len(b.Input) + contentChars(b.Content)
	}
	return n
}

// view draws the picker: the sessions around the selected one, at most rows of them.
func (p *picker) view(width, rows int) string {
	inner := max(20, width-4)
	rows = max(3, rows-4)
	start := max(0, min(p.selected-rows/2, len(p.choices)-rows))
	title := "Resume a session"
	if p.search != "" {
		title += fmt.Sprintf(" · matching %q", p.search)
	}
	lines := []string{boldStyle.Render(title)}
	for i := start; i < min(len(p.choices), start+rows); i++ {
		c := p.choices[i]
		prompt := c.FirstPrompt
		if prompt == "" {
			prompt = "(no prompt)"
		}
		label := fmt.Sprintf("%s · %d messages · %s", ago(c.Modified), c.Messages, prompt)
		if i == p.selected {
			lines = append(lines, accentStyle.Render(render.Clip("❯ "+label, inner)))
		} else {
			lines = append(lines, render.Clip("  "+label, inner))
		}
	}
	lines = append(lines, dimStyle.Render("Enter to resume · Esc to cancel"))
	return dialogBorder.Width(width).Render(strings.Join(lines, "\n"))
}

// ago says how long ago t was, in the largest whole unit.
func ago(t time.Time) string {
	d := time.Since(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}
