// Package permission decides whether a tool call may run: rules in Claude Code's
// syntax ("Bash", "Bash(npm run test:*)", "mcp__server"), permission modes, the
// decision engine and the Prompter interface the UI implements for asks.
package permission

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Rule is one permission rule: a tool name, optionally with content that narrows
// it to some uses ("npm run test:*" for Bash, "./src/**" for Read).
type Rule struct {
	Tool string
	// Content is the text between the parentheses; empty for a whole-tool rule.
	Content string
	// Source names where the rule came from, such as a settings file or a flag.
	Source string
	// Base is the directory the rule's relative paths are relative to: the
	// project of the settings file it came from, or the working directory.
	Base string

	// compiled is the content prepared for matching, set by ParseRule.
	compiled *compiledRule
}

// String renders the rule in the syntax it was written in.
func (r Rule) String() string {
	if r.Content == "" {
		return r.Tool
	}
	return r.Tool + "(" + r.Content + ")"
}

var ruleTool = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

// ParseRule reads one rule such as "Read", "Bash(git status)" or "mcp__github".
// "Tool()" and "Tool(*)" mean the whole tool.
func ParseRule(text, source string) (Rule, error) {
	s := strings.TrimSpace(text)
	name, content := s, ""
	if open := strings.IndexByte(s, '('); open >= 0 {
		if !strings.HasSuffix(s, ")") {
			return Rule{}, fmt.Errorf("rule %q from %s: missing closing parenthesis", text, source)
		}
		name, content = s[:open], s[open+1:len(s)-1]
		if content == "*" {
			content = ""
		}
	}
	if !ruleTool().MatchString(name) {
		return Rule{}, fmt.Errorf("rule %q from %s: %q is not a tool name (letters, digits, _ and - only)", text, source, name)
	}
	r := Rule{Tool: name, Content: content, Source: source}
	r.compiled = compile(r)
	return r, nil
}

// ParseRuleList parses a flag value such as "Read,Bash(git log:*) Edit": rules
// separated by commas or spaces, where separators inside parentheses belong to
// the rule. Malformed rules are returned as errors and left out.
func ParseRuleList(values []string, source string) ([]Rule, []error) {
	var rules []Rule
	var errs []error
	for _, value := range values {
		for _, text := range splitRules(value) {
			rule, err := ParseRule(text, source)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			rules = append(rules, rule)
		}
	}
	return rules, errs
}

func splitRules(value string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range value {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case (r == ',' || r == ' ') && depth == 0:
			if part := strings.TrimSpace(value[start:i]); part != "" {
				parts = append(parts, part)
			}
			start = i + 1
		}
	}
	if part := strings.TrimSpace(value[start:]); part != "" {
		parts = append(parts, part)
	}
	return parts
}

// coversTool reports whether the rule's tool part names the tool: exactly, or as
// the MCP server prefix of an mcp__server__tool name.
func (r Rule) coversTool(name string) bool {
	if r.Tool == name {
		return true
	}
	return strings.HasPrefix(r.Tool, "mcp__") && strings.Count(r.Tool, "__") == 1 &&
		strings.HasPrefix(name, r.Tool+"__")
}
