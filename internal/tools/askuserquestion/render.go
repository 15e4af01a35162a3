package askuserquestion

import (
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

func toBlocks(out Output) []llm.ContentBlock {
	return []llm.ContentBlock{llm.TextBlock(Text(out))}
}

func renderUse(in Input) string {
	headers := make([]string, 0, len(in.Questions))
	for _, q := range in.Questions {
		headers = append(headers, q.Header)
	}
	return strings.Join(headers, ", ")
}

// renderResult lists each question with its answer, as Claude Code shows them.
func renderResult(_ Input, out Output, _ tool.RenderOptions) tool.Text {
	text := tool.Text{{{Text: "Answered the questions:", Style: tool.StyleBold}}}
	for _, q := range out.Questions {
		a, ok := out.Answers[q.Question]
		if !ok {
			a = "(no answer)"
		}
		text = append(text, tool.Line{{Text: "· " + q.Question + " → "}, {Text: a, Style: tool.StyleBold}})
	}
	return text
}
