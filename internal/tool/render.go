package tool

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rivo/uniseg"
)

// Rendering a call for the user. Hooks return Text: lines of spans that each
// name a Style, never terminal escapes, so this package stays free of any
// terminal library and the golden files stay readable; the terminal UI maps
// styles to colours. A span may carry Color, a "#rrggbb" foreground chosen by
// a syntax highlighter, which the UI honours where the terminal has colour.

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

// Styled returns text of one style, a line for each line of s.
func Styled(s string, style Style) Text {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	out := make(Text, len(lines))
	for i, l := range lines {
		out[i] = Line{{Text: l, Style: style}}
	}
	return out
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

// Clip shortens s to at most width display columns, ending it with "…" when
// cut; width 0 leaves it whole. Tabs count as one column, so callers expand
// them first where alignment matters.
func Clip(s string, width int) string {
	if width <= 0 || uniseg.StringWidth(s) <= width {
		return s
	}
	var b strings.Builder
	used := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		w := g.Width()
		if used+w > width-1 {
			break
		}
		b.WriteString(g.Str())
		used += w
	}
	return b.String() + "…"
}

// Condense keeps the first n lines of text and adds a dim line telling how
// many more there are and that Ctrl-O shows them.
func Condense(t Text, n int) Text {
	if len(t) <= n {
		return t
	}
	out := append(Text{}, t[:n]...)
	return append(out, Line{{Text: fmt.Sprintf("… +%d lines (ctrl+o to expand)", len(t)-n), Style: StyleDim}})
}

// ClipLines clips every span of every line so no line is wider than width.
func ClipLines(t Text, width int) Text {
	if width <= 0 {
		return t
	}
	out := make(Text, len(t))
	for i, l := range t {
		out[i] = clipLine(l, width)
	}
	return out
}

func clipLine(l Line, width int) Line {
	var out Line
	left := width
	for _, s := range l {
		w := uniseg.StringWidth(s.Text)
		if w <= left {
			out = append(out, s)
			left -= w
			continue
		}
		s.Text = Clip(s.Text, left)
		return append(out, s)
	}
	return out
}

// Elapsed formats a running time the way the UI shows it: "4s", "1m 05s".
func Elapsed(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%dm %02ds", s/60, s%60)
}

// Renderer draws a call in each of its states. Built tools implement it with
// their Def's render hooks and the defaults below; RendererOf gives any Tool one.
type Renderer interface {
	// RenderUse is the argument summary after the tool's name in the call's
	// title, "Bash(<summary>)"; partial says the input is still streaming.
	RenderUse(input json.RawMessage, partial bool) string
	// RenderQueued is shown under the title while the call waits its turn.
	RenderQueued(input json.RawMessage, o RenderOptions) Text
	// RenderProgress is shown while the call runs, from its latest progress event.
	RenderProgress(input json.RawMessage, ev ProgressEvent, elapsed time.Duration, o RenderOptions) Text
	// RenderResult is shown when the call succeeded, condensed or full.
	RenderResult(input json.RawMessage, output any, o RenderOptions) Text
	// RenderRejected is shown when the permission was refused.
	RenderRejected(input json.RawMessage, o RenderOptions) Text
	// RenderError is shown when the call failed, with the text the model got.
	RenderError(input json.RawMessage, message string, o RenderOptions) Text
}

// Slimmer is implemented by an output that holds more than its tool's
// result hooks draw from, such as the whole file a Write replaced. Slim
// returns the output, of the same type, with only what they draw; the UI
// keeps that for the rest of the session instead of the whole output.
type Slimmer interface {
	Slim() any
}

// StorageForm is implemented by an output that a resumed session keeps
// smaller than the tool returned it, as Claude Code's stripForStorage does
// when it loads a transcript: a Read's file content, an Edit's or a Write's
// former file. ForStorage returns the output, of the same type, without them.
type StorageForm interface {
	ForStorage() any
}

// Stored is output as a resumed session keeps it: its StorageForm when it
// has one.
func Stored(output any) any {
	if s, ok := output.(StorageForm); ok {
		return s.ForStorage()
	}
	return output
}

