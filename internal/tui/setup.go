package tui

import (
	"context"
	"errors"
	"io"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// Setup is the first-run screen, shown when the session has no credentials:
// the user pastes a key, picks a model server found on this machine, or quits.
type Setup struct {
	// KeyName names the key asked for, such as "Anthropic API key".
	KeyName string
	// KeyFile is where a pasted key is kept, shown so the user knows.
	KeyFile string
	// Locals are the local model servers found, one label each, such as
	// "ollama at http://127.0.0.1:11434/v1 · qwen3-coder".
	Locals []string
	// In and Out are the terminal; nil means the process's standard streams.
	In  io.Reader
	Out io.Writer
}

// SetupAnswer is what the user chose: a key, or the index of a local server
// in Setup.Locals (-1 when a key was pasted).
type SetupAnswer struct {
	Key   string
	Local int
}

// RunSetup shows the setup screen until the user chose; quitting (the Quit
// answer, Esc or Ctrl+C on the list) returns ErrNoAnswer.
func RunSetup(ctx context.Context, s Setup) (SetupAnswer, error) {
	m := newSetupModel(s)
	var opts []tea.ProgramOption
	if s.In != nil {
		opts = append(opts, tea.WithInput(s.In))
	}
	if s.Out != nil {
		opts = append(opts, tea.WithOutput(s.Out))
	}
	p := tea.NewProgram(m, opts...)
	stop := context.AfterFunc(ctx, p.Quit)
	defer stop()
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return SetupAnswer{}, err
	}
	if m.answer == nil {
		return SetupAnswer{}, ErrNoAnswer
	}
	return *m.answer, nil
}

// setupModel is the bubbletea model of RunSetup: the list of choices (a
// choice, as Ask draws it), then, for a key, a masked field.
type setupModel struct {
	s      Setup
	list   *choice
	typing bool
	key    textinput.Model
	answer *SetupAnswer
}

func newSetupModel(s Setup) *setupModel {
	answers := make([]string, 0, len(s.Locals)+2)
	for _, l := range s.Locals {
		answers = append(answers, "Use "+l)
	}
	answers = append(answers, "Paste an "+s.KeyName, "Quit")
	lines := []string{"mini-claude needs a model to talk to, and no " + s.KeyName + " is set."}
	if len(s.Locals) > 0 {
		lines = append(lines, "A model server runs on this machine: it needs no key, and what you send stays here.")
	} else {
		lines = append(lines, "No local model server answered (Ollama, llama.cpp, vLLM or LM Studio on its usual port); start one and run mini-claude again to use it.")
	}
	lines = append(lines, "A pasted key is kept in "+s.KeyFile+", readable by you only; the environment's key wins over it.")
	q := Question{Title: "Welcome to mini-claude", Lines: lines, Answers: answers}
	key := textinput.New()
	key.Prompt = "> "
	key.Placeholder = "paste the key and press Enter"
	key.EchoMode = textinput.EchoPassword
	key.EchoCharacter = '•'
	return &setupModel{s: s, list: &choice{q: q, picked: -1}, key: key}
}

func (m *setupModel) Init() tea.Cmd { return nil }

func (m *setupModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if size, ok := msg.(tea.WindowSizeMsg); ok {
		m.list.Update(size)
		m.key.SetWidth(max(10, size.Width-8))
		return m, nil
	}
	if m.typing {
		return m, m.keyUpdate(msg)
	}
	_, cmd := m.list.Update(msg)
	if m.list.picked < 0 {
		return m, cmd
	}
	picked := m.list.picked
	switch {
	case picked < len(m.s.Locals):
		m.answer = &SetupAnswer{Local: picked}
		return m, tea.Quit
	case picked == len(m.s.Locals):
		m.typing, m.list.picked = true, -1
		return m, m.key.Focus()
	}
	return m, tea.Quit
}

// keyUpdate handles the key field: Enter takes a non-empty key, Esc goes
// back to the list.
func (m *setupModel) keyUpdate(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "enter":
			key := strings.TrimSpace(m.key.Value())
			if key == "" || strings.ContainsAny(key, " \t\r\n") {
				return nil
			}
			m.answer = &SetupAnswer{Key: key, Local: -1}
			return tea.Quit
		case "esc":
			m.typing = false
			m.key.Blur()
			return nil
		case "ctrl+c":
			return tea.Quit
		}
	}
	var cmd tea.Cmd
	m.key, cmd = m.key.Update(msg)
	return cmd
}

func (m *setupModel) View() tea.View {
	if !m.typing {
		return m.list.View()
	}
	width := m.list.width
	if width <= 0 {
		width = 80
	}
	rows := []string{
		boldStyle.Render("Paste your " + m.s.KeyName),
		"",
		"It is kept in " + m.s.KeyFile + " (mode 0600).",
		"",
		m.key.View(),
		"",
		dimStyle.Render("Enter to save · Esc to go back"),
	}
	v := tea.NewView(dialogBorder.Width(width).Render(strings.Join(rows, "\n")))
	v.AltScreen = true
	return v
}
