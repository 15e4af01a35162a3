package commands

import (
	"strings"
	"unicode/utf8"
)

// maxDescription is the longest description a listing line shows, in
// characters, as in Claude Code.
const maxDescription = 1536

// MaxListingBudget caps the listing's size in characters: Claude Code's
// budget for a 200,000-token context window (1% of it, four characters a
// token). Claude Code lets the budget grow with the window; mini-claude keeps
// it there, so 100 skills cost under 3,000 tokens whatever the model.
const MaxListingBudget = 8000

// ListingBudget is the listing's size in characters for a model with a
// context window of window tokens: 1% of it at four characters a token, as
// Claude Code counts, at most MaxListingBudget.
func ListingBudget(window int) int {
	return max(1, min(window*4/100, MaxListingBudget))
}

// Listing is the reminder that tells the model which skills it may load
// with the Skill tool, in the words of Claude Code 2.1.332: a line
// "- name: description" ("- name (alias): …" for a skill whose front matter
// names it otherwise) for each command the model may run, or "" when
// there is none. Over budget (in characters), descriptions are dropped from
// the end of the list until it fits, those lines keeping the name alone.
func Listing(cmds []Command, budget int) string {
	if len(cmds) == 0 {
		return ""
	}
	full := make([]string, len(cmds))
	short := make([]string, len(cmds))
	total := len(cmds) - 1
	for i, c := range cmds {
		short[i] = "- " + c.Name
		if c.Alias != "" {
			short[i] += " (" + c.Alias + ")"
		}
		full[i] = short[i] + ": " + description(c)
		total += utf8.RuneCountInString(full[i])
	}
	lines := full
	if total > budget {
		lines = make([]string, len(cmds))
		left := budget - (len(cmds) - 1)
		for _, s := range short {
			left -= utf8.RuneCountInString(s)
		}
		for i := range cmds {
			extra := utf8.RuneCountInString(full[i]) - utf8.RuneCountInString(short[i])
			if extra <= left {
				lines[i] = full[i]
				left -= extra
			} else {
				lines[i] = short[i]
			}
		}
	}
	return "<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n" + strings.Join(lines, "\n") + "\n</system-reminder>"
}

// description is a command's text in the listing: its description, with
// when_to_use after " - ", cut at maxDescription characters.
func description(c Command) string {
	d := c.Description
	if c.WhenToUse != "" {
		d += " - " + c.WhenToUse
	}
	if r := []rune(d); len(r) > maxDescription {
		d = string(r[:maxDescription-1]) + "…"
	}
	return d
}
