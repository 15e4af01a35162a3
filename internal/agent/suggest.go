package agent

import (
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/shell"
)

// SuggestRule returns the allow rule that stops the question a decision asks
// from being asked again: for a command, its prefix ("Bash(npm run test:*)"),
// or the command itself when it is destructive or only known at run time; for
// a path, its directory ("Edit(//abs/dir/**)"); for a domain, the domain; and
// the whole tool when the ask names no part.
func SuggestRule(q permission.Query, d permission.Decision) string {
	for _, c := range q.Commands {
		if d.Subject != "the command `"+commandText(c)+"`" {
			continue
		}
		prefix := shell.CommandPrefix(c.Args)
		if c.Destructive || c.Dynamic || prefix == "" {
			return q.Tool + "(" + commandText(c) + ")"
		}
		if prefix == strings.Join(c.Args, " ") {
			return q.Tool + "(" + prefix + ")"
		}
		return q.Tool + "(" + prefix + ":*)"
	}
	for _, p := range q.Writes {
		if d.Subject == "writing "+p {
			return "Edit(/" + filepath.Dir(p) + "/**)"
		}
	}
	for _, p := range q.Reads {
		if d.Subject == "reading "+p {
			return "Read(/" + filepath.Dir(p) + "/**)"
		}
	}
	for _, domain := range q.Domains {
		if d.Subject == "fetching from "+domain {
			return q.Tool + "(domain:" + domain + ")"
		}
	}
	return q.Tool
}

func commandText(c permission.Command) string {
	if c.Text != "" {
		return c.Text
	}
	return strings.Join(c.Args, " ")
}
