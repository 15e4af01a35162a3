package tui

import (
	"context"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// model is the bubbletea model: the conversation, the input, the dialog and
// the status of the running turn. Only the program's goroutine touches it,
// except rememberedRules, which Ask reads from the agent's goroutine.
type model struct {
	opts   Options
	width  int
	height int

	conv    *conversation
	render  *renderer
	input   textarea.Model
	history *history
	pastes  pastes
	dialog  *dialog
	// picker is the open /resume list, nil when closed.
	picker *picker
	// rewind is the open /rewind dialog, nil when closed.
	rewind *rewinder
	// escAt is when Esc was last pressed on an empty prompt between turns:
	// a second press soon after opens /rewind.
	escAt time.Time
	// hint is shown under the input: the completions of an @path mention,
	// or the commands that start as the "/name" being typed, a line each.
	hint string
	// shellCancel stops the running "!command", nil when none runs.
	shellCancel context.CancelFunc

	// turn is the running turn, nil between turns.
	turn *turnState
	// queue holds what the user entered while a turn ran, oldest first, to be
	// sent once no turn runs (see queue.go).
	queue []string
	// work counts the turns, compactions and "!command"s running off the
	// program's goroutine.
	work work
	// mode is the permission mode the next turn runs in.
	mode permission.Mode
	// subAgents names the running sub-agents by id, for their finish line.
	subAgents map[string]string
	// reportsPending says a background agent finished: its report goes to
	// the model in a turn of its own once no turn runs.
	reportsPending bool
	// pendingRules are rules answered "don't ask again", added to the
	// permission context before the next turn.
	pendingRules []string

	rulesMu         sync.Mutex
	rememberedRules map[string]bool

	// notifyGen moves on with each activity that disarms the pending
	// notification (see scheduleNotify).
	notifyGen int

	usage    llm.Usage
	costUSD  float64
	ctxUsed  int
	model    string
	frame    int
	ctrlCAt  time.Time
	quitting bool
}

// turnState is what the UI knows of the running turn.
type turnState struct {
	cancel  context.CancelFunc
	started time.Time
	// outputTokens counts the tokens of the turn's finished responses.
	outputTokens int
	// streamedChars counts the text streamed since the last response ended,
	// for a token estimate while the model writes.
	streamedChars int
	// thinking says the model is streaming its extended thinking.
	thinking bool
	// compacting says the turn is a /compact; compactShown that its failure
	// was already shown from the agent's event.
	compacting, compactShown bool
	// mode is the permission mode the turn runs in.
	mode permission.Mode
	// prompt is the prompt the turn runs and userBlock the block showing
	// it; a hook that blocks the prompt puts it back in the input.
	prompt    string
	userBlock *block
	// hooks are the hooks running, for the spinner line.
	hooks []agent.HookStarted
}

func newModel(opts Options) *model {
	in := textarea.New()
	in.ShowLineNumbers = false
	in.Prompt = "> "
	in.Placeholder = inputPlaceholder
	in.KeyMap.InsertNewline.SetKeys("shift+enter", "ctrl+j", "alt+enter")
	in.SetHeight(1)
	in.Focus()
	mode := permission.ModeDefault
	if opts.Permissions != nil {
		mode = opts.Permissions.Mode
	}
	return &model{
		opts: opts, conv: newConversation(), render: &renderer{tools: toolLookup(opts.Tools)}, input: in, history: loadHistory(opts.HistoryPath),
		mode: mode, model: opts.Model, rememberedRules: map[string]bool{}, subAgents: map[string]string{}, width: 80, height: 24,
	}
}

func (m *model) Init() tea.Cmd {
	if m.opts.StartNotice != "" {
		m.conv.add(&block{kind: blockNotice, text: m.opts.StartNotice})
	}
	if len(m.opts.Resumed.Messages) > 0 {
		m.showConversation(m.opts.Resumed)
		m.info("Resumed the session's conversation.")
	}
	if m.opts.PickSession {
		m.openPicker(m.opts.PickSearch)
	}
	if m.opts.InitialPrompt != "" && m.picker != nil {
		m.history.add(m.opts.InitialPrompt)
		m.picker.then = m.opts.InitialPrompt
		return textarea.Blink
	}
	if m.opts.InitialPrompt != "" {
		m.history.add(m.opts.InitialPrompt)
		return tea.Batch(textarea.Blink, m.startTurn(m.opts.InitialPrompt))
	}
	return textarea.Blink
}

// toolLookup finds a tool of the session's pool by name, for its renderer.
func toolLookup(pool func() []tool.Tool) func(string) tool.Tool {
	return func(name string) tool.Tool {
		if pool == nil {
			return nil
		}
		for _, t := range pool() {
			if t.MatchesName(name) {
				return t
			}
		}
		return nil
	}
}

// remembered reports whether rule was answered "don't ask again" in this
// session; Ask calls it from the agent's goroutine.
func (m *model) remembered(rule string) bool {
	if rule == "" {
		return false
	}
	m.rulesMu.Lock()
	defer m.rulesMu.Unlock()
	return m.rememberedRules[rule]
}

func (m *model) remember(rule string) {
	m.rulesMu.Lock()
	defer m.rulesMu.Unlock()
	m.rememberedRules[rule] = true
}

// interrupt cancels the running turn, if any, and moves what was queued
// behind it into the input: after an interruption nothing goes out on its own.
func (m *model) interrupt() {
	if m.turn != nil {
		m.turn.cancel()
		m.editQueued()
	}
}

// stopWork, once the program has ended, cancels the running turn and
// "!command" and returns when the work the UI started is done.
func (m *model) stopWork() {
	m.interrupt()
	if m.shellCancel != nil {
		m.shellCancel()
	}
	m.work.wait()
}

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.input.SetWidth(max(10, msg.Width-2))
		return m, nil
	case tea.KeyPressMsg:
		cmd := m.key(msg)
		if m.turn == nil && m.dialog == nil && m.notifyGen > 0 {
			// Typing is not waiting: the idle notification counts from the last key.
			cmd = tea.Batch(cmd, m.waitForPrompt())
		}
		return m, cmd
	case tea.MouseWheelMsg:
		m.wheel(msg)
		return m, nil
	case tea.PasteMsg:
		if m.dialog == nil {
			m.input.InsertString(m.pastes.add(msg.Content))
			m.fitInput()
		}
		return m, nil
	case eventMsg:
		m.event(msg.event)
		return m, m.deliverReports()
	case askMsg:
		m.dialog = newDialog(msg.prompt, msg.reply, m.opts.AddAllowRule == nil)
		return m, m.waitForPermission()
	case notifyMsg:
		m.notify(msg)
		return m, nil
	case askCancelledMsg:
		m.dialog = nil
		return m, nil
	case turnDoneMsg:
		m.turnDone(msg.result)
		queued := m.sendQueued()
		deliver := m.deliverReports()
		return m, tea.Batch(queued, deliver, m.waitForPrompt())
	case compactDoneMsg:
		m.compactDone(msg.err)
		queued := m.sendQueued()
		return m, tea.Batch(queued, m.deliverReports())
	case rewindDoneMsg:
		m.rewindDone(msg)
		return m, m.sendQueued()
	case noticeMsg:
		if msg.warning {
			m.conv.add(&block{kind: blockError, text: msg.text})
		} else {
			m.info(msg.text)
		}
		return m, nil
	case shellDoneMsg:
		m.shellCancel = nil
		m.conv.add(&block{kind: blockShell, text: msg.command, body: msg.output, failed: msg.failed})
		return m, nil
	case tickMsg:
		if m.turn == nil {
			return m, nil
		}
		m.frame++
		return m, tick()
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// tickMsg animates the spinner and the elapsed time while a turn runs.
type tickMsg struct{}

func tick() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{} })
}

