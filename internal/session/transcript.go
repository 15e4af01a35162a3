package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// Config says where a transcript goes and what its lines carry.
type Config struct {
	// Project is the directory the session started in; its slug names the folder.
	Project string
	ID      string
	// Version is mini-claude's version, written on every line.
	Version string
	// Model is the session's model, which made the summaries of compactions.
	Model string
	// State is the tools' session: its current directory goes on every line and
	// the changes of its file state on the lines of tool results. Nil writes
	// the project as the directory and no file state.
	State *tool.Session
	// OnError is told of the first failed write. The transcript then stops
	// writing, so that no line is appended to a torn one; the session goes on.
	OnError func(error)
}

// Transcript is the open transcript of a session, safe for concurrent use.
// OnEvent records a run's messages; each line is in the file when the call
// that writes it returns, and fsync'd in the background right after (Close
// waits for that).
type Transcript struct {
	cfg     Config
	path    string
	agentID string
	// parentToolUseID is the Agent call that started a sub-agent's transcript.
	parentToolUseID string
	// subagents is the folder of the session's sub-agent transcripts.
	subagents string
	children  map[string]*Transcript

	mu     sync.Mutex
	f      *os.File
	sync   *flusher
	last   string
	files  map[string]fileaccess.Record
	failed bool
	// results holds, by tool_use_id, what the events said of calls whose
	// tool_result is not written yet: their output and whether they were refused.
	results map[string]ToolResult
	// promptParents holds, by prompt id, the parent of the prompt's first
	// line: where a rewind before it branches off.
	promptParents map[string]string
}

// Create starts the transcript of a new session; it fails when the session
// already has one.
func Create(cfg Config) (*Transcript, error) {
	return create(cfg, Path(cfg.Project, cfg.ID))
}

func create(cfg Config, path string) (*Transcript, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create the transcript folder: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("%w: session %s has a transcript already (%s); resume it with --resume %s, or choose another id", ErrExists, cfg.ID, path, cfg.ID)
	}
	if err != nil {
		return nil, fmt.Errorf("create the transcript: %w", err)
	}
	return newTranscript(cfg, path, f, filepath.Dir(path)), nil
}

// newTranscript writes to f; newDir is the folder of a file just created,
// synced with the first line, or "".
func newTranscript(cfg Config, path string, f *os.File, newDir string) *Transcript {
	t := &Transcript{cfg: cfg, path: path, f: f, files: records(cfg.State), children: map[string]*Transcript{},
		results: map[string]ToolResult{}, subagents: filepath.Join(filepath.Dir(path), cfg.ID, "subagents"), promptParents: map[string]string{}}
	t.sync = newFlusher(f, newDir, t.fail)
	return t
}

// Resume opens the transcript loaded for appending, after cutting off a torn
// last line, and records the results it made up for interrupted calls. With a
// cfg.ID other than the loaded session's, it forks instead: a new transcript
// starts with the loaded conversation and the file state, and the old one is
// left as it was. Restore the file state (loaded.RestoreFiles) first.
func Resume(cfg Config, loaded *Loaded) (*Transcript, error) {
	if cfg.ID != loaded.ID {
		return fork(cfg, loaded)
	}
	f, err := os.OpenFile(loaded.Path, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the transcript: %w", err)
	}
	if err := cutTornTail(f, loaded); err != nil {
		f.Close()
		return nil, err
	}
	t := newTranscript(cfg, loaded.Path, f, "")
	t.last = loaded.LastUUID
	t.promptParents = loaded.promptParents()
	if loaded.Interrupted != nil {
		t.message(TypeUser, &Message{Role: llm.RoleUser, Content: loaded.Interrupted.Content}, "", nil)
	}
	return t, t.Err()
}

// cutTornTail truncates the partial line a crash left at the end of the file,
// when the file is still as Load read it; otherwise it ends the last line.
func cutTornTail(f *os.File, loaded *Loaded) error {
	stat, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat the transcript: %w", err)
	}
	if loaded.complete == loaded.size && stat.Size() == loaded.size {
		return nil
	}
	if stat.Size() == loaded.size {
		if err := f.Truncate(loaded.complete); err != nil {
			return fmt.Errorf("cut the torn last line of the transcript: %w", err)
		}
		return f.Sync()
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, stat.Size()-1); err == nil && last[0] != '\n' {
		if _, err := f.Write([]byte("\n")); err != nil {
			return fmt.Errorf("end the last line of the transcript: %w", err)
		}
	}
	return nil
}

