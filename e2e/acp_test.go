package e2e

import (
	"testing"
)

// TestACPPromptStreamsTextAndEndsTurn drives `mini-claude acp` with the
// official ACP client library: initialize, a new session, and a prompt whose
// answer arrives as agent_message_chunk updates and ends with end_turn.
func TestACPPromptStreamsTextAndEndsTurn(t *testing.T) {
	r := newRun(t)
	r.srv.Push(text("Hello from the agent."))
	res := r.runACP(acpScenario{Steps: []acpStep{{Op: "new"}, {Op: "prompt", Text: "say hello"}}})
	if res.Initialize.ProtocolVersion != 1 || !res.Initialize.AgentCapabilities.LoadSession || res.Initialize.AgentInfo.Name != "mini-claude" {
		t.Errorf("initialize: %+v", res.Initialize)
	}
	newSession, prompt := res.Steps[0], res.Steps[1]
	if newSession.Response.SessionID == "" || newSession.Response.Modes.CurrentModeID != "default" || len(newSession.Response.Modes.AvailableModes) != 4 {
		t.Errorf("session/new: %+v", newSession.Response)
	}
	if prompt.Response.StopReason != "end_turn" {
		t.Errorf("stop reason %q, want end_turn", prompt.Response.StopReason)
	}
	if got := chunks(prompt.Updates, "agent_message_chunk"); got != "Hello from the agent." {
		t.Errorf("agent message chunks %q", got)
	}
	if len(prompt.SessionIDs) != 1 || prompt.SessionIDs[0] != newSession.Response.SessionID {
		t.Errorf("updates name sessions %q, want %q", prompt.SessionIDs, newSession.Response.SessionID)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 1 || userTexts(reqs[0])[len(userTexts(reqs[0]))-1] != "say hello" {
		t.Errorf("the model got %d requests, want one with the prompt", len(reqs))
	}
}
