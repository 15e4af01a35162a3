package permission

import (
	"fmt"
	"path/filepath"
	"strings"
)

// item is one thing a call touches, in the words a prompt uses.
type item struct {
	kind    kind
	value   string
	command Command
}

func (it item) String() string {
	switch it.kind {
	case kindRead:
		return "reading " + it.value
	case kindWrite:
		return "writing " + it.value
	case kindDomain:
		return "fetching from " + it.value
	}
	return "the command `" + it.value + "`"
}

func items(q Query) []item {
	var all []item
	for _, c := range q.Commands {
		text := c.Text
		if text == "" {
			text = strings.Join(c.Args, " ")
		}
		all = append(all, item{kind: kindCommand, value: text, command: c})
	}
	for _, p := range q.Reads {
		all = append(all, item{kind: kindRead, value: p})
	}
	for _, p := range q.Writes {
		all = append(all, item{kind: kindWrite, value: p})
	}
	for _, d := range q.Domains {
		all = append(all, item{kind: kindDomain, value: d})
	}
	return all
}

// covers reports whether rule r applies to the item. Deny and ask rules match
// paths regardless of case, and a Bash deny or ask covers any command whose
// name is only known at run time.
func (c *Context) covers(r Rule, it item, strict bool) bool {
	if kindOf(r.Tool) != it.kind {
		return false
	}
	switch it.kind {
	case kindRead, kindWrite:
		return matchPath(pathPattern(r.Content, r.Base, c.Home), it.value, strict)
	case kindCommand:
		return matchCommand(r.Content, it.command, !strict) || (strict && it.command.Dynamic)
	case kindDomain:
		return matchDomain(r.Content, it.value)
	}
	return false
}

// firstMatch finds the first rule of rules that covers the call or one of its
// parts, and returns the decision it makes.
func (c *Context) firstMatch(rules []Rule, q Query, b Behavior) (Decision, bool) {
	parts := items(q)
	for i, r := range rules {
		if r.Content == "" || kindOf(r.Tool) == kindNone {
			if r.coversTool(q.Tool) {
				return c.ruleDecision(b, &rules[i], q.Tool, ""), true
			}
			continue
		}
		for _, it := range parts {
			if c.covers(r, it, true) {
				return c.ruleDecision(b, &rules[i], q.Tool, it.String()), true
			}
		}
	}
	return Decision{}, false
}

func (c *Context) ruleDecision(b Behavior, r *Rule, tool, subject string) Decision {
	what := tool
	if subject != "" {
		what = subject
	}
	if b == Deny {
		return Decision{Behavior: Deny, Rule: r, Subject: subject,
			Reason: fmt.Sprintf("Permission for %s has been denied by the rule %s (from %s).", what, r, r.Source)}
	}
	return Decision{Behavior: Ask, Rule: r, Subject: subject,
		Reason: fmt.Sprintf("The rule %s (from %s) asks for approval of %s.", r, r.Source, what)}
}

// Secrets denied by default to reads and writes of every tool, a path being a
// secret when one of its components is: .env and .env.* (but .env.example),
// *.pem, *.key, id_rsa*, and everything under ~/.ssh and ~/.aws. An allow rule
// that names the file explicitly overrides them. The checks are string
// operations only, cheap enough to run on every file a search finds.
func secretName(name string) bool {
	switch {
	case name == ".env.example":
		return false
	case name == ".env", strings.HasPrefix(name, ".env."), strings.HasSuffix(name, ".pem"),
		strings.HasSuffix(name, ".key"), strings.HasPrefix(name, "id_rsa"):
		return true
	}
	return false
}

func (c *Context) secretDefault(q Query) (Decision, bool) {
	for _, it := range items(q) {
		if it.kind != kindRead && it.kind != kindWrite || !c.isSecret(it.value) {
			continue
		}
		if c.allowedByRule(it) {
			continue
		}
		return Decision{Behavior: Deny, Subject: it.String(), Reason: fmt.Sprintf(
			"Permission for %s has been denied: it looks like a secret (keys, credentials, .env files are protected by default). "+
				"If the user wants it read, they can allow it explicitly with a rule such as %s(%s).", it, ruleToolFor(it.kind), it.value)}, true
	}
	return Decision{}, false
}

