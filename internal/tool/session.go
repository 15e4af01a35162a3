package tool

import (
	"sync"
)

// Session is the mutable state the tools of one session share: the working
// directory that Bash's cd moves, per-tool state kept under a key (the files
// read so far, background tasks), notices for the model's next turn, and the
// clean-ups that run when the session ends. It is safe for concurrent use.
type Session struct {
	mu       sync.Mutex
	original string
	cwd      string
	// moved is the root MoveRoot moved the session to, "" until it moves.
	moved    string
	values   map[any]any
	notices  []string
	closers  []func()
	isClosed bool
	// room is what is left of the context room, in tokens; roomKnown says
	// whether the agent set one.
	room      int
	roomKnown bool
}

// NewSession returns the state of a session that starts in cwd.
func NewSession(cwd string) *Session {
	return &Session{original: cwd, cwd: cwd, values: map[any]any{}}
}

// OriginalCwd returns the directory the session started in: the project's
// root, one of the allowed directories however cd has moved Cwd since.
func (s *Session) OriginalCwd() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.original
}

// MoveRoot moves the session into dir, such as a git worktree: dir becomes
// its root (OriginalCwd) and its working directory, and the agent makes it
// the permission engine's first allowed directory in place of the one the
// session started in.
func (s *Session) MoveRoot(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.original, s.cwd, s.moved = dir, dir, dir
}

// Moved returns the root MoveRoot last moved the session to, "" when it
// never moved; a sub-agent's session starts where its parent's is.
func (s *Session) Moved() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.moved
}

// Cwd returns the session's current working directory.
func (s *Session) Cwd() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cwd
}

// SetCwd moves the session's working directory; the next calls resolve relative paths against it.
func (s *Session) SetCwd(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cwd = dir
}

// Value returns the session's value under key, creating it with create on first
// use. Each tool package keeps its own state this way, under an unexported key type.
func Value[T any](s *Session, key any, create func() T) T {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.values[key]; ok {
		return v.(T)
	}
	v := create()
	s.values[key] = v
	return v
}

// Inheritable is a session value a sub-agent's session starts with a copy
// of, such as the record of the files read so far: Claude Code's sub-agents
// start with a clone of their parent's.
type Inheritable interface {
	// Inherit returns the copy the sub-agent's session gets.
	Inherit() any
}

// Child returns the session of a sub-agent of s: in the same directories,
// with a copy of each of s's Inheritable values and nothing else of s's.
func (s *Session) Child() *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	child := NewSession(s.original)
	child.cwd, child.moved = s.cwd, s.moved
	for k, v := range s.values {
		if i, ok := v.(Inheritable); ok {
			child.values[k] = i.Inherit()
		}
	}
	return child
}

// Notify queues a short notice for the model, delivered with the next request
// (a background task finished, say).
func (s *Session) Notify(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notices = append(s.notices, text)
}

// TakeNotices returns the queued notices and clears the queue.
func (s *Session) TakeNotices() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	notices := s.notices
	s.notices = nil
	return notices
}

// SetContextRoom records how many tokens the results of the calls about to
// run may take together before the conversation outgrows its context (the
// agent sets it before each batch of calls).
func (s *Session) SetContextRoom(tokens int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.room, s.roomKnown = max(tokens, 0), true
}

// ContextRoom returns what is left of the room SetContextRoom recorded, and
// whether one was recorded at all.
func (s *Session) ContextRoom() (tokens int, known bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.room, s.roomKnown
}

// UseContextRoom takes tokens off the room, for a result that filled part of it.
func (s *Session) UseContextRoom(tokens int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.room = max(s.room-tokens, 0)
}

// OnClose registers a clean-up to run when the session ends, such as killing
// background processes. Registered after Close, it runs at once.
func (s *Session) OnClose(fn func()) {
	s.mu.Lock()
	if !s.isClosed {
		s.closers = append(s.closers, fn)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	fn()
}

// Close runs the registered clean-ups, most recent first; later calls do nothing.
func (s *Session) Close() {
	s.mu.Lock()
	closers := s.closers
	s.closers, s.isClosed = nil, true
	s.mu.Unlock()
	for i := len(closers) - 1; i >= 0; i-- {
		closers[i]()
	}
}
