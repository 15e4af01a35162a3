package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/bash"
)

func testModel(t *testing.T, opts Options) *model {
	t.Helper()
	if opts.Permissions == nil {
		opts.Permissions = &permission.Context{Mode: permission.ModeDefault}
	}
	opts.Tools = func() []tool.Tool { return []tool.Tool{bash.Tool} }
	m := newModel(opts)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return m
}

func screenOf(m *model) string { return ansi.Strip(m.View().Content) }

// press sends the keys to m and returns the command of the last one.
func press(m tea.Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "shift+tab":
			msg = tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "up":
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		default:
			msg = tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		}
		_, cmd = m.Update(msg)
	}
	return cmd
}

func typeText(m *model, s string) {
	for _, r := range s {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func TestConversationDrawsOnlyTheVisibleBlocks(t *testing.T) {
	c := newConversation()
	for i := 0; i < 1000; i++ {
		c.add(&block{kind: blockUser, text: "prompt"})
	}
	r := &renderer{tools: func(string) tool.Tool { return nil }}
	rows := c.window(r, 80, 20)
	if len(rows) != 20 {
		t.Fatalf("window has %d rows, want 20", len(rows))
	}
	drawn := 0
	for _, b := range c.blocks {
		if b.cache != nil {
			drawn++
		}
	}
	if drawn > 11 {
		t.Errorf("%d blocks drawn for a 20-row window, want only the visible ones", drawn)
	}
	c.window(r, 60, 20)
	if c.blocks[999].cacheWidth != 60 {
		t.Errorf("a resize did not redraw the visible blocks at the new width")
	}
	c.scroll(15)
	if rows := c.window(r, 60, 20); len(rows) != 20 {
		t.Errorf("a scrolled window has %d rows", len(rows))
	}
	for i := 0; i < 150; i++ {
		c.scroll(19)
		c.window(r, 60, 20)
	}
	held := 0
	for _, b := range c.blocks {
		if b.cache != nil {
			held++
		}
	}
	if held > maxCached {
		t.Errorf("%d blocks hold a rendering after scrolling through the session, want at most %d", held, maxCached)
	}
}

func TestToolCallMovesThroughItsStates(t *testing.T) {
	m := testModel(t, Options{})
	m.Update(eventMsg{agent.ToolInputDelta{ID: "t1", Name: "Bash", PartialJSON: `{"command":"ech`}})
	if s := screenOf(m); !strings.Contains(s, "Bash(ech)") {
		t.Fatalf("streaming call not shown:\n%s", s)
	}
	input := json.RawMessage(`{"command":"echo hi"}`)
	m.Update(eventMsg{agent.ToolQueued{ID: "t1", Name: "Bash", Input: input}})
	m.Update(eventMsg{agent.ToolStarted{ID: "t1", Name: "Bash"}})
	m.Update(eventMsg{agent.ToolProgress{ID: "t1", Name: "Bash", Progress: tool.ProgressEvent{Message: "half way"}}})
	if s := screenOf(m); !strings.Contains(s, "half way") || !strings.Contains(s, "Running…") {
		t.Fatalf("progress not shown:\n%s", s)
	}
	result := llm.ToolResultBlock("t1", []llm.ContentBlock{llm.TextBlock("hi")}, false)
	m.Update(eventMsg{agent.ToolFinished{ID: "t1", Name: "Bash", Result: result, Output: bash.Output{Text: "hi\nthere\nfour\nfive\nsix"}}})
	s := screenOf(m)
	if !strings.Contains(s, "Bash(echo hi)") || !strings.Contains(s, "… +2 lines (ctrl+o to expand)") {
		t.Fatalf("condensed result not shown:\n%s", s)
	}
	m.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	if s := screenOf(m); !strings.Contains(s, "six") {
		t.Fatalf("ctrl+o did not show the full result:\n%s", s)
	}
}

func TestPermissionDialogAnswers(t *testing.T) {
	prompt := permission.Prompt{Tool: "Bash", Input: json.RawMessage(`{"command":"touch x"}`),
		Reason: "The command `touch x` (by Bash) needs approval.", Subject: "the command `touch x`", Rule: "Bash(touch:*)"}
	cases := []struct {
		name    string
		keys    []string
		message string
		allow   bool
	}{
		{name: "yes", keys: []string{"1"}, allow: true},
		{name: "always", keys: []string{"2"}, allow: true},
		{name: "no", keys: []string{"3"}, message: "The user refused this Bash call"},
		{name: "no with message", keys: []string{"4", "t", "r", "y", "enter"}, message: "said: try"},
		{name: "esc refuses", keys: []string{"esc"}, message: "The user refused"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var saved []string
			perm := &permission.Context{Mode: permission.ModeDefault}
			m := testModel(t, Options{Permissions: perm, Cwd: t.TempDir(),
				AddAllowRule: func(rule string) (string, error) { saved = append(saved, rule); return "settings.local.json", nil }})
			m.turn = &turnState{cancel: func() {}, started: time.Now()}
			reply := make(chan permission.Answer, 1)
			m.Update(askMsg{prompt: prompt, reply: reply})
			s := screenOf(m)
			for _, want := range []string{"Bash wants permission", "Asks for: the command `touch x`", "needs approval", "Bash(touch:*)"} {
				if !strings.Contains(s, want) {
					t.Fatalf("dialog lacks %q:\n%s", want, s)
				}
			}
			press(m, c.keys...)
			a := <-reply
			if a.Allow != c.allow || !strings.Contains(a.Message, c.message) {
				t.Errorf("answer %+v, want allow %v and a message with %q", a, c.allow, c.message)
			}
			if m.dialog != nil {
				t.Error("the dialog stays open after the answer")
			}
			always := c.name == "always"
			if (len(saved) == 1) != always || m.remembered("Bash(touch:*)") != always {
				t.Errorf("saved %v, remembered %v", saved, m.remembered("Bash(touch:*)"))
			}
			m.Update(turnDoneMsg{result: agent.Result{Outcome: agent.Completed}})
			hasRule := slices.ContainsFunc(perm.Allow, func(r permission.Rule) bool { return r.String() == "Bash(touch:*)" })
			if hasRule != always {
				t.Errorf("rule in the session's allow list = %v, want %v", hasRule, always)
			}
		})
	}
}

func TestShiftTabCyclesTheModeBetweenTurns(t *testing.T) {
	perm := &permission.Context{Mode: permission.ModeDefault}
	m := testModel(t, Options{Permissions: perm})
	press(m, "shift+tab")
	if perm.Mode != permission.ModeAcceptEdits {
		t.Fatalf("mode %s after one shift+tab", perm.Mode)
	}
	m.turn = &turnState{cancel: func() {}, started: time.Now(), mode: perm.Mode}
	press(m, "shift+tab")
	if perm.Mode != permission.ModeAcceptEdits || !strings.Contains(screenOf(m), "plan (next turn)") {
		t.Fatalf("the mode changed during a turn: %s\n%s", perm.Mode, screenOf(m))
	}
	m.Update(turnDoneMsg{})
	if perm.Mode != permission.ModePlan {
		t.Fatalf("mode %s after the turn, want plan", perm.Mode)
	}
	press(m, "shift+tab")
	if perm.Mode != permission.ModeDefault {
		t.Fatalf("mode %s, want default after plan", perm.Mode)
	}
}

func TestSubmitRunsATurnAndInterruptCancelsIt(t *testing.T) {
	started := make(chan context.Context, 1)
	m := testModel(t, Options{Run: func(ctx context.Context, prompt string) agent.Result {
		started <- ctx
		<-ctx.Done()
		return agent.Result{Outcome: agent.Interrupted, Err: ctx.Err()}
	}})
	typeText(m, "hello")
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.turn == nil || cmd == nil {
		t.Fatal("enter did not start a turn")
	}
	done := make(chan tea.Msg, 1)
	go func() {
		for _, msg := range cmd().(tea.BatchMsg) {
			if msg := msg(); msg != nil {
				if _, ok := msg.(turnDoneMsg); ok {
					done <- msg
				}
			}
		}
	}()
	<-started
	press(m, "esc")
	m.Update(<-done)
	if m.turn != nil || !strings.Contains(screenOf(m), "Interrupted") {
		t.Fatalf("the turn was not interrupted:\n%s", screenOf(m))
	}
}

func TestHistoryPersistsPerProject(t *testing.T) {
	path := filepath.Join(t.TempDir(), "projects", "p", "history.jsonl")
	h := loadHistory(path)
	h.add("first")
	h.add("second\nline")
	h = loadHistory(path)
	if got := h.previous("draft"); got != "second\nline" {
		t.Fatalf("previous = %q", got)
	}
	if got := h.previous(""); got != "first" {
		t.Fatalf("previous = %q", got)
	}
	if got, _ := h.next(); got != "second\nline" {
		t.Fatalf("next = %q", got)
	}
	if got, ok := h.next(); got != "draft" || !ok {
		t.Fatalf("next past the newest = %q, want the draft", got)
	}
	if _, ok := h.next(); ok {
		t.Fatal("next when not browsing changed the input")
	}
	if data, _ := os.ReadFile(path); strings.Count(string(data), "\n") != 2 {
		t.Errorf("history file: %q", data)
	}
}

func TestLargePasteIsAPlaceholderSentInFull(t *testing.T) {
	var p pastes
	small := p.add("short")
	big := strings.Repeat("line\n", 50)
	shown := p.add(big)
	if small != "short" || shown != "[Pasted text #1 +50 lines]" {
		t.Fatalf("shown %q and %q", small, shown)
	}
	if got := p.expand("see " + shown); got != "see "+big {
		t.Errorf("expanded to %q", got)
	}
}

func TestSlashCommands(t *testing.T) {
	perm := &permission.Context{Mode: permission.ModeDefault}
	rule, _ := permission.ParseRule("Bash(ls:*)", "test")
	perm.Allow = append(perm.Allow, rule)
	m := testModel(t, Options{Permissions: perm, Model: "m1", SetModel: func(string) error { return nil }})
	for _, c := range []struct{ line, want string }{
		{"/help", "/permissions"},
		{"/permissions", "Bash(ls:*)"},
		{"/model", "Model: m1"},
		{"/model m2", "Model set to m2"},
		{"/cost", "Total cost:"},
		{"/tasks", "No background tasks."},
		{"/nope", "Unknown command: /nope. The nearest: /cost, /model, /help."},
		{"/permissions remove Bash(ls:*)", "Removed the rule Bash(ls:*) for this session"},
	} {
		typeText(m, c.line)
		press(m, "enter")
		if s := screenOf(m); !strings.Contains(s, c.want) {
			t.Errorf("%s: screen lacks %q:\n%s", c.line, c.want, s)
		}
	}
	if len(perm.Allow) != 0 {
		t.Errorf("allow rules after remove: %v", perm.Allow)
	}
}

func TestMarkdown(t *testing.T) {
	got := ansi.Strip(strings.Join(renderMarkdown("# Title\n\nSome **bold** and `code`.\n\n- a\n- b\n\n```\nx := 1\n```", 40), "\n"))
	for _, want := range []string{"Title", "Some bold and code.", "• a\n• b", "  x := 1"} {
		if !strings.Contains(got, want) {
			t.Errorf("markdown lacks %q:\n%s", want, got)
		}
	}
}

func TestAnEmptyCodeBlockDrawsNoLine(t *testing.T) {
	for _, l := range renderMarkdown("before\n\n```go\n```\n\nafter", 40) {
		if l != "before" && l != "after" && l != "" {
			t.Errorf("an empty code block drew the line %q", l)
		}
	}
}

func TestMarkdownCodeBlocksAreColouredByTheirLanguage(t *testing.T) {
	lines := renderMarkdown("```go\nfunc f() {}\n```\n\n```\nfunc g() {}\n```", 40)
	var labelled, plain string
	for _, l := range lines {
		switch text := ansi.Strip(l); text {
		case "  func f() {}":
			labelled = l
		case "  func g() {}":
			plain = l
		}
	}
	// monokai's keyword colour #66d9ef, and the plain code colour 152.
	if !strings.Contains(labelled, "38;2;102;217;239") {
		t.Errorf("the go block's keyword is not coloured: %q", labelled)
	}
	if strings.Contains(plain, "38;2;") || !strings.Contains(plain, "38;5;152") {
		t.Errorf("the unlabelled block is not drawn in the code colour: %q", plain)
	}
}

func TestMentionCompletion(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "internal", "tui"), 0o755)
	os.WriteFile(filepath.Join(dir, "main.go"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "makefile"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "internal", "tui", "view.go"), nil, 0o644)
	cases := []struct {
		input, want string
		candidates  []string
		ok          bool
	}{
		{"look at @in", "look at @internal/", nil, true},
		{"look at @internal/tui/v", "look at @internal/tui/view.go ", nil, true},
		{"@ma", "@ma", []string{"main.go", "makefile"}, true},
		{"@main", "@main.go ", nil, true},
		{"@main.go#L2-4", "@main.go#L2-4", nil, true},
		{"@internal/tui/view.go#L7", "@internal/tui/view.go#L7", nil, true},
		{"mail@host", "mail@host", nil, false},
		{"no mention", "no mention", nil, false},
	}
	for _, c := range cases {
		got, candidates, ok := completeMention(c.input, dir)
		if got != c.want || !slices.Equal(candidates, c.candidates) || ok != c.ok {
			t.Errorf("completeMention(%q) = %q, %v, %v; want %q, %v, %v", c.input, got, candidates, ok, c.want, c.candidates, c.ok)
		}
	}
}

