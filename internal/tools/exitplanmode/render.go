package exitplanmode

import (
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Text is Claude Code's result text for an approved plan.
func Text(out Output) string {
	if strings.TrimSpace(out.Plan) == "" {
		return "User has approved exiting plan mode. You can now proceed."
	}
	heading := "Approved Plan"
	if out.PlanWasEdited {
		heading = "Approved Plan (edited by user)"
	}
	saved := ""
	if out.FilePath != "" {
		saved = "\n\nYour plan has been saved to: " + out.FilePath + "\nYou can refer back to it if needed during implementation."
	}
	return "User has approved your plan. You can now start coding. Start with updating your todo list if applicable" + saved +
		"\n\n## " + heading + ":\n" + out.Plan
}

// toBlocks is the result text followed by the note that plan mode ended, in
// one text as Claude Code sends them: a blank line between, however the plan ends.
func toBlocks(out Output) []llm.ContentBlock {
	text := Text(out)
	if out.exited != "" {
		text = strings.TrimRight(text, "\n") + "\n\n" + out.exited
	}
	return []llm.ContentBlock{llm.TextBlock(text)}
}

func renderResult(_ Input, out Output, o tool.RenderOptions) tool.Text {
	text := tool.Text{{{Text: "Approved the plan", Style: tool.StyleBold}}}
	if out.FilePath != "" {
		text = append(text, tool.Line{{Text: "Plan saved to: " + out.FilePath, Style: tool.StyleDim}})
	}
	for line := range strings.SplitSeq(strings.TrimRight(out.Plan, "\n"), "\n") {
		text = append(text, tool.Line{{Text: line}})
	}
	if !o.Full && len(text) > 12 {
		text = append(text[:12], tool.Line{{Text: "…", Style: tool.StyleDim}})
	}
	return text
}

func renderRejected(Input, tool.RenderOptions) tool.Text {
	return tool.Text{{{Text: "Rejected the plan: keep planning", Style: tool.StyleWarning}}}
}
