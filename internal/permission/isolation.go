package permission

import (
	"fmt"
	"path/filepath"
	"strings"
)

// isolationDenial refuses, in every mode, a write into the checkout a
// worktree session was made from (Context.Checkout) that lies outside the
// allowed directories, as Claude Code refuses it: a model that names the
// checkout's path from memory would otherwise edit the copy the worktree
// exists to keep apart.
func (c *Context) isolationDenial(parts []item) (Decision, bool) {
	if c.Checkout == "" || len(c.Dirs) == 0 {
		return Decision{}, false
	}
	for _, it := range parts {
		if it.kind != kindWrite || !within(c.Checkout, it.value) || c.inside(it.value) {
			continue
		}
		return Decision{Behavior: Deny, Subject: it.String(), Reason: fmt.Sprintf(
			"This session is isolated in the worktree %s. Edit the worktree copy of this file instead of the shared-checkout path.", c.Dirs[0])}, true
	}
	return Decision{}, false
}

// Isolate returns a copy of c for a session moved into the worktree root (a
// real path): root replaces the first allowed directory, the one the session
// started in, and writes to the checkout it was made from are refused. It
// returns c itself when root already is the first allowed directory.
func (c *Context) Isolate(root string) *Context {
	if len(c.Dirs) == 0 || c.Dirs[0] == root {
		return c
	}
	cp := *c
	cp.Dirs = append([]string{root}, c.Dirs[1:]...)
	if cp.Checkout == "" {
		cp.Checkout = c.Dirs[0]
	}
	return &cp
}

// within reports whether path lies in dir or is dir.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