func TestScrollingShowsEarlierBlocks(t *testing.T) {
	c := newConversation()
	for i := 0; i < 300; i++ {
		c.add(&block{kind: blockUser, text: fmt.Sprintf("prompt %03d", i)})
	}
	r := &renderer{tools: func(string) tool.Tool { return nil }}
	bottom := ansi.Strip(strings.Join(c.window(r, 80, 10), "\n"))
	if !strings.Contains(bottom, "prompt 299") || strings.Contains(bottom, "prompt 290") {
		t.Fatalf("bottom window:\n%s", bottom)
	}
	c.scroll(10_000)
	top := ansi.Strip(strings.Join(c.window(r, 80, 10), "\n"))
	if !strings.HasPrefix(top, "> prompt 000") || c.offset != 590 {
		t.Fatalf("top window (offset %d):\n%s", c.offset, top)
	}
	c.scroll(-20)
	middle := ansi.Strip(strings.Join(c.window(r, 80, 10), "\n"))
	if !strings.Contains(middle, "prompt 010") {
		t.Fatalf("window after scrolling down 20 rows:\n%s", middle)
	}
}

func TestShellCommandShowsItsOutputAndEscStopsIt(t *testing.T) {
	m := testModel(t, Options{Cwd: t.TempDir()})
	typeText(m, "!echo from the shell")
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	m.Update(cmd())
	if s := screenOf(m); !strings.Contains(s, "! echo from the shell") || !strings.Contains(s, "from the shell") {
		t.Fatalf("shell output not shown:\n%s", s)
	}
	typeText(m, "!sleep 30")
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	done := make(chan tea.Msg)
	go func() { done <- cmd() }()
	press(m, "esc")
	select {
	case msg := <-done:
		m.Update(msg)
	case <-time.After(5 * time.Second):
		t.Fatal("Esc did not stop the shell command")
	}
	if s := screenOf(m); !strings.Contains(s, "stopped with Esc") {
		t.Errorf("the stopped command's end is not shown:\n%s", s)
	}
}

