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
	"unicode"
	"unicode/utf8"
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
	KindHook           = "hook"
	KindSearchService  = "web search service"
	KindCommand        = "slash command"
	KindSkill          = "skill"
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

// String describes the item in one line, for the dialog and the notice; the
// folder's own text is made Visible, so it cannot redraw the screen around it.
func (it Item) String() string {
	s := it.Kind + " " + Visible(it.Name)
	if it.Detail != "" {
		s += " (" + Visible(it.Detail) + ")"
	}
	if it.Source != "" {
		s += " from " + Visible(it.Source)
	}
	return s
}

// Visible returns text a folder wrote with every character that could move
// the cursor, erase or reorder what a terminal shows (control characters,
// newlines, bidirectional overrides) written as an escape such as \x1b or
// \u202e, so that what the user reads is what the file holds.
func Visible(s string) string {
	if strings.IndexFunc(s, hidden) < 0 {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[0])
		case !hidden(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
		s = s[size:]
	}
	return b.String()
}

// hidden reports whether r changes how a terminal draws the text around it.
func hidden(r rune) bool {
	return unicode.IsControl(r) || r == utf8.RuneError || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 ||
		r == 0x200e || r == 0x200f || r == 0x061c
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
		fmt.Fprintf(&b, "If you trust %s, run `mini-claude trust %s` (or pass --trust for one run); deny and ask rules of the folder apply either way.\n", Visible(dir), Visible(shellQuote(dir)))
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
