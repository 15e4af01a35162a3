package webfetch

import (
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
)

// maxHTML is how much of an HTML page is converted: 1 MiB; the rest is
// left out with truncatedNote, as Claude Code does.
const maxHTML = 1 << 20

// truncatedNote marks text cut to a limit.
const truncatedNote = "\n\n[Content truncated due to length...]"

// droppedTags are the elements whose content is no text of the page:
// scripts, styles, navigation and embedded frames.
var droppedTags = []string{"script", "style", "noscript", "template", "iframe", "nav", "svg", "canvas"}

// newConverter returns an HTML to markdown converter: CommonMark with
// tables, headings underlined as turndown writes them, the dropped tags removed.
func newConverter() *converter.Converter {
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(
			commonmark.WithHeadingStyle(commonmark.HeadingStyleSetext),
			commonmark.WithBulletListMarker("*"),
		),
		table.NewTablePlugin(),
	))
	for _, tag := range droppedTags {
		conv.Register.TagType(tag, converter.TagTypeRemove, converter.PriorityStandard)
	}
	return conv
}

// toMarkdown converts the first maxHTML bytes of an HTML page to markdown;
// a page that cannot be converted is passed on as it is.
func toMarkdown(page string) string {
	cut := page
	if len(cut) > maxHTML {
		cut = cut[:maxHTML]
		for len(cut) > 0 && !utf8.RuneStart(page[len(cut)]) {
			cut = cut[:len(cut)-1]
		}
	}
	md, err := newConverter().ConvertString(cut)
	if err != nil {
		return page
	}
	if len(page) > maxHTML {
		md += truncatedNote
	}
	return md
}

// pageText is the text of a downloaded body: HTML converted to markdown,
// any other text as it is. ok is false for a body that is not text.
func pageText(contentType string, body []byte) (text string, ok bool) {
	kind := mediaType(contentType, body)
	switch {
	case kind == "text/html" || kind == "application/xhtml+xml":
		return toMarkdown(strings.ToValidUTF8(string(body), "\uFFFD")), true
	case textual(kind):
		return strings.ToValidUTF8(string(body), "\uFFFD"), true
	}
	return "", false
}

// mediaType is the body's media type from its Content-Type, sniffed from
// the body when the server sent none.
func mediaType(contentType string, body []byte) string {
	if contentType == "" {
		contentType = http.DetectContentType(body)
	}
	kind, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(contentType, ";")[0]))
	}
	return kind
}

// textual reports whether a media type is text a model can read.
func textual(kind string) bool {
	switch {
	case strings.HasPrefix(kind, "text/"), strings.HasSuffix(kind, "+json"), strings.HasSuffix(kind, "+xml"):
		return true
	}
	switch kind {
	case "application/json", "application/xml", "application/javascript", "application/ecmascript",
		"application/x-javascript", "application/x-ndjson", "application/yaml", "application/x-yaml",
		"application/toml", "application/x-sh", "application/sql", "application/graphql":
		return true
	}
	return false
}