// wheelLines is how many lines one notch of the mouse wheel scrolls.
const wheelLines = 3

// wheel scrolls the conversation with the mouse wheel.
func (m *model) wheel(w tea.MouseWheelMsg) {
	switch w.Button {
	case tea.MouseWheelUp:
		m.conv.scroll(wheelLines)
	case tea.MouseWheelDown:
		m.conv.scroll(-wheelLines)
	}
}

// key handles a key press: the dialog first, then the global keys, then the input.
func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	if m.dialog != nil {
		return m.dialogKey(k)
	}
	if m.picker != nil {
		cmd := m.pickerKey(k)
		return tea.Batch(cmd, m.sendQueued())
	}
	if m.rewind != nil {
		cmd := m.rewindKey(k)
		return tea.Batch(cmd, m.sendQueued())
	}
	switch k.String() {
	case "ctrl+c":
		return m.ctrlC()
	case "alt+esc":
		// Two quick presses of Esc can reach the program as one Alt+Esc.
		if m.turn == nil && m.shellCancel == nil && m.input.Value() == "" {
			m.openRewind()
			return nil
		}
	case "esc":
		if m.turn == nil && m.shellCancel == nil && m.input.Value() == "" {
			m.doubleEsc()
			return nil
		}
		m.interrupt()
		if m.shellCancel != nil {
			m.shellCancel()
		}
		m.editQueued()
		return nil
	case "shift+tab":
		m.cycleMode()
		return nil
	case "ctrl+o":
		m.conv.toggleFull()
		return nil
	case "ctrl+z":
		return tea.Suspend
	case "pgup":
		m.conv.scroll(m.conversationHeight() - 1)
		return nil
	case "pgdown":
		m.conv.scroll(-(m.conversationHeight() - 1))
		return nil
	case "enter":
		return m.submit()
	case "tab":
		if completed, _, ok := completeCommand(m.input.Value(), m.commandNames()); ok {
			m.setInput(completed)
			m.hint = m.commandHint(completed)
			return nil
		}
		if completed, candidates, ok := completeMention(m.input.Value(), m.opts.Cwd); ok {
			m.setInput(completed)
			m.hint = strings.Join(candidates, "  ")
			return nil
		}
	case "up":
		if m.input.Line() == 0 && m.editQueued() {
			return nil
		}
		if m.input.Line() == 0 {
			m.setInput(m.history.previous(m.input.Value()))
			return nil
		}
	case "down":
		if m.input.Line() == m.input.LineCount()-1 {
			if s, ok := m.history.next(); ok {
				m.setInput(s)
				return nil
			}
		}
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	m.fitInput()
	m.hint = m.commandHint(m.input.Value())
	return cmd
}