// fork writes the loaded conversation into a new transcript under cfg.ID.
func fork(cfg Config, loaded *Loaded) (*Transcript, error) {
	t, err := Create(cfg)
	if err != nil {
		return nil, err
	}
	maps.Copy(t.results, loaded.Results)
	for i, m := range loaded.Messages {
		lines := []Line{{Type: TypeAssistant, Message: &Message{Role: m.Role, Content: m.Content}}}
		if m.Role == llm.RoleUser {
			lines = t.userLines(m.Content)
		}
		if i == len(loaded.Messages)-1 {
			lines[len(lines)-1].FileState = fileRecords(t.files)
		}
		t.writeAll(lines)
	}
	return t, t.Err()
}

// ID returns the session id.
func (t *Transcript) ID() string { return t.cfg.ID }

// Path returns the transcript's file.
func (t *Transcript) Path() string { return t.path }

// Err returns the first failed write, if any.
func (t *Transcript) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.failed {
		return fmt.Errorf("the transcript %s could not be written; the session is not saved", t.path)
	}
	return nil
}

// OnEvent records a run: the prompt and tool results (UserMessage, with the
// outputs of ToolFinished and the refusals of PermissionDenied), each
// assistant message with its model and usage, compactions, cleared results,
// and each sub-agent's events in a transcript of its own. Other events are
// not part of the transcript.
func (t *Transcript) OnEvent(e agent.Event) {
	switch e := e.(type) {
	case agent.UserMessage:
		lines := t.userLines(e.Message.Content)
		for i := range lines {
			lines[i].PromptID = e.PromptID
		}
		lines[len(lines)-1].FileState = t.fileChanges()
		t.writeAll(lines)
		if hasToolResult(e.Message.Content) {
			// A batch's results go in one message: what is left is of calls
			// whose results will never be written.
			t.mu.Lock()
			clear(t.results)
			t.mu.Unlock()
		}
	case agent.ToolFinished:
		t.keepOutput(e)
	case agent.PermissionDenied:
		t.mu.Lock()
		t.results[e.Denial.ToolUseID] = ToolResult{Rejected: true}
		t.mu.Unlock()
	case agent.AssistantMessage:
		stop := string(e.StopReason)
		usage := e.Usage
		t.message(TypeAssistant, &Message{ID: e.ID, Type: "message", Role: llm.RoleAssistant, Model: e.Model,
			Content: e.Message.Content, StopReason: &stop, Usage: &usage}, e.RequestID, nil)
	case agent.Compacted:
		t.Compacted([]llm.Message{e.Message}, compactMetadata{Trigger: string(e.Trigger), PreTokens: e.PreTokens,
			PostTokens: e.PostTokens, MessagesSummarized: e.MessagesSummarized, DurationMS: e.Duration.Milliseconds(),
			Model: t.cfg.Model, Usage: &e.Usage})
	case agent.CompactionFailed:
		t.AppendSystem("compaction_failed", e.Err.Error(), compactMetadata{Trigger: string(e.Trigger), Model: t.cfg.Model, Usage: &e.Usage})
	case agent.ResultsCleared:
		t.AppendSystem("results_cleared", fmt.Sprintf("Cleared %d old tool results (%d characters)", len(e.ToolUseIDs), e.Chars), e)
	case agent.ConversationRewound:
		t.rewound(e.PromptID)
	case agent.SubAgentStarted:
		t.child(e.AgentID, e.ParentToolUseID, e.Model)
	case agent.SubAgentEvent:
		if child := t.child(e.AgentID, e.ParentToolUseID, ""); child != nil {
			child.OnEvent(e.Event)
		}
	case agent.SubAgentFinished:
		t.closeChild(e.AgentID)
	}
}

// compactMetadata describes a compaction, with the usage of its summarising
// request, which CostsOf counts.
type compactMetadata struct {
	Trigger            string     `json:"trigger"`
	PreTokens          int        `json:"preTokens,omitempty"`
	PostTokens         int        `json:"postTokens,omitempty"`
	MessagesSummarized int        `json:"messagesSummarized,omitempty"`
	DurationMS         int64      `json:"durationMs,omitempty"`
	Model              string     `json:"model,omitempty"`
	Usage              *llm.Usage `json:"usage,omitempty"`
}