func (c *Context) isSecret(path string) bool {
	lower := strings.ToLower(filepath.Clean(path))
	if c.Home != "" {
		home := strings.ToLower(filepath.Clean(c.Home))
		for _, dir := range []string{".ssh", ".aws"} {
			if d := filepath.Join(home, dir); lower == d || strings.HasPrefix(lower, d+"/") {
				return true
			}
		}
	}
	for _, name := range strings.Split(lower, "/") {
		if secretName(name) {
			return true
		}
	}
	return false
}

func ruleToolFor(k kind) string {
	if k == kindWrite {
		return "Edit"
	}
	return "Read"
}

func (c *Context) allowedByRule(it item) bool {
	for _, r := range c.Allow {
		if r.Content != "" && c.covers(r, it, false) {
			return true
		}
	}
	return false
}

// allowance allows the call when every part of it is allowed, and asks,
// naming the first part that is not.
func (c *Context) allowance(q Query) Decision {
	wholeTool := c.toolAllowRule(q.Tool)
	parts := items(q)
	if len(parts) == 0 {
		switch {
		case wholeTool != nil:
			return Decision{Behavior: Allow, Rule: wholeTool, Reason: fmt.Sprintf("allowed by the rule %s", wholeTool)}
		case q.ToolVerdict == Allow:
			return Decision{Behavior: Allow, Reason: q.ToolReason}
		case q.ReadOnly:
			return Decision{Behavior: Allow, Reason: "read-only"}
		}
		return Decision{Behavior: Ask, Reason: fmt.Sprintf("%s needs approval.", q.Tool)}
	}
	for _, it := range parts {
		// A rule allowing the whole tool covers only the tool's own kind of
		// access: Bash(…) allowed does not make its redirections allowed writes.
		if !c.partAllowed(it, wholeTool != nil && kindOf(q.Tool) == it.kind) {
			return Decision{Behavior: Ask, Subject: it.String(), Reason: c.askReason(q.Tool, it)}
		}
	}
	return Decision{Behavior: Allow, Reason: "every part of the call is allowed"}
}

func (c *Context) partAllowed(it item, wholeTool bool) bool {
	if c.allowedByRule(it) {
		return true
	}
	switch it.kind {
	case kindRead:
		return c.inside(it.value)
	case kindWrite:
		return c.inside(it.value) && (wholeTool || c.Mode == ModeAcceptEdits)
	case kindCommand:
		if it.command.Dynamic {
			return false
		}
		if it.command.Destructive {
			return wholeTool
		}
		return it.command.ReadOnly || wholeTool
	case kindDomain:
		return wholeTool
	}
	return false
}

func (c *Context) askReason(tool string, it item) string {
	switch {
	case (it.kind == kindRead || it.kind == kindWrite) && !c.inside(it.value):
		return fmt.Sprintf("%s needs approval: %s is outside the allowed directories (%s).", capitalize(it.String()), it.value, strings.Join(c.Dirs, ", "))
	case it.kind == kindCommand && it.command.Destructive:
		return fmt.Sprintf("%s is destructive and needs approval.", capitalize(it.String()))
	case it.kind == kindCommand && it.command.Dynamic:
		return fmt.Sprintf("%s is only known when it runs, so it needs approval.", capitalize(it.String()))
	}
	return fmt.Sprintf("%s (by %s) needs approval.", capitalize(it.String()), tool)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (c *Context) toolAllowRule(tool string) *Rule {
	for i, r := range c.Allow {
		if r.Content == "" && r.coversTool(tool) {
			return &c.Allow[i]
		}
	}
	return nil
}

// inside reports whether the real path lies in one of the allowed directories.
func (c *Context) inside(path string) bool {
	for _, dir := range c.Dirs {
		rel, err := filepath.Rel(dir, path)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return true
		}
	}
	return false
}

// ReadDenied reports whether reading the real path is denied by a deny rule or
// by the secret defaults, so that searches can leave the file out of their
// results even when the search itself was allowed.
func (c *Context) ReadDenied(path string) bool {
	q := Query{Tool: "Read", ReadOnly: true, Reads: []string{path}}
	if d, ok := c.firstMatch(c.Deny, q, Deny); ok && d.Subject != "" {
		return true
	}
	_, secret := c.secretDefault(q)
	return secret
}