// RendererOf returns t's renderer, or the generic one for a Tool that has none
// (a tool not made by Build).
func RendererOf(t Tool) Renderer {
	if r, ok := t.(Renderer); ok {
		return r
	}
	return genericRenderer{}
}

// OutputDecoder is a tool that can read back its typed output from the JSON
// it was stored as; the tools Build makes are.
type OutputDecoder interface {
	DecodeOutput(data json.RawMessage) (any, error)
}

// DecodeOutput returns t's typed output from data, the JSON a transcript
// stored it as, for the tool's RenderResult; false when t cannot decode it
// (a tool not made by Build, such as an MCP tool, or JSON of another shape).
func DecodeOutput(t Tool, data json.RawMessage) (any, bool) {
	d, ok := t.(OutputDecoder)
	if !ok || len(data) == 0 {
		return nil, false
	}
	out, err := d.DecodeOutput(data)
	return out, err == nil
}

// GenericRenderer is the renderer of a call whose tool is unknown to the UI,
// such as one the model named wrongly.
func GenericRenderer() Renderer { return genericRenderer{} }

// condensedLines is how many lines a condensed result or error shows.
const condensedLines = 3

type genericRenderer struct{}

func (genericRenderer) RenderUse(input json.RawMessage, partial bool) string {
	return summarizeInput(input, partial)
}

func (genericRenderer) RenderQueued(json.RawMessage, RenderOptions) Text {
	return Styled("Waiting…", StyleDim)
}

func (genericRenderer) RenderProgress(_ json.RawMessage, ev ProgressEvent, elapsed time.Duration, o RenderOptions) Text {
	msg := "Running…"
	if ev.Message != "" {
		msg = ev.Message
	}
	return ClipLines(Text{{{Text: msg, Style: StyleDim}, {Text: " (" + Elapsed(elapsed) + ")", Style: StyleDim}}}, o.Width)
}

func (genericRenderer) RenderResult(_ json.RawMessage, output any, o RenderOptions) Text {
	return GenericResult(output, o)
}

func (genericRenderer) RenderRejected(json.RawMessage, RenderOptions) Text {
	return Styled("Rejected by the user", StyleWarning)
}

func (genericRenderer) RenderError(_ json.RawMessage, message string, o RenderOptions) Text {
	return GenericError(message, o)
}

// GenericResult renders an output as text: a string as it is, anything else as
// JSON; condensed to a few lines unless o.Full.
func GenericResult(output any, o RenderOptions) Text {
	var s string
	switch v := output.(type) {
	case nil:
		return Styled("Done", StyleDim)
	case string:
		s = v
	default:
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			s = fmt.Sprint(v)
		} else {
			s = string(b)
		}
	}
	if strings.TrimSpace(s) == "" {
		return Styled("(No output)", StyleDim)
	}
	t := Styled(strings.ReplaceAll(s, "\t", "    "), StylePlain)
	if !o.Full {
		t = Condense(t, condensedLines)
	}
	return ClipLines(t, o.Width)
}

// GenericError renders a failure's message in the error style, without the
// <tool_use_error> wrapper the model reads; condensed unless o.Full.
func GenericError(message string, o RenderOptions) Text {
	message = strings.TrimPrefix(strings.TrimSuffix(message, "</tool_use_error>"), "<tool_use_error>")
	if message == "" {
		message = "Failed"
	}
	t := Styled(strings.ReplaceAll(message, "\t", "    "), StyleError)
	if !o.Full {
		t = Condense(t, condensedLines)
	}
	return ClipLines(t, o.Width)
}

// summarizeInput shows an input as `key: value` pairs, strings quoted, for
// tools without a RenderUse hook.
func summarizeInput(input json.RawMessage, partial bool) string {
	if partial {
		input = CompletePartialJSON(input)
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(input, &fields) != nil || len(fields) == 0 {
		return ""
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + strings.Join(strings.Fields(string(fields[k])), " ")
	}
	return strings.Join(parts, ", ")
}
