// Package trust decides what a folder may decide. It keeps the user's record
// of the folders they trusted and the project MCP servers they approved (in
// the user's own config folder, never in the project), and holds the gate
// every project-defined thing passes: anything that executes, widens access
// or redirects traffic takes effect only in a trusted folder.
package trust

import (
	"fmt"
	"slices"
	"strings"
)

// The kinds of project-defined items the gate rules on.
const (
	KindAllowRule      = "allow rule"
	KindMode           = "permission mode"
	KindDirectory      = "additional directory"
	KindProvider       = "model provider"
	KindModel          = "model"
	KindMCPServer      = "MCP server"
	KindServerApproval = "MCP server approval"
	KindTool           = "custom tool"
	KindAgentType      = "agent type"
	KindPassEnv        = "credentials passed to commands"
)

// Item is one thing a folder's files define that would execute, widen access
// or redirect traffic.
type Item struct {
	// Kind is one of the Kind constants.
	Kind string
	// Name names the item: the rule, the mode, the server's or tool's name.
	Name string
	// Detail is what it runs or reaches, when that says more than the name:
	// a server's command line or URL, a tool's command.
	Detail string
	// Source is the file that defines it.
	Source string
	// Never says the item is refused even in a trusted folder, such as
	// bypassPermissions from a project file.
	Never bool
}

// String describes the item in one line, for the dialog and the notice.
func (it Item) String() string {
	s := it.Kind + " " + it.Name
	if it.Detail != "" {
		s += " (" + it.Detail + ")"
	}
	if it.Source != "" {
		s += " from " + it.Source
	}
	return s
}

// Gate rules, for one session, on the items a folder defines, and remembers
// those it held back so that they can be reported once.
type Gate struct {
	trusted bool
	held    []Item
}

// NewGate returns the gate of a folder the user trusted or not.
func NewGate(trusted bool) *Gate {
	return &Gate{trusted: trusted}
}

// Trusted reports whether the folder's items take effect.
func (g *Gate) Trusted() bool {
	return g.trusted
}

// Admit reports whether the item takes effect; an item held back is remembered.
func (g *Gate) Admit(it Item) bool {
	if g.trusted && !it.Never {
		return true
	}
	if !slices.Contains(g.held, it) {
		g.held = append(g.held, it)
	}
	return false
}

// Held returns the items held back so far, in the order they were met.
func (g *Gate) Held() []Item {
	return slices.Clone(g.held)
}

// Notice is the one message a headless run prints about the items held back,
// or "" when there are none: what was ignored and how to trust the folder.
func (g *Gate) Notice(dir string) string {
	var untrusted, never []string
	for _, it := range g.held {
		if it.Never {
			never = append(never, "  - "+it.String())
		} else {
			untrusted = append(untrusted, "  - "+it.String())
		}
	}
	var b strings.Builder
	if len(untrusted) > 0 {
		fmt.Fprintf(&b, "This folder is not trusted, so mini-claude ignored what it defines that would run programs, widen permissions or redirect traffic:\n%s\n", strings.Join(untrusted, "\n"))
		fmt.Fprintf(&b, "If you trust %s, run `mini-claude trust %s` (or pass --trust for one run); deny and ask rules of the folder apply either way.\n", dir, shellQuote(dir))
	}
	if len(never) > 0 {
		fmt.Fprintf(&b, "A project file may never set these, trusted or not; set them in your own settings or on the command line:\n%s\n", strings.Join(never, "\n"))
	}
	return b.String()
}

// shellQuote quotes a path for a command the user may paste.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
