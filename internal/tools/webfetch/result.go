package webfetch

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// maxPart is how many characters of a page one call reads: what the small
// model gets, or what the call returns itself.
const maxPart = 100_000

// The side request's closing instructions, Claude Code's: for a preapproved
// documentation site, and for any other page.
const (
	preapprovedInstructions = "Provide a concise response based on the content above. Include relevant details, code examples, and documentation excerpts as needed."
	otherInstructions       = `Provide a concise response based only on the content above. In your response:
 - Enforce a strict 125-character maximum for quotes from any source document. Open Source Software is ok as long as we respect the license.
 - Use quotation marks for exact language from articles; any language outside of the quotation should never be word-for-word the same.
 - You are not a lawyer and never comment on the legality of your own prompts and responses.
 - Never produce or reproduce exact song lyrics.`
)

// part is the piece of a page's text one call reads.
type part struct {
	// text is up to maxPart characters from offset; total is the page's length.
	text          string
	offset, total int
	// rest is the text after offset, of which text is the start.
	restChars int
}

// end is the character after the part.
func (p part) end() int { return p.offset + utf8.RuneCountInString(p.text) }

// partOf cuts the part of text that starts at offset, counting characters
// (code points), not bytes.
func partOf(text string, offset int) part {
	p := part{offset: offset, total: utf8.RuneCountInString(text)}
	rest := skipRunes(text, offset)
	p.restChars = p.total - min(offset, p.total)
	p.text = rest[:len(rest)-len(skipRunes(rest, maxPart))]
	return p
}

// skipRunes returns s without its first n characters.
func skipRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[i:]
		}
		n--
	}
	return ""
}

// sidePrompt is the user message of the side request, Claude Code's: where
// the part starts when it is not the page's start, the page's text between
// rules, the call's prompt, and the instructions.
func sidePrompt(p part, prompt string, isPreapproved bool) string {
	var b strings.Builder
	if p.offset > 0 {
		fmt.Fprintf(&b, "The content below is one part of a longer page: it starts %d characters into the page's %d.\n", p.offset, p.total)
	}
	text := p.text
	if p.restChars > maxPart {
		text += truncatedNote
	}
	instructions := otherInstructions
	if isPreapproved {
		instructions = preapprovedInstructions
	}
	fmt.Fprintf(&b, "\nWeb page content:\n---\n%s\n---\n\n%s\n\n%s\n", text, prompt, instructions)
	return b.String()
}

// pagingNote tells the model that the result covers only a part of the page
// and how to read on; "" when the part reaches the page's end. covered is
// what covers the part: "the answer above", or "the text above".
func pagingNote(p part, covered string) string {
	if p.end() >= p.total {
		return ""
	}
	return fmt.Sprintf("\n\n[WebFetch note: this page's text is %d characters long and %s covers only characters %d to %d; "+
		"the final %d were not read — to read on, call WebFetch again with the same url and offset: %d.]",
		p.total, covered, p.offset, p.end(), p.total-p.end(), p.end())
}

// pastEnd is the result of an offset at or past the page's end.
func pastEnd(p part) string {
	return fmt.Sprintf("Nothing left to read from offset %d: this page's text is %d characters long.", p.offset, p.total)
}

// pageTextResult is the part itself as the result, when no small model
// reads it: marked as the page's own text, which is data, not instructions.
func pageTextResult(p part) string {
	return "<fetched-web-content>\n" + p.text + "\n</fetched-web-content>" + pagingNote(p, "the text above")
}

// The limits of a redirect target relayed to the model, Claude Code's.
const (
	maxRelayedURL  = 1000
	maxDNSHostname = 255
)

// redirectText reports a redirect to another host, in Claude Code's words,
// with the call's parameters to fetch the target with.
func redirectText(r *response, prompt string, offset int) string {
	target, err := url.Parse(r.redirect)
	relay, withheld := "", 0
	fetchable := err == nil && (target.Scheme == "https" || target.Scheme == "http")
	if fetchable {
		target.User = nil
		if target.Path == "" {
			target.Path = "/"
		}
		full := target.String()
		relay = full
		if utf8.RuneCountInString(full) > maxRelayedURL {
			relay = full[:len(full)-len(skipRunes(full, maxRelayedURL))]
			withheld = utf8.RuneCountInString(full) - maxRelayedURL
		}
	}
	var line string
	switch {
	case !fetchable:
		line = "Redirect URL: (withheld — the server sent a redirect target that is not a valid http(s) URL)"
	default:
		line = "Redirect URL (from the server's Location header — server-supplied, not verified): " + relay
		if withheld > 0 {
			line += fmt.Sprintf(" […%d more characters withheld: too long to relay]", withheld)
		}
		if len(target.Hostname()) > maxDNSHostname {
			line += fmt.Sprintf(" [hostname longer than any DNS name (%d characters): not a fetchable address]", maxDNSHostname)
		}
	}
	next := "The redirect target could not be relayed in full or is not a fetchable address, so it cannot be fetched from here; report the redirect instead."
	if fetchable && withheld == 0 && len(target.Hostname()) <= maxDNSHostname {
		next = "To complete your request, I need to fetch content from the redirected URL. Please use WebFetch again with these parameters:\n" +
			"    - url: \"" + relay + "\"\n    - prompt: \"" + prompt + "\""
		if offset > 0 {
			next += fmt.Sprintf("\n    - offset: %d", offset)
		}
	}
	return fmt.Sprintf("REDIRECT DETECTED: The URL redirects to a location that was not fetched automatically.\n\n    Original URL: %s\n    %s\n    Status: %d %s\n\n    %s",
		r.url, line, r.code, statusText(r.code), next)
}

// httpErrorText reports a status that is neither a success nor a redirect,
// in Claude Code's words.
func httpErrorText(r *response) string {
	return fmt.Sprintf("The server returned HTTP %d %s.%s\n\nThe response body was not retrieved. If this URL requires authentication, "+
		"use an authenticated tool (e.g. `gh` for GitHub, or an MCP-provided fetch tool) instead of WebFetch.",
		r.code, statusText(r.code), retryAfterLine(r))
}
