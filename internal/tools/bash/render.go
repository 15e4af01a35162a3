package bash

import (
	"fmt"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// How the UI draws a Bash call: the command as the title, the last output
// line and the elapsed time while it runs, the start of the output when done.

// renderUse shows the command on one line.
func renderUse(in Input) string {
	cmd := strings.Join(strings.Fields(strings.ReplaceAll(in.Command, "\n", " ; ")), " ")
	if in.RunInBackground {
		cmd += " &"
	}
	return cmd
}

func renderProgress(_ Input, ev tool.ProgressEvent, elapsed time.Duration, o tool.RenderOptions) tool.Text {
	status := "Running… " + render.Elapsed(elapsed)
	if p, ok := ev.Data.(Progress); ok && p.OutputBytes > 0 {
		status += " · " + byteCount(p.OutputBytes) + " of output"
	}
	tail := ev.Message
	if p, ok := ev.Data.(Progress); ok && p.Tail != "" {
		tail = p.Tail
	}
	var t tool.Text
	if strings.TrimSpace(tail) != "" {
		t = render.Styled(strings.ReplaceAll(tail, "\t", "    "), tool.StylePlain)
	}
	t = append(t, tool.Line{{Text: status, Style: tool.StyleDim}})
	return render.ClipLines(t, o.Width)
}

func renderResult(_ Input, out Output, o tool.RenderOptions) tool.Text {
	if out.TaskID != "" {
		return render.ClipLines(render.Styled(fmt.Sprintf("Running in the background (task %s)", out.TaskID), tool.StyleDim), o.Width)
	}
	t := render.GenericResult(out.Text, o)
	if out.CwdReset {
		t = append(t, tool.Line{{Text: "The working directory went back to the project root", Style: tool.StyleWarning}})
	}
	return render.ClipLines(t, o.Width)
}

func byteCount(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
