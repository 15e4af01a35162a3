package permission

import (
	"fmt"
	"path/filepath"
	"slices"
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
	all = appendPaths(all, kindRead, q.Reads)
	all = appendPaths(all, kindWrite, q.Writes)
	for _, d := range q.Domains {
		all = append(all, item{kind: kindDomain, value: d})
	}
	return all
}

// appendPaths adds the paths as items of the kind, each once: a command line
// resolved from several directories names the same file many times.
func appendPaths(all []item, k kind, paths []string) []item {
	start := len(all)
	for _, p := range paths {
		if !slices.ContainsFunc(all[start:], func(it item) bool { return it.value == p }) {
			all = append(all, item{kind: k, value: p})
		}
	}
	return all
}

// covers reports whether rule r applies to the item. Deny and ask rules match
// paths regardless of case, and a Bash deny or ask covers any command whose
// name is only known at run time.
func (c *Context) covers(r *Rule, it *item, strict bool) bool {
	if compiledOf(r).kind != it.kind {
		return false
	}
	switch it.kind {
	case kindRead, kindWrite:
		return matchRulePath(r, c.Home, it.value, strict)
	case kindCommand:
		return matchCommand(r, &it.command, !strict) || (strict && it.command.Dynamic)
	case kindDomain:
		return matchDomain(r.Content, it.value)
	}
	return false
}

// firstMatch finds the first rule of rules that covers the call or one of its
// parts, and returns the decision it makes.
func (c *Context) firstMatch(rules []Rule, q Query, parts []item, programs programSet, b Behavior) (Decision, bool) {
	byKind := partsByKind(parts)
	for i := range rules {
		r := &rules[i]
		rc := compiledOf(r)
		if r.Content == "" || rc.kind == kindNone {
			if r.coversTool(q.Tool) && (r.Content == "" || q.Target == "" || matchTarget(r.Content, q.Target)) {
				return c.ruleDecision(b, r, q.Tool, ""), true
			}
			continue
		}
		if rc.kind == kindCommand && !programs.dynamic && len(rc.words) > 0 && !programs.names[rc.words[0]] {
			continue
		}
		same := byKind[rc.kind]
		for j := range same {
			if c.covers(r, &same[j], true) {
				return c.ruleDecision(b, r, q.Tool, same[j].String()), true
			}
		}
	}
	return Decision{}, false
}

// partsByKind splits the parts, which items lists kind by kind, into one
// sub-slice per kind.
func partsByKind(parts []item) [kindDomain + 1][]item {
	var byKind [kindDomain + 1][]item
	for start := 0; start < len(parts); {
		end := start + 1
		for end < len(parts) && parts[end].kind == parts[start].kind {
			end++
		}
		byKind[parts[start].kind] = parts[start:end]
		start = end
	}
	return byKind
}

// programSet is the programs a call's commands run, by name and by the base
// name of a path (/bin/rm is rm), so that a Bash rule naming another program
// is passed over without comparing it with every command.
type programSet struct {
	names   map[string]bool
	dynamic bool
}

