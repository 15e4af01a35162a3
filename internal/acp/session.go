package acp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
)

// session is one ACP session: an agent's conversation, the calls it is
// running, and what the editor's user answered.
type session struct {
	srv    *Server
	id     string
	opened *Opened

	// runMu keeps one prompt running at a time: a new prompt cancels the
	// running one (the SDK does) and waits for it to end.
	runMu sync.Mutex

	mu sync.Mutex
	// stop cancels the running prompt; nil between prompts.
	stop context.CancelFunc
	// mode is the mode set_mode asked for while a prompt ran, applied when it ends.
	mode permission.Mode
	// remembered are the rules answered "allow always"; pending are those
	// not yet in the permission context, which changes only between prompts.
	remembered map[string]bool
	pending    []string
	// calls are the tool calls of the conversation, by id, for the updates
	// and permission requests that name them.
	calls map[string]call
	// lastStop is how the model's latest message ended.
	lastStop llm.StopReason
}

// modeState lists the session's permission modes and the current one.
func (s *session) modeState() *sdk.SessionModeState {
	state := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(s.opened.Permissions.Mode)}
	for _, m := range s.opened.Modes {
		desc := modeDescriptions[m]
		state.AvailableModes = append(state.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(m), Name: modeNames[m], Description: &desc})
	}
	return state
}

// modeNames and modeDescriptions present the permission modes to the editor's user.
var (
	modeNames = map[permission.Mode]string{
		permission.ModeDefault:           "Default",
		permission.ModeAcceptEdits:       "Accept Edits",
		permission.ModePlan:              "Plan",
		permission.ModeBypassPermissions: "Bypass Permissions",
	}
	modeDescriptions = map[permission.Mode]string{
		permission.ModeDefault:           "Ask before each call the rules do not allow",
		permission.ModeAcceptEdits:       "Edit files in the working folders without asking",
		permission.ModePlan:              "Read-only tools only: explore and present a plan",
		permission.ModeBypassPermissions: "Run every call without asking; deny rules still apply",
	}
)

// setMode switches the permission mode: at once between prompts, at the
// end of the running one otherwise, as the terminal UI does.
func (s *session) setMode(mode permission.Mode) error {
	if !slices.Contains(s.opened.Modes, mode) {
		return sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("no mode %q: the modes are %s", mode, joinModes(s.opened.Modes))})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		s.mode = mode
		return nil
	}
	s.opened.Permissions.Mode = mode
	return nil
}

func joinModes(modes []permission.Mode) string {
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

// prompt runs text through the agent and maps how the run ended to ACP's
// stop reason; a failure of the model's API is the request's error.
func (s *session) prompt(ctx context.Context, text string) (sdk.PromptResponse, error) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	s.mu.Lock()
	s.stop = stop
	s.mu.Unlock()
	res := s.opened.Agent.Run(ctx, text)
	s.betweenPrompts()
	switch res.Outcome {
	case agent.Completed:
		return sdk.PromptResponse{StopReason: s.endReason()}, nil
	case agent.Interrupted:
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	case agent.MaxTurnsReached:
		return sdk.PromptResponse{StopReason: sdk.StopReasonMaxTurnRequests}, nil
	}
	if errors.Is(res.Err, context.Canceled) {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": fmt.Sprint(res.Err)})
}

// endReason is the stop reason of a completed run: how the model's last
// message ended.
func (s *session) endReason() sdk.StopReason {
	s.mu.Lock()
	last := s.lastStop
	s.mu.Unlock()
	switch last {
	case llm.StopMaxTokens:
		return sdk.StopReasonMaxTokens
	case llm.StopRefusal:
		return sdk.StopReasonRefusal
	}
	return sdk.StopReasonEndTurn
}

// betweenPrompts applies what was asked while the prompt ran: the mode and
// the rules answered "allow always".
func (s *session) betweenPrompts() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop = nil
	perm := s.opened.Permissions
	if s.mode != "" {
		perm.Mode, s.mode = s.mode, ""
	}
	for _, text := range s.pending {
		if r, err := permission.ParseRule(text, "this session"); err == nil {
			r.Base = s.opened.Cwd
			perm.Allow = append(perm.Allow, r)
		}
	}
	s.pending = nil
}

// cancel stops the running prompt, if any.
func (s *session) cancel() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		s.stop()
	}
}

// close cancels the running prompt and ends the session once it returned.
func (s *session) close() {
	s.cancel()
	s.runMu.Lock()
	defer s.runMu.Unlock()
	s.opened.Close()
}

// promptText turns the prompt's content into the text the agent gets:
// text as it is, a linked file as an @path mention (the agent attaches it),
// an embedded resource's text inside a context tag naming it.
func promptText(blocks []sdk.ContentBlock) string {
	var b strings.Builder
	for _, c := range blocks {
		switch {
		case c.Text != nil:
			b.WriteString(c.Text.Text)
		case c.ResourceLink != nil:
			b.WriteString(mention(c.ResourceLink.Uri))
		case c.Resource != nil && c.Resource.Resource.TextResourceContents != nil:
			r := c.Resource.Resource.TextResourceContents
			fmt.Fprintf(&b, "\n<context ref=%q>\n%s\n</context>\n", r.Uri, r.Text)
		}
	}
	return b.String()
}

// mention is how a linked resource is named in the prompt: a file as
// @path, anything else by its URI.
func mention(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	return " @" + u.Path + " "
}
