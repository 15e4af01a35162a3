// Package acp is mini-claude's front end for editors: the Agent Client
// Protocol (JSON-RPC 2.0 over stdio) through github.com/coder/acp-go-sdk.
// It only translates: the editor's requests become runs of the same agent,
// tools and permission engine the terminal UI and headless runs use, and the
// agent's events become session/update notifications; permission asks become
// session/request_permission requests, and the file tools read and write
// through the editor when it offers its fs methods.
package acp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// Backend opens the sessions the editor asks for, assembled as every other
// front end's: the cli implements it.
type Backend interface {
	Open(ctx context.Context, req OpenRequest) (*Opened, error)
}

// OpenRequest is what a session is opened with.
type OpenRequest struct {
	// Cwd is the absolute folder the session works in.
	Cwd string
	// MCPServers are the servers the editor gives the session, besides the
	// ones the user's and the folder's settings configure.
	MCPServers []mcp.Server
	// LoadID names the saved session to continue; "" opens a new one.
	LoadID string
	// Prompter answers the permission asks of the session's agent.
	Prompter permission.Prompter
	// OnEvent receives the agent's events, after the transcript has.
	OnEvent func(agent.Event)
	// Editor, when set, carries the text reads and writes of the file tools.
	Editor fileaccess.Editor
}

// Opened is a session ready to take prompts.
type Opened struct {
	ID string
	// Cwd is the session's folder, which rules answered "allow always" are relative to.
	Cwd   string
	Agent *agent.Agent
	// Permissions is the session's permission context, whose mode
	// session/set_mode changes and to which "allow always" rules are added.
	Permissions *permission.Context
	// History is the conversation so far of a loaded session.
	History []llm.Message
	// SaveRule saves an "allow always" answer to the project's settings; nil
	// in a folder the user has not trusted, where the answer holds for the
	// session only.
	SaveRule func(rule string) error
	// Modes are the permission modes the session may switch to.
	Modes []permission.Mode
	// Close ends the session: its MCP servers, processes and transcript.
	Close func()
}

// Info names the agent to the editor.
type Info struct {
	Name, Title, Version string
}

// Server is the agent side of one ACP connection.
type Server struct {
	backend Backend
	info    Info
	conn    *sdk.AgentSideConnection
	// ctx outlives the requests: updates and requests to the editor are sent
	// on it, so a cancelled prompt still reports how its calls ended.
	ctx context.Context
	// logs takes what the editor's user may want to know that is no reply:
	// the editor shows the agent's stderr in its log.
	logs io.Writer

	mu       sync.Mutex
	client   sdk.ClientCapabilities
	sessions map[string]*session
}

// Serve speaks ACP on in and out until the editor closes in or ctx ends,
// then closes every session. Diagnostics go to logs; out carries nothing
// but JSON-RPC.
func Serve(ctx context.Context, backend Backend, info Info, in io.Reader, out io.Writer, logs io.Writer) error {
	s := &Server{backend: backend, info: info, ctx: ctx, logs: logs, sessions: map[string]*session{}}
	s.conn = sdk.NewAgentSideConnection(s, out, in)
	s.conn.SetLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn})))
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
	}
	s.closeAll()
	return nil
}

// closeAll ends every session, cancelling the prompts still running.
func (s *Server) closeAll() {
	s.mu.Lock()
	sessions := s.sessions
	s.sessions = map[string]*session{}
	s.mu.Unlock()
	for _, sess := range sessions {
		sess.close()
	}
}

// lookup returns the session with the id, or the error the editor gets.
func (s *Server) lookup(id sdk.SessionId) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[string(id)]
	if !ok {
		return nil, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("no session %q: open it with session/new or session/load", id)})
	}
	return sess, nil
}