func programsOf(parts []item) programSet {
	var set programSet
	for i := range parts {
		cmd := &parts[i].command
		if parts[i].kind != kindCommand {
			continue
		}
		if cmd.Dynamic || len(cmd.Args) == 0 {
			set.dynamic = true
			continue
		}
		if set.names == nil {
			set.names = make(map[string]bool, 2*len(parts))
		}
		set.names[cmd.Args[0]] = true
		set.names[filepath.Base(cmd.Args[0])] = true
	}
	return set
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

// secretHomeDirs (under home) and the names secretName knows are denied by
// default to reads and writes of every tool; an allow rule that names the
// file explicitly overrides them.
var secretHomeDirs = []string{".ssh", ".aws"}

// secretException is the one .env file meant to be shared.
const secretException = ".env.example"

func (c *Context) secretDefault(parts []item) (Decision, bool) {
	for _, it := range parts {
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

// isSecret applies the secret defaults: a component named like a secret file
// (regardless of case), unless a component is .env.example, or a path under
// ~/.ssh or ~/.aws.
func (c *Context) isSecret(path string) bool {
	secret := false
	for part := range strings.SplitSeq(path, "/") {
		if strings.EqualFold(part, secretException) {
			return false
		}
		secret = secret || secretName(strings.ToLower(part))
	}
	if secret {
		return true
	}
	for _, dir := range secretHomeDirs {
		root := filepath.Join(c.Home, dir)
		if hasPrefix(path, root, true) && (len(path) == len(root) || path[len(root)] == '/') {
			return true
		}
	}
	return false
}

// secretName reports whether a lower-case file name is one of the secret
// defaults: .env, .env.*, *.pem, *.key, id_rsa*.
func secretName(name string) bool {
	return name == ".env" || strings.HasPrefix(name, ".env.") || strings.HasSuffix(name, ".pem") ||
		strings.HasSuffix(name, ".key") || strings.HasPrefix(name, "id_rsa")
}

func ruleToolFor(k kind) string {
	if k == kindWrite {
		return "Edit"
	}
	return "Read"
}

func (c *Context) allowedByRule(it item) bool {
	for i := range c.Allow {
		if c.Allow[i].Content != "" && c.covers(&c.Allow[i], &it, false) {
			return true
		}
	}
	return false
}

// allowance allows the call when every part of it is allowed, and asks,
// naming the first part that is not.
func (c *Context) allowance(q Query, parts []item) Decision {
	wholeTool := c.toolAllowRule(q.Tool)
	if wholeTool == nil && q.Target != "" {
		wholeTool = c.targetAllowRule(q.Tool, q.Target)
	}
	if len(parts) == 0 {
		switch {
		case wholeTool != nil:
			return Decision{Behavior: Allow, Rule: wholeTool, Reason: fmt.Sprintf("allowed by the rule %s", wholeTool)}
		case q.ToolVerdict == Allow:
			return Decision{Behavior: Allow, Reason: q.ToolReason}
		case q.ReadOnly && !q.Network && !strings.HasPrefix(q.Tool, "mcp__"):
			// An MCP server's readOnlyHint is its own claim, not a fact
			// mini-claude checked: its tools ask, as in Claude Code.
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

// partAllowed reports whether a part is allowed by itself (a read inside the
// allowed directories, a read-only command, …) or by an allow rule; the rules
// are searched only when the part is not allowed by itself.
func (c *Context) partAllowed(it item, wholeTool bool) bool {
	return c.allowedByItself(it, wholeTool) || c.allowedByRule(it)
}

func (c *Context) allowedByItself(it item, wholeTool bool) bool {
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

// targetAllowRule returns the allow rule that names the call's target,
// Tool(target), or the whole tool; nil when none does.
func (c *Context) targetAllowRule(tool, target string) *Rule {
	for i, r := range c.Allow {
		if kindOf(r.Tool) == kindNone && r.coversTool(tool) && (r.Content == "" || matchTarget(r.Content, target)) {
			return &c.Allow[i]
		}
	}
	return nil
}

// matchTarget reports whether a rule's content names the target: exactly,
// or as "prefix:*" for the target and the names below it.
func matchTarget(content, target string) bool {
	if prefix, ok := strings.CutSuffix(content, ":*"); ok {
		return target == prefix || strings.HasPrefix(target, prefix+":")
	}
	return content == target
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
	_, denied := c.ReadRefusal(path)
	return denied
}

// ReadRefusal returns the decision that denies reading the real path, by a
// deny rule naming paths (its Rule is set) or by the secret defaults (Rule is
// nil), and whether there is one: what ReadDenied decides, with the reason,
// for files read without a tool call, such as memory files.
func (c *Context) ReadRefusal(path string) (Decision, bool) {
	q := Query{Tool: "Read", ReadOnly: true, Reads: []string{path}}
	parts := items(q)
	if d, ok := c.firstMatch(c.Deny, q, parts, programSet{}, Deny); ok && d.Subject != "" {
		return d, true
	}
	return c.secretDefault(parts)
}