func TestShellCommandGetsOnlyPassedCredentials(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
	t.Setenv("OPENAI_API_KEY", "sk-oai-secret")
	t.Setenv("GITHUB_TOKEN", "gh-user")
	tests := []struct {
		name string
		pass []string
		want string
	}{
		{"the keys mini-claude uses are gone, the user's other tokens stay", nil, "[] [] [gh-user]"},
		{"a key the user's settings pass reaches the command", []string{"OPENAI_API_KEY"}, "[] [sk-oai-secret] [gh-user]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := testModel(t, Options{Cwd: t.TempDir(), PassEnv: tt.pass})
			typeText(m, `!echo "[$ANTHROPIC_API_KEY] [$OPENAI_API_KEY] [$GITHUB_TOKEN]"`)
			_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
			done, ok := cmd().(shellDoneMsg)
			if !ok || done.failed || done.output != tt.want {
				t.Errorf("!command = %+v, want output %q", done, tt.want)
			}
		})
	}
}

func TestClearShowsTheWarningsOfTheNewConversationAfterIt(t *testing.T) {
	warning := "The session's settings could not be read: bad JSON."
	m := testModel(t, Options{Clear: func() (string, error) { return warning, nil }})
	m.info("An old line.")
	typeText(m, "/clear")
	press(m, "enter")
	shot := strings.Join(strings.Fields(screenOf(m)), " ")
	if strings.Contains(shot, "An old line.") || !strings.Contains(shot, "Started a new conversation. "+warning) {
		t.Fatalf("the screen is not the new conversation followed by its warning:\n%s", shot)
	}
}
