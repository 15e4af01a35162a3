package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// The notifications Claude Code sends to the Notification hooks, and after
// how long.
const (
	permissionMessage     = "Claude needs your permission"
	permissionType        = "permission_prompt"
	idleMessage           = "Claude is waiting for your input"
	idleType              = "idle_prompt"
	defaultPermissionWait = 6 * time.Second
	defaultIdleWait       = 60 * time.Second
)

// notifyMsg fires a notification once its delay passed, if nothing
// happened in between: gen is the model's notifyGen when it was scheduled.
type notifyMsg struct {
	message, kind string
	gen           int
}

// scheduleNotify arms a notification after delay; any later activity
// (a key, a turn, a dialog) disarms it by moving notifyGen on.
func (m *model) scheduleNotify(message, kind string, delay, fallback time.Duration) tea.Cmd {
	m.notifyGen++
	if m.opts.Notify == nil {
		return nil
	}
	if delay <= 0 {
		delay = fallback
	}
	gen := m.notifyGen
	return tea.Tick(delay, func(time.Time) tea.Msg { return notifyMsg{message: message, kind: kind, gen: gen} })
}

// notify sends a due notification when nothing happened since it was armed.
func (m *model) notify(n notifyMsg) {
	if n.gen != m.notifyGen || m.opts.Notify == nil {
		return
	}
	switch n.kind {
	case permissionType:
		if m.dialog == nil {
			return
		}
	case idleType:
		if m.turn != nil || m.dialog != nil {
			return
		}
	}
	m.opts.Notify(n.message, n.kind)
}

// waitForPermission arms the permission notification of a dialog just opened.
func (m *model) waitForPermission() tea.Cmd {
	return m.scheduleNotify(permissionMessage, permissionType, m.opts.PermissionNotifyDelay, defaultPermissionWait)
}

// waitForPrompt arms the idle notification once the UI waits for a prompt.
func (m *model) waitForPrompt() tea.Cmd {
	if m.turn != nil || m.dialog != nil {
		return nil
	}
	return m.scheduleNotify(idleMessage, idleType, m.opts.IdleNotifyDelay, defaultIdleWait)
}

// hookEvent shows what the hooks do: the running ones in the spinner line,
// what they say in the conversation. It reports whether e was a hook's event.
func (m *model) hookEvent(e agent.Event) bool {
	switch e := e.(type) {
	case agent.HookStarted:
		if m.turn != nil {
			m.turn.hooks = append(m.turn.hooks, e)
		}
	case agent.HookFinished:
		if m.turn != nil {
			for i, h := range m.turn.hooks {
				if h.ID == e.ID {
					m.turn.hooks = append(m.turn.hooks[:i:i], m.turn.hooks[i+1:]...)
					break
				}
			}
		}
	case agent.HookNotice:
		m.hookNotice(e)
	case agent.StopHookFeedback:
		m.conv.finishLive()
		m.conv.add(&block{kind: blockWarning, text: e.Text})
	default:
		return false
	}
	return true
}

// hookNotice shows what a hook said (dim), a warning (yellow) or a failure
// (red). A blocked prompt goes back to the input, for the user to change.
func (m *model) hookNotice(e agent.HookNotice) {
	kind := blockNotice
	switch e.Level {
	case "warning":
		kind = blockWarning
	case "error":
		kind = blockError
	}
	text := e.Text
	if e.Kind == agent.NoticePromptBlocked {
		text = "UserPromptSubmit operation blocked by hook: " + e.Reason
		if m.turn != nil {
			m.conv.remove(m.turn.userBlock)
			if strings.TrimSpace(m.input.Value()) == "" {
				m.setInput(m.turn.prompt)
				text += "\nYour prompt is back in the input: change it, or press Enter to send it again."
			}
		}
	}
	m.conv.finishLive()
	m.conv.add(&block{kind: kind, text: text})
}

// hookActivity is the spinner's word for what runs: the hooks, while one does.
func (m *model) hookActivity() string {
	if m.turn == nil || len(m.turn.hooks) == 0 {
		return ""
	}
	h := m.turn.hooks[len(m.turn.hooks)-1]
	return "Running " + h.Name + " hook…"
}

// cmdHooks lists the configured hooks: event, matcher, command and the
// settings file each comes from.
func (m *model) cmdHooks(string) tea.Cmd {
	if len(m.opts.Hooks) == 0 {
		m.info("No hooks are configured. Add them under \"hooks\" in a settings file (.mini-claude/settings.json, .claude/settings.json or ~/.mini-claude/settings.json); a project's run once its folder is trusted.")
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Hooks (%d):\n", len(m.opts.Hooks))
	for _, event := range hooks.Events {
		first := true
		for _, h := range m.opts.Hooks {
			if h.Event != event {
				continue
			}
			if first {
				fmt.Fprintf(&b, "%s\n", event)
				first = false
			}
			matcher := h.Matcher
			if matcher == "" {
				matcher = "*"
			}
			fmt.Fprintf(&b, "  %-14s %s\n", matcher, h.Command)
			fmt.Fprintf(&b, "  %-14s %s", "", m.displayPath(h.Source))
			if h.Timeout != hooks.DefaultTimeout {
				fmt.Fprintf(&b, " · timeout %s", h.Timeout)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("Edit the settings files to change them; /hooks shows what this session runs.")
	m.info(b.String())
	return nil
}

// hookRefusal is how a call a PreToolUse hook refused is drawn: which hook
// refused it, what it said, wrapped rather than cut, and its command, dim.
// message is what the model was told: "PreToolUse:Bash hook error: " and
// the reason, "[<command>]: <stderr>" for an exit 2.
func hookRefusal(message string, width int) tool.Text {
	title, rest := "Blocked by a hook", message
	if event, reason, ok := strings.Cut(message, " hook error: "); ok && !strings.Contains(event, " ") {
		title, rest = "Blocked by the "+event+" hook", reason
	}
	var commands, reasons []string
	for _, part := range strings.Split(strings.TrimRight(rest, "\n"), "\n") {
		if command, reason, ok := strings.Cut(part, "]: "); ok && strings.HasPrefix(command, "[") {
			commands = append(commands, command[1:])
			part = reason
		}
		reasons = append(reasons, part)
	}
	out := render.Styled(title, tool.StyleWarning)
	for _, l := range wrap(strings.TrimSpace(strings.Join(reasons, "\n")), width) {
		out = append(out, render.Styled(l, tool.StylePlain)...)
	}
	for _, c := range commands {
		out = append(out, render.Styled(render.Clip("hook: "+c, width), tool.StyleDim)...)
	}
	return out
}

// hookRefused says whether a refusal's text is a PreToolUse hook's, for a
// resumed conversation whose transcript keeps only the text.
func hookRefused(text string) bool {
	event, _, ok := strings.Cut(text, " hook error: ")
	return ok && strings.HasPrefix(event, hooks.PreToolUse+":") && !strings.Contains(event, " ")
}
