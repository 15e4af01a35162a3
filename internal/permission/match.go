package permission

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Command is one simple command of a shell command line, as the permission
// engine sees it.
type Command struct {
	// Args are the command's words once quoting is removed and wrappers (env,
	// timeout, xargs, …) are stripped: Args[0] is the program.
	Args []string
	// Text is the command as written, to name it in a prompt.
	Text string
	// ReadOnly says the command only reads, searches or lists.
	ReadOnly bool
	// Dynamic says a word of it, the program's name included, is only known at run time.
	Dynamic bool
	// Plain says nothing around the command (sudo, xargs, an assignment such
	// as PATH=) changes what it runs; allow rules match only plain commands.
	Plain bool
	// Destructive marks an operation confirmed even in acceptEdits: recursive
	// deletes, force pushes, hard resets.
	Destructive bool
}

// access kinds a content rule can govern.
type kind int

const (
	kindNone kind = iota
	kindRead
	kindWrite
	kindCommand
	kindDomain
)

// kindOf says which accesses a rule of the tool governs: Read, Glob and Grep
// rules govern every read of a file, whatever tool does it; Edit, Write and
// NotebookEdit rules every write; Bash rules commands; WebFetch rules domains.
func kindOf(tool string) kind {
	switch tool {
	case "Read", "Glob", "Grep", "LS", "NotebookRead":
		return kindRead
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		return kindWrite
	case "Bash":
		return kindCommand
	case "WebFetch":
		return kindDomain
	}
	return kindNone
}

// pathPattern turns a path rule's content into an absolute doublestar pattern:
// "//abs" is absolute, "~/x" is under home, "/x", "./x" and "x/y" are under the
// rule's base, and a pattern without a slash ("*.md", ".env") matches at any
// depth under the base, as in .gitignore.
func pathPattern(content, base, home string) string {
	switch {
	case strings.HasPrefix(content, "//"):
		return filepath.Clean(content[1:])
	case content == "~" || strings.HasPrefix(content, "~/"):
		return filepath.Join(home, strings.TrimPrefix(content, "~"))
	case strings.HasPrefix(content, "/"), strings.HasPrefix(content, "./"), strings.Contains(strings.TrimSuffix(content, "/"), "/"):
		return filepath.Join(base, content)
	}
	return filepath.Join(base, "**", content)
}

// matchPath reports whether the absolute path, or a directory above it, matches
// the pattern. foldCase matches regardless of case: deny and ask rules do, so
// that .ENV cannot slip past a deny of .env.
func matchPath(pattern, path string, foldCase bool) bool {
	if foldCase {
		pattern, path = strings.ToLower(pattern), strings.ToLower(path)
	}
	for p := path; ; p = filepath.Dir(p) {
		if ok, err := doublestar.Match(pattern, p); err == nil && ok {
			return true
		}
		if filepath.Dir(p) == p {
			return false
		}
	}
}

// matchCommand reports whether a Bash rule covers the command: "npm run
// test:*" (or "npm run test *") is a prefix of whole words, anything else must
// equal the command's words. A dynamic command matches no rule, and forAllow
// matches only plain commands: "sudo npm run test" is not what
// Bash(npm run test:*) allowed.
func matchCommand(r *Rule, c *Command, forAllow bool) bool {
	if c.Dynamic || len(c.Args) == 0 || (forAllow && !c.Plain) {
		return false
	}
	rc := compiledOf(r)
	words := rc.words
	if len(words) == 0 || len(words) > len(c.Args) || (!rc.prefix && len(words) != len(c.Args)) {
		return false
	}
	for i, w := range words {
		arg := c.Args[i]
		if i == 0 && !forAllow && strings.Contains(arg, "/") {
			// A deny or ask of rm covers /bin/rm and ./rm too; an allow
			// covers only the name the rule wrote.
			arg = filepath.Base(arg)
		}
		if arg != w {
			return false
		}
	}
	return true
}

// matchDomain reports whether a WebFetch rule covers the host, as Claude Code
// matches it: "domain:example.com" covers that host only; "domain:*.example.com"
// covers its subdomains, at any depth, but not example.com itself;
// "domain:*" covers every host; a "*" inside a label matches within that
// label. Case and trailing dots do not count.
func matchDomain(content, host string) bool {
	pattern, ok := strings.CutPrefix(content, "domain:")
	if !ok {
		return false
	}
	pattern, host = normalHost(pattern), normalHost(host)
	if pattern == "*" {
		return true
	}
	if !strings.Contains(pattern, "*") {
		return pattern == host
	}
	want, got := strings.Split(pattern, "."), strings.Split(host, ".")
	if want[0] == "*" {
		want = want[1:]
		if len(got) <= len(want) {
			return false
		}
		got = got[len(got)-len(want):]
	}
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if ok, err := path.Match(want[i], got[i]); err != nil || !ok || got[i] == "" {
			return false
		}
	}
	return true
}

// normalHost lowers a host name and drops trailing dots and the brackets of
// an IPv6 address, so that "Example.COM." and "example.com" are one host.
func normalHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if h != "*" {
		h = strings.TrimRight(h, ".")
	}
	return h
}

// NamesHost reports whether an allow rule names the host itself, as
// WebFetch(domain:host) without a wildcard. Only such a rule lets WebFetch
// reach a loopback, link-local or private address: a wildcard or a
// whole-tool allow is not a decision about the user's own network.
func (c *Context) NamesHost(host string) bool {
	host = normalHost(host)
	for _, r := range c.Allow {
		if r.Tool != "WebFetch" {
			continue
		}
		if name, ok := strings.CutPrefix(r.Content, "domain:"); ok && !strings.Contains(name, "*") && normalHost(name) == host {
			return true
		}
	}
	return false
}