// child returns the open transcript of a sub-agent, starting it on first use;
// nil when it cannot be written (OnError was told).
func (t *Transcript) child(agentID, parentToolUseID, model string) *Transcript {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.children[agentID]; ok {
		return c
	}
	c, err := t.startChild(agentID, parentToolUseID, model)
	if err != nil {
		if t.cfg.OnError != nil {
			t.cfg.OnError(err)
		}
		return nil
	}
	t.children[agentID] = c
	return c
}

func (t *Transcript) closeChild(agentID string) {
	t.mu.Lock()
	c, ok := t.children[agentID]
	delete(t.children, agentID)
	t.mu.Unlock()
	if ok && c != nil {
		c.Close()
	}
}

// AppendSystem records a system event (subtype such as "api_error" or
// "compact_boundary"), with a line of text and any data that marshals to JSON.
func (t *Transcript) AppendSystem(subtype, content string, metadata any) error {
	line, err := t.systemLine(subtype, content, metadata)
	if err != nil {
		return err
	}
	t.write(line)
	return t.Err()
}

// Compacted records a compaction: a compact boundary line with its metadata,
// then the messages that replace the conversation, which is all Load returns
// of the session before it. The lines before stay in the file.
func (t *Transcript) Compacted(history []llm.Message, metadata any) error {
	line, err := t.systemLine(SubtypeCompactBoundary, "Conversation compacted", metadata)
	if err != nil {
		return err
	}
	t.mu.Lock()
	line.LogicalParentUUID, t.last = t.last, ""
	t.mu.Unlock()
	t.write(line)
	for _, m := range history {
		kind := TypeUser
		if m.Role == llm.RoleAssistant {
			kind = TypeAssistant
		}
		t.message(kind, &Message{Role: m.Role, Content: m.Content}, "", nil)
	}
	return t.Err()
}

// Child starts the transcript of a sub-agent of this session, linked by
// agentID and the Agent call parentToolUseID: <session id>/subagents/agent-<agentID>.jsonl
// beside this one (the sub-agents of sub-agents too), its lines marked as a
// sidechain with both ids. OnEvent starts them itself from the sub-agent events.
func (t *Transcript) Child(agentID, parentToolUseID string) (*Transcript, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.startChild(agentID, parentToolUseID, "")
}

func (t *Transcript) startChild(agentID, parentToolUseID, model string) (*Transcript, error) {
	cfg := t.cfg
	if model != "" {
		cfg.Model = model
	}
	c, err := create(cfg, filepath.Join(t.subagents, "agent-"+agentID+".jsonl"))
	if err != nil {
		return nil, fmt.Errorf("start the transcript of sub-agent %s: %w", agentID, err)
	}
	c.agentID, c.parentToolUseID, c.subagents = agentID, parentToolUseID, t.subagents
	return c, nil
}

// Close closes the file and those of sub-agents still open; the lines are on disk already.
func (t *Transcript) Close() error {
	t.mu.Lock()
	children := t.children
	t.children = map[string]*Transcript{}
	t.mu.Unlock()
	for _, c := range children {
		if c != nil {
			c.Close()
		}
	}
	t.sync.wait()
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.f.Close()
}

func (t *Transcript) systemLine(subtype, content string, metadata any) (Line, error) {
	line := Line{Type: TypeSystem, Subtype: subtype, Content: content}
	if metadata != nil {
		data, err := json.Marshal(metadata)
		if err != nil {
			return Line{}, fmt.Errorf("record the %s event: %w", subtype, err)
		}
		line.Metadata = data
	}
	return line, nil
}

