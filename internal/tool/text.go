package tool

import "strings"

// What a tool's render hooks return (see Def): Text, lines of spans that each
// name a Style, never terminal escapes, so the golden files stay readable and
// the contract free of any terminal library; the terminal UI maps styles to
// colours. A span may carry Color, a "#rrggbb" foreground chosen by a syntax
// highlighter, which the UI honours where the terminal has colour. Package
// render draws with these types; they live here so the hooks' signatures
// need nothing of it.

// Style says what a span of rendered text is; the UI chooses how it looks.
type Style uint8

// The styles of rendered text.
const (
	StylePlain Style = iota
	StyleDim
	StyleBold
	StyleAdded
	StyleRemoved
	StyleError
	StyleWarning
	StyleLineNumber
)

// Span is a run of text in one style.
type Span struct {
	Text  string
	Style Style
	// Color is an optional "#rrggbb" foreground, such as a syntax colour.
	Color string
}

// Line is one terminal line of spans; it holds no newline.
type Line []Span

// Text is rendered output: lines, top to bottom.
type Text []Line

// RenderOptions say how much room a rendering has and how much to show.
type RenderOptions struct {
	// Width is the number of terminal columns available; 0 means no limit.
	Width int
	// Full asks for the whole result rather than the condensed summary.
	Full bool
}

// String returns the text without styles, lines ending in newlines.
func (t Text) String() string {
	var b strings.Builder
	for _, l := range t {
		b.WriteString(l.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// String returns the line's text without styles.
func (l Line) String() string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.Text)
	}
	return b.String()
}
