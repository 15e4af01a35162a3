package subagent

import (
	"fmt"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// renderUse is the call's task description on one line, as Claude Code titles it.
func renderUse(in Input) string {
	return strings.Join(strings.Fields(in.Description), " ")
}

// renderResult says a foreground agent is done, with its totals, or that the
// agent went to the background.
func renderResult(_ Input, out Output, _ tool.RenderOptions) tool.Text {
	if out.Status == "async_launched" {
		return render.Styled(Backgrounded, tool.StylePlain)
	}
	took := time.Duration(out.TotalDurationMs) * time.Millisecond
	return render.Styled(Summary(out.TotalToolUseCount, out.TotalTokens, took), tool.StylePlain)
}

// Backgrounded is what an Agent call shows once its agent runs in the background.
const Backgrounded = "Backgrounded agent"

// Summary is Claude Code's line for a finished sub-agent, "Done (3 tool uses ·
// 12.3k tokens · 4.5s)"; zero counts and durations under a second are left out.
func Summary(toolUses, tokens int, took time.Duration) string {
	var parts []string
	if toolUses == 1 {
		parts = append(parts, "1 tool use")
	} else if toolUses > 1 {
		parts = append(parts, fmt.Sprintf("%d tool uses", toolUses))
	}
	if tokens > 0 {
		parts = append(parts, compactCount(tokens)+" tokens")
	}
	if took >= time.Second {
		parts = append(parts, duration(took))
	}
	if len(parts) == 0 {
		return "Done"
	}
	return "Done (" + strings.Join(parts, " · ") + ")"
}

// compactCount writes n as 950, 12.3k or 1.2m.
func compactCount(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return strings.Replace(fmt.Sprintf("%.1fk", float64(n)/1000), ".0", "", 1)
	}
	return strings.Replace(fmt.Sprintf("%.1fm", float64(n)/1_000_000), ".0", "", 1)
}

// duration writes d as 12.3s under a minute, else 2m 5s.
func duration(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	s := int(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%dm %ds", s/60, s%60)
}