func (m *model) ctrlC() tea.Cmd {
	running := m.turn != nil
	if running {
		m.turn.cancel()
	}
	if m.input.Value() != "" {
		m.setInput("")
		if running {
			m.editQueued()
		}
		return nil
	}
	if m.editQueued() {
		return nil
	}
	if time.Since(m.ctrlCAt) < 2*time.Second {
		m.quitting = true
		return tea.Quit
	}
	m.ctrlCAt = time.Now()
	return nil
}

// cycleMode moves to the next of default → acceptEdits → plan; the next turn
// runs in it. Bypass mode, chosen on the command line, cycles back to default.
func (m *model) cycleMode() {
	switch m.mode {
	case permission.ModeDefault:
		m.mode = permission.ModeAcceptEdits
	case permission.ModeAcceptEdits:
		m.mode = permission.ModePlan
	default:
		m.mode = permission.ModeDefault
	}
	if m.turn == nil {
		m.applyBetweenTurns()
	}
}

// applyBetweenTurns writes the mode and the remembered rules into the
// permission context; it runs only while no turn runs.
func (m *model) applyBetweenTurns() {
	perm := m.opts.Permissions
	if perm == nil {
		return
	}
	perm.Mode = m.mode
	for _, text := range m.pendingRules {
		if r, err := permission.ParseRule(text, "this session"); err == nil {
			r.Base = m.opts.Cwd
			perm.Allow = append(perm.Allow, r)
		}
	}
	m.pendingRules = nil
}

func (m *model) setInput(s string) {
	m.input.SetValue(s)
	m.input.CursorEnd()
	m.fitInput()
	m.hint = m.commandHint(s)
}

// fitInput grows the input with its content, up to a third of the screen.
func (m *model) fitInput() {
	lines := max(1, m.input.LineCount())
	m.input.SetHeight(min(lines, max(1, m.height/3)))
}