// keepOutput holds a succeeded call's output, whole as Claude Code writes
// it, as JSON, for the line of its result; an output that does not marshal is
// left out, and the call is then drawn from its tool_result text on resume.
func (t *Transcript) keepOutput(e agent.ToolFinished) {
	if e.Output == nil || e.Result.IsError {
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(e.Output) != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.results[e.ID] = ToolResult{Output: bytes.TrimSpace(buf.Bytes())}
}

// userLines returns the lines of a user message. Tool results go one a line,
// as Claude Code writes them, each with what the events said of its call
// (toolUseResult, permissionDecision); the other blocks follow on a line of
// their own. Load joins them back into one message.
func (t *Transcript) userLines(content []llm.ContentBlock) []Line {
	var lines []Line
	var rest []llm.ContentBlock
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range content {
		if b.Type != llm.BlockToolResult {
			rest = append(rest, b)
			continue
		}
		line := Line{Type: TypeUser, Message: &Message{Role: llm.RoleUser, Content: []llm.ContentBlock{b}}}
		if r, ok := t.results[b.ToolUseID]; ok {
			delete(t.results, b.ToolUseID)
			line.ToolUseResult = r.Output
			if r.Rejected {
				line.PermissionDecision = &PermissionDecision{Decision: DecisionReject}
			}
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return []Line{{Type: TypeUser, Message: &Message{Role: llm.RoleUser, Content: content}}}
	}
	if len(rest) > 0 {
		lines = append(lines, Line{Type: TypeUser, Message: &Message{Role: llm.RoleUser, Content: rest}})
	}
	return lines
}

func hasToolResult(content []llm.ContentBlock) bool {
	return slices.ContainsFunc(content, func(b llm.ContentBlock) bool { return b.Type == llm.BlockToolResult })
}

func (t *Transcript) writeAll(lines []Line) {
	for _, l := range lines {
		t.write(l)
	}
}

func (t *Transcript) message(kind string, m *Message, requestID string, files map[string]FileRecord) {
	t.write(Line{Type: kind, Message: m, RequestID: requestID, FileState: files})
}

// write fills in the fields every line has, appends the line and syncs it.
func (t *Transcript) write(line Line) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.failed {
		return
	}
	line.UUID = uuid.NewString()
	if t.last != "" {
		parent := t.last
		line.ParentUUID = &parent
	}
	line.IsSidechain, line.AgentID, line.ParentToolUseID = t.agentID != "", t.agentID, t.parentToolUseID
	if _, seen := t.promptParents[line.PromptID]; line.PromptID != "" && !seen {
		t.promptParents[line.PromptID] = t.last
	}
	line.Timestamp = timestamp(time.Now())
	line.Cwd, line.SessionID, line.Version = t.cfg.Project, t.cfg.ID, t.cfg.Version
	if t.cfg.State != nil {
		line.Cwd = t.cfg.State.Cwd()
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(line)
	if err == nil {
		_, err = t.f.Write(buf.Bytes())
	}
	if err != nil {
		t.failLocked(err)
		return
	}
	t.sync.request()
	t.last = line.UUID
}

// fail stops the transcript after a write or fsync failed, and says so once.
func (t *Transcript) fail(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failLocked(err)
}

func (t *Transcript) failLocked(err error) {
	if t.failed {
		return
	}
	t.failed = true
	if t.cfg.OnError != nil {
		t.cfg.OnError(fmt.Errorf("write the transcript %s: %w; the session is no longer saved", t.path, err))
	}
}

// fileChanges returns the file records that changed since the last line
// that carried them, and remembers them.
func (t *Transcript) fileChanges() map[string]FileRecord {
	if t.agentID != "" {
		return nil // a sub-agent has a session, and file state, of its own
	}
	now := records(t.cfg.State)
	t.mu.Lock()
	defer t.mu.Unlock()
	var changed map[string]FileRecord
	for path, r := range now {
		if old, ok := t.files[path]; ok && sameRecord(old, r) {
			continue
		}
		if changed == nil {
			changed = map[string]FileRecord{}
		}
		changed[path] = fileRecord(r)
	}
	t.files = now
	return changed
}

func sameRecord(a, b fileaccess.Record) bool {
	return a.Full == b.Full && a.Hash == b.Hash && a.ModTime.Equal(b.ModTime)
}

// records returns the file state of a tools' session.
func records(state *tool.Session) map[string]fileaccess.Record {
	if state == nil {
		return map[string]fileaccess.Record{}
	}
	return fileaccess.StateOf(&tool.Env{Session: state}).Records()
}

func fileRecords(in map[string]fileaccess.Record) map[string]FileRecord {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]FileRecord, len(in))
	for path, r := range in {
		out[path] = fileRecord(r)
	}
	return out
}

// syncDir makes a new file's directory entry durable; failure only weakens that.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
