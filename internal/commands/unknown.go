package commands

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// namePattern is what may follow a "/" at the start of a prompt to name a
// command; anything else (a path such as /usr/bin) is an ordinary prompt.
var namePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_:.-]*$`) })

// Parse reads a prompt that calls a command: "/name args". ok is false when
// the prompt does not start with "/" and a command name.
func Parse(prompt string) (name, args string, ok bool) {
	rest, slash := strings.CutPrefix(prompt, "/")
	if !slash {
		return "", "", false
	}
	name, args, _ = strings.Cut(rest, " ")
	if i := strings.IndexAny(name, "\t\n"); i >= 0 {
		name, args = name[:i], rest[i+1:]
	}
	if !namePattern().MatchString(name) {
		return "", "", false
	}
	return name, strings.TrimSpace(args), true
}

// maxListedNames is how many names the unknown-command reminder lists.
const maxListedNames = 40

// UnknownReminder is what Claude Code 2.1.332 tells the model, in headless
// runs, before a prompt that starts with a command no one defined: the
// nearest name when one is within two edits, the names the model may run
// (the first 40; total counts every command of the session), and what to do.
func UnknownReminder(name string, available []string, total int) string {
	listed := available[:min(len(available), maxListedNames)]
	more := max(0, total-len(listed))
	parts := []string{fmt.Sprintf("The user's message starts with the slash command /%s, but no command with that name is available in this session, so it did not run.", name)}
	if near := Nearest(name, available, 2); len(near) > 0 {
		parts = append(parts, fmt.Sprintf("The closest available command is /%s. Ask the user before running it.", near[0]))
	}
	switch {
	case len(listed) > 0:
		names := make([]string, len(listed))
		for i, n := range listed {
			names[i] = "/" + n
		}
		s := "Slash commands available in this session: " + strings.Join(names, ", ")
		if more > 0 {
			s += fmt.Sprintf(", and %d more", more)
		}
		parts = append(parts, s+".")
	case more > 0:
		parts = append(parts, fmt.Sprintf("This session has %d slash %s, but none can be named here.", more, plural(more, "command")))
	default:
		parts = append(parts, "No slash commands are available in this session.")
	}
	parts = append(parts, "Treat the message as a plain request and do the task with the tools you have. If the task needs that command, tell the user it is not installed in this session. The user can add it as an organization plugin or a project skill. Do not give installation steps you are not sure of.",
		"Do not say the command ran.")
	return "<system-reminder>\n" + strings.Join(parts, " ") + "\n</system-reminder>"
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// Nearest returns the names within maxDistance edits of name (case
// ignored), nearest first, names at the same distance in their order; a
// negative maxDistance takes every name.
func Nearest(name string, names []string, maxDistance int) []string {
	type scored struct {
		name string
		d    int
	}
	var found []scored
	for _, n := range names {
		d := distance(strings.ToLower(name), strings.ToLower(n))
		if maxDistance < 0 || d <= maxDistance {
			found = append(found, scored{n, d})
		}
	}
	slices.SortStableFunc(found, func(a, b scored) int { return a.d - b.d })
	out := make([]string, len(found))
	for i, s := range found {
		out[i] = s.name
	}
	return out
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