// submit sends the input: a slash command, a shell command, or a prompt.
func (m *model) submit() tea.Cmd {
	text := strings.TrimSpace(m.pastes.expand(m.input.Value()))
	m.pastes = pastes{}
	if text == "" {
		return nil
	}
	m.history.add(text)
	m.setInput("")
	m.conv.scrollToBottom()
	return m.send(text)
}

// send runs an entry: a slash command, a shell command, or a prompt, which
// waits in the queue while a turn runs.
func (m *model) send(text string) tea.Cmd {
	switch {
	case strings.HasPrefix(text, "/"):
		return m.command(text)
	case strings.HasPrefix(text, "!"):
		return m.shell(strings.TrimSpace(text[1:]))
	}
	if m.turn != nil {
		m.enqueue(text)
		return nil
	}
	return m.startTurn(text)
}

func (m *model) startTurn(prompt string) tea.Cmd {
	m.applyBetweenTurns()
	user := &block{kind: blockUser, text: prompt}
	m.conv.add(user)
	ctx, cancel := context.WithCancel(context.Background())
	m.turn = &turnState{cancel: cancel, started: time.Now(), prompt: prompt, userBlock: user, mode: m.mode}
	m.notifyGen++
	run := m.opts.Run
	return tea.Batch(tick(), m.work.cmd(func() tea.Msg {
		defer cancel()
		return turnDoneMsg{result: run(ctx, prompt)}
	}))
}

func (m *model) turnDone(res agent.Result) {
	m.conv.finishLive()
	m.costUSD += res.CostUSD
	m.usage = m.usage.Add(res.Usage)
	switch res.Outcome {
	case agent.Interrupted:
		m.conv.add(&block{kind: blockNotice, text: "Interrupted · what should the model do instead?"})
	case agent.Failed, agent.MaxTurnsReached:
		if res.Err != nil {
			m.conv.add(&block{kind: blockError, text: res.Err.Error()})
		}
	}
	m.turn = nil
	m.dialog = nil
	m.applyBetweenTurns()
}

// event folds one agent event into the conversation.
func (m *model) event(e agent.Event) {
	if sub, ok := e.(agent.SubAgentEvent); ok {
		if n, ok := innermost(sub).(agent.HookNotice); ok {
			e = n
		}
	}
	if m.hookEvent(e) {
		return
	}
	switch e := e.(type) {
	case agent.TextDelta:
		m.conv.appendText(e.Text)
		if m.turn != nil {
			m.turn.streamedChars += len(e.Text)
			m.turn.thinking = false
		}
	case agent.ThinkingDelta:
		if m.turn != nil {
			m.turn.streamedChars += len(e.Text)
			m.turn.thinking = true
		}
	case agent.ToolInputDelta:
		m.conv.toolInput(e.ID, e.Name, e.PartialJSON)
	case agent.StreamRetry:
		m.conv.dropLive()
		m.conv.add(&block{kind: blockNotice, text: "Retrying the request (attempt " + itoa(e.Attempt) + "): " + errText(e.Err)})
	case agent.AssistantMessage:
		m.conv.assistantDone(e.Message)
		m.ctxUsed = e.Usage.InputTokens + e.Usage.CacheReadInputTokens + e.Usage.CacheCreationInputTokens + e.Usage.OutputTokens
		if m.turn != nil {
			m.turn.outputTokens += e.Usage.OutputTokens
			m.turn.streamedChars = 0
		}
	case agent.ToolQueued:
		m.conv.toolQueued(e.ID, e.Name, e.Input)
	case agent.ToolStarted:
		m.conv.toolStarted(e.ID)
	case agent.ToolProgress:
		m.conv.toolProgress(e.ID, e.Progress)
	case agent.PermissionDenied:
		m.conv.toolRejected(e.Denial.ToolUseID, e.Message, e.ByHook)
	case agent.ToolFinished:
		m.conv.toolFinished(e.ID, e.Result, e.Output, e.Duration)
	default:
		m.sessionEvent(e)
	}
}

// innermost is the event a (nested) sub-agent's event wraps.
func innermost(e agent.SubAgentEvent) agent.Event {
	inner := e.Event
	for {
		nested, ok := inner.(agent.SubAgentEvent)
		if !ok {
			return inner
		}
		inner = nested.Event
	}
}
