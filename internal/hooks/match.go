package hooks

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// plainMatcher is a matcher Claude Code compares by name: one tool name or
// several joined by "|".
var plainMatcher = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_|]+$`) })

// matcher decides whether a hook runs for a target: a tool name for the tool
// events, the source or trigger for SessionStart and PreCompact.
type matcher func(target string) bool

// compileMatcher reads a matcher as Claude Code does: "" and "*" match
// everything; names (Edit, Edit|Write) match exactly; anything else is a
// regular expression that must occur in the target (mcp__fs__.*).
func compileMatcher(m string) (matcher, error) {
	switch {
	case m == "" || m == "*":
		return func(string) bool { return true }, nil
	case plainMatcher().MatchString(m):
		names := strings.Split(m, "|")
		return func(target string) bool {
			for _, n := range names {
				if n == target {
					return true
				}
			}
			return false
		}, nil
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return nil, fmt.Errorf("matcher %q is not a valid regular expression: %v", m, err)
	}
	return re.MatchString, nil
}