// Initialize agrees on the protocol version and tells what the agent offers.
func (s *Server) Initialize(_ context.Context, req sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	s.mu.Lock()
	s.client = req.ClientCapabilities
	s.mu.Unlock()
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			McpCapabilities:    sdk.McpCapabilities{Http: true, Sse: true},
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true},
		},
		AgentInfo:   &sdk.Implementation{Name: s.info.Name, Title: &s.info.Title, Version: s.info.Version},
		AuthMethods: []sdk.AuthMethod{},
	}, nil
}

// Authenticate has nothing to do: the model's credentials are the
// environment's, as in every other mode, and no method is offered.
func (s *Server) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

// NewSession opens a session in the editor's folder with the editor's MCP servers.
func (s *Server) NewSession(ctx context.Context, req sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	sess, err := s.open(ctx, req.Cwd, req.McpServers, "")
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(sess.id), Modes: sess.modeState()}, nil
}

// LoadSession continues a saved session: its conversation is replayed to the
// editor as session/update notifications before the response.
func (s *Server) LoadSession(ctx context.Context, req sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	sess, err := s.open(ctx, req.Cwd, req.McpServers, string(req.SessionId))
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	sess.replay(sess.opened.History)
	return sdk.LoadSessionResponse{Modes: sess.modeState()}, nil
}

// open opens a session through the backend and registers it.
func (s *Server) open(ctx context.Context, cwd string, servers []sdk.McpServer, loadID string) (*session, error) {
	converted, err := mcpServers(servers)
	if err != nil {
		return nil, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	s.mu.Lock()
	client := s.client
	s.mu.Unlock()
	sess := &session{srv: s, remembered: map[string]bool{}, calls: map[string]call{}}
	req := OpenRequest{Cwd: cwd, MCPServers: converted, LoadID: loadID, Prompter: sess, OnEvent: sess.onEvent}
	if client.Fs.ReadTextFile && client.Fs.WriteTextFile {
		req.Editor = &editor{srv: s, session: sess}
	}
	opened, err := s.backend.Open(ctx, req)
	if err != nil {
		return nil, err
	}
	sess.id, sess.opened = opened.ID, opened
	s.mu.Lock()
	if old, ok := s.sessions[sess.id]; ok {
		defer old.close()
	}
	s.sessions[sess.id] = sess
	s.mu.Unlock()
	return sess, nil
}

// Prompt runs the prompt to the end of the model's turn.
func (s *Server) Prompt(ctx context.Context, req sdk.PromptRequest) (sdk.PromptResponse, error) {
	sess, err := s.lookup(req.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	return sess.prompt(ctx, promptText(req.Prompt))
}

// Cancel stops the session's running prompt; the SDK has already cancelled
// the prompt's context, which kills the running commands. A pending
// permission request is answered "cancelled" by the editor.
func (s *Server) Cancel(_ context.Context, req sdk.CancelNotification) error {
	sess, err := s.lookup(req.SessionId)
	if err != nil {
		return err
	}
	sess.cancel()
	return nil
}

// SetSessionMode switches the session's permission mode.
func (s *Server) SetSessionMode(_ context.Context, req sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	sess, err := s.lookup(req.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	return sdk.SetSessionModeResponse{}, sess.setMode(permission.Mode(req.ModeId))
}

// CloseSession is not offered (no session capability says so); an editor
// that calls it anyway is told so.
func (s *Server) CloseSession(context.Context, sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	return sdk.CloseSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionClose)
}

// ListSessions is not offered; session/load takes an id the editor kept.
func (s *Server) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionList)
}

// ResumeSession is not offered; session/load is.
func (s *Server) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionResume)
}

// SetSessionConfigOption is not offered: the session has no config options.
func (s *Server) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetConfigOption)
}

// update sends one session/update notification; a failure means the editor
// is gone, which the connection reports by closing.
func (s *Server) update(sessionID string, u sdk.SessionUpdate) {
	_ = s.conn.SessionUpdate(s.ctx, sdk.SessionNotification{SessionId: sdk.SessionId(sessionID), Update: u})
}

// logf writes a line to the log.
func (s *Server) logf(format string, args ...any) {
	fmt.Fprintf(s.logs, format+"\n", args...)
}
