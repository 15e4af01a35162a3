package write

import (
	"strings"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// How the UI draws a Write call: the path as the title, then the content
// written as added lines, condensed unless expanded. The file's former
// content is not in the output, so a rewrite shows the new content whole.

func renderUse(in Input) string { return in.FilePath }

func renderContent(verb string, in Input, o tool.RenderOptions) tool.Text {
	content := in.Content
	if content != "" && !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	n := strings.Count(content, "\n")
	head := tool.Line{{Text: verb + " " + tool.Count(n, "line"), Style: tool.StyleDim}}
	return append(tool.Text{head}, tool.Diff("", content, 1, o)...)
}

func renderQueued(in Input, o tool.RenderOptions) tool.Text { return renderContent("Write", in, o) }

func renderResult(in Input, _ string, o tool.RenderOptions) tool.Text {
	return renderContent("Wrote", in, o)
}
