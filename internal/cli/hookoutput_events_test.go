package cli

import (
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
)

func TestPrinterReportsTheLaterEventsAsRecorded(t *testing.T) {
	cmd := `echo '{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}'`
	stdout := `{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}` + "\n"
	sameLines(t, printed(true, hookRun("PermissionRequest:Bash", hooks.PermissionRequest, cmd, stdout, "", 0)...),
		recorded(t, "permission_request_allow", "stream_hook_events.jsonl", "hook_started", "hook_response"))
	denied := agent.PermissionDenied{Denial: agent.Denial{ToolName: "Bash", ToolUseID: "toolu_llmtest_1_0"}, Message: "Denied by PermissionRequest hook",
		ByHook: true, Asked: true}
	sameLines(t, printed(false, denied), recorded(t, "permission_request_deny", "stream.jsonl", "permission_denied"))
	// PostCompact's, StopFailure's and InstructionsLoaded's runs are never reported.
	for _, event := range []string{hooks.PostCompact, hooks.StopFailure, hooks.InstructionsLoaded} {
		sameLines(t, printed(true, hookRun(event, event, "true", "", "", 0)...), nil)
	}
}
