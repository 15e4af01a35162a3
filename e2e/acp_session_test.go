package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
)

// TestACPCancelStopsASlowBash: session/cancel during a long Bash call ends
// the prompt with stopReason cancelled at once and kills the command.
func TestACPCancelStopsASlowBash(t *testing.T) {
	r := newRun(t)
	pidFile := filepath.Join(r.dir, "sleep.pid")
	command := "sh -c 'echo $$ > " + pidFile + "; exec sleep 60'"
	r.srv.Push(calls(llmtest.ToolUse("bash", "Bash", toolInput(t, map[string]any{"command": command}))), text("never sent"))
	res := r.runACP(acpScenario{Args: []string{"--permission-mode", "bypassPermissions"},
		Steps: []acpStep{{Op: "new"}, {Op: "prompt", Text: "wait a minute", CancelWhenFile: pidFile}}})
	prompt := res.Steps[1]
	if prompt.Response.StopReason != "cancelled" {
		t.Errorf("stop reason %q, want cancelled; updates %+v", prompt.Response.StopReason, prompt.Updates)
	}
	if took := time.Duration(prompt.RespondedAt-prompt.CancelledAt) * time.Millisecond; took > 5*time.Second {
		t.Errorf("the prompt answered %v after the cancel", took)
	}
	if bash := callUpdates(prompt.Updates, "bash"); len(bash) == 0 || bash[len(bash)-1].Status != "failed" {
		t.Errorf("the Bash call's updates %+v, want it to end failed", bash)
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if !processGone(pid, 5*time.Second) {
		stat, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the command (pid %d) still runs 5s after the cancel: %s", pid, stat)
	}
	if n := len(r.srv.Requests()); n != 1 {
		t.Errorf("%d model requests, want 1: a cancelled prompt asks nothing more", n)
	}
}

// TestACPLoadReplaysTheConversation: session/load of a saved session sends
// its conversation as updates (the prompt, the tool call and how it ended,
// the answer) and goes on with its history.
func TestACPLoadReplaysTheConversation(t *testing.T) {
	r := newRun(t)
	path := r.acpFile("hello.txt", "hi there\n")
	r.srv.Push(
		readTurn(t, path),
		text("It says hi."),
	)
	first := r.runACP(acpScenario{Steps: []acpStep{{Op: "new"}, {Op: "prompt", Text: "what does hello.txt say?"}}})
	id := first.SessionID
	r.srv.Push(text("Still hi."))
	second := r.runACP(acpScenario{Steps: []acpStep{{Op: "load", SessionID: id}, {Op: "prompt", Text: "and now?"}}})
	load := second.Steps[0]
	if got := chunks(load.Updates, "user_message_chunk"); !strings.Contains(got, "what does hello.txt say?") {
		t.Errorf("replayed user text %q", got)
	}
	if got := chunks(load.Updates, "agent_message_chunk"); got != "It says hi." {
		t.Errorf("replayed agent text %q", got)
	}
	read := callUpdates(load.Updates, "read")
	if len(read) != 2 || read[0].SessionUpdate != "tool_call" || read[0].Kind != "read" || read[1].Status != "completed" {
		t.Errorf("replayed Read %+v", read)
	}
	if len(load.SessionIDs) != 1 || load.SessionIDs[0] != id {
		t.Errorf("replayed updates name %q, want %q", load.SessionIDs, id)
	}
	if second.Steps[1].Response.StopReason != "end_turn" || chunks(second.Steps[1].Updates, "agent_message_chunk") != "Still hi." {
		t.Errorf("prompt after load: %+v", second.Steps[1])
	}
	reqs := r.srv.Requests()
	last := reqs[len(reqs)-1]
	if len(last.Messages) != 5 || last.Messages[0].Role != llm.RoleUser {
		t.Errorf("the loaded session's request has %d messages, want the 4 saved and the new prompt", len(last.Messages))
	}
}

// TestACPUsesTheEditorsMCPServers: a stdio MCP server given in session/new
// starts for the session and its tools reach the model.
func TestACPUsesTheEditorsMCPServers(t *testing.T) {
	servers := mcptest.Find(t)
	r := newRun(t)
	r.setenv("MINI_CLAUDE_MCP_WAIT_MS=30000")
	r.srv.Push(calls(llmtest.ToolUse("echo", "mcp__everything__echo", `{"message":"ping"}`)), text("echoed"))
	res := r.runACP(acpScenario{Args: []string{"--allowedTools", "mcp__everything"}, Steps: []acpStep{
		{Op: "new", MCPServers: []map[string]any{{"name": "everything", "command": servers.Node, "args": []string{servers.Everything}, "env": []any{}}}},
		{Op: "prompt", Text: "echo ping"}}})
	if !hasTool(r.srv.Requests()[0], "mcp__everything__echo") {
		t.Errorf("the first request did not offer the editor's server's echo tool")
	}
	echo := callUpdates(res.Steps[1].Updates, "echo")
	if len(echo) == 0 || echo[len(echo)-1].Status != "completed" {
		t.Fatalf("echo call's updates %+v", echo)
	}
	if got := contentText(lastResults(t, r.srv, 1)[0]); !strings.Contains(got, "Echo: ping") {
		t.Errorf("the model got %q", got)
	}
}

// processGone waits up to d for the process to be gone: not running, and
// reaped by its parent.
func processGone(pid int, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return true
		}
	}
	return false
}

// hasTool reports whether the request offered the named tool.
func hasTool(req llmtest.Request, name string) bool {
	for _, tl := range req.Tools {
		if tl.Name == name {
			return true
		}
	}
	return false
}
