package tui

import (
	"strings"
	"testing"
)

func TestWarningShowsAsAnErrorLine(t *testing.T) {
	m := testModel(t, Options{})
	warning := `MCP server "fs" failed: the server exited (signal: killed) during the session; its tools are no longer available`
	m.Update(noticeMsg{text: warning, warning: true})
	m.Update(noticeMsg{text: "Some information."})
	shot := screenOf(m)
	if !strings.Contains(strings.Join(strings.Fields(shot), " "), warning+" Some information.") {
		t.Fatalf("the warning and the notice are not shown in turn:\n%s", shot)
	}
	kinds := []blockKind{m.conv.blocks[0].kind, m.conv.blocks[1].kind}
	if kinds[0] != blockError || kinds[1] != blockInfo {
		t.Errorf("blocks of kinds %v, want an error line, then information", kinds)
	}
}
