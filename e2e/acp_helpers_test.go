package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
)

// acpScenario is what the ACP test editor (testdata/acp/client.mjs) runs.
type acpScenario struct {
	Binary            string            `json:"binary"`
	Args              []string          `json:"args,omitempty"`
	Cwd               string            `json:"cwd"`
	ClientFs          bool              `json:"clientFs,omitempty"`
	Buffers           map[string]string `json:"buffers,omitempty"`
	PermissionAnswers []string          `json:"permissionAnswers,omitempty"`
	SessionID         string            `json:"sessionId,omitempty"`
	Steps             []acpStep         `json:"steps"`
}

// acpStep is one request of a scenario: new, load, setMode or prompt.
type acpStep struct {
	Op         string           `json:"op"`
	Text       string           `json:"text,omitempty"`
	Mode       string           `json:"mode,omitempty"`
	SessionID  string           `json:"sessionId,omitempty"`
	MCPServers []map[string]any `json:"mcpServers,omitempty"`
	// CancelWhenFile sends session/cancel once this file exists.
	CancelWhenFile string `json:"cancelWhenFile,omitempty"`
}

// acpResult is what the test editor saw.
type acpResult struct {
	Initialize struct {
		ProtocolVersion   int `json:"protocolVersion"`
		AgentCapabilities struct {
			LoadSession bool `json:"loadSession"`
		} `json:"agentCapabilities"`
		AgentInfo struct {
			Name string `json:"name"`
		} `json:"agentInfo"`
	} `json:"initialize"`
	Steps []struct {
		Op       string `json:"op"`
		Response struct {
			SessionID  string `json:"sessionId"`
			StopReason string `json:"stopReason"`
			Modes      struct {
				CurrentModeID  string `json:"currentModeId"`
				AvailableModes []struct {
					ID string `json:"id"`
				} `json:"availableModes"`
			} `json:"modes"`
		} `json:"response"`
		Error       string      `json:"error"`
		Updates     []acpUpdate `json:"updates"`
		SessionIDs  []string    `json:"sessionIds"`
		CancelledAt int64       `json:"cancelledAt"`
		RespondedAt int64       `json:"respondedAt"`
	} `json:"steps"`
	SessionID   string `json:"sessionId"`
	Error       string `json:"error"`
	Exit        any    `json:"exit"`
	Permissions []struct {
		ToolCall acpUpdate `json:"toolCall"`
		Options  []struct {
			OptionID string `json:"optionId"`
			Kind     string `json:"kind"`
			Name     string `json:"name"`
		} `json:"options"`
	} `json:"permissions"`
	Reads  []string `json:"reads"`
	Writes []struct {
		Path, Content string
	} `json:"writes"`
	BadLines []string `json:"badLines"`
	Stderr   string   `json:"stderr"`
}

// acpUpdate is a session/update's update, or a permission request's call.
type acpUpdate struct {
	SessionUpdate string          `json:"sessionUpdate"`
	Content       json.RawMessage `json:"content"`
	ToolCallID    string          `json:"toolCallId"`
	Status        string          `json:"status"`
	Kind          string          `json:"kind"`
	Title         string          `json:"title"`
	Locations     []struct {
		Path string `json:"path"`
		Line *int   `json:"line"`
	} `json:"locations"`
	Entries []struct {
		Content string `json:"content"`
		Status  string `json:"status"`
	} `json:"entries"`
}

// text is the text of a message chunk.
func (u acpUpdate) text() string {
	var c struct{ Text string }
	json.Unmarshal(u.Content, &c)
	return c.Text
}

// toolContent is the content of a tool call: diffs and text blocks.
type toolContent struct {
	Type    string  `json:"type"`
	Path    string  `json:"path"`
	OldText *string `json:"oldText"`
	NewText string  `json:"newText"`
	Content struct {
		Text string `json:"text"`
	} `json:"content"`
}

func (u acpUpdate) toolContent() []toolContent {
	var c []toolContent
	json.Unmarshal(u.Content, &c)
	return c
}

// chunks joins the text of a step's updates of one kind.
func chunks(updates []acpUpdate, kind string) string {
	var b strings.Builder
	for _, u := range updates {
		if u.SessionUpdate == kind {
			b.WriteString(u.text())
		}
	}
	return b.String()
}

// callUpdates are the updates of one tool call, in order.
func callUpdates(updates []acpUpdate, id string) []acpUpdate {
	var out []acpUpdate
	for _, u := range updates {
		if u.ToolCallID == id {
			out = append(out, u)
		}
	}
	return out
}

// acpSDK is the entry of the official ACP client library, installed by
// .ci/run beside the MCP test servers.
func acpSDK(t *testing.T) (node, entry string) {
	t.Helper()
	s := mcptest.Find(t)
	modules := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(s.Everything))))
	entry = filepath.Join(modules, "@agentclientprotocol", "sdk", "dist", "v1", "stable", "acp.js")
	if _, err := os.Stat(entry); err != nil {
		t.Skipf("the ACP client library is not installed (%v); run .ci/run, which installs it", err)
	}
	return s.Node, entry
}

// runACP runs a scenario through the test editor against the run's binary
// and environment, and checks what every scenario must show: the editor
// connected, the agent ended when stdin closed, and stdout carried nothing
// but JSON-RPC messages.
func (r *run) runACP(sc acpScenario) acpResult {
	r.t.Helper()
	node, entry := acpSDK(r.t)
	sc.Binary = binary
	if sc.Cwd == "" {
		sc.Cwd = r.dir
	}
	raw, err := json.Marshal(sc)
	if err != nil {
		r.t.Fatal(err)
	}
	path := filepath.Join(r.t.TempDir(), "scenario.json")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "testdata/acp/client.mjs", entry, path)
	cmd.Env = r.env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("test editor: %v\n%s%s", err, out, stderr.String())
	}
	var res acpResult
	if err := json.Unmarshal(out, &res); err != nil {
		r.t.Fatalf("test editor output: %v\n%s", err, out)
	}
	if res.Error != "" {
		r.t.Fatalf("test editor: %s\nstderr: %s", res.Error, res.Stderr)
	}
	if len(res.BadLines) > 0 {
		r.t.Errorf("stdout carried lines that are not JSON-RPC messages: %q", res.BadLines)
	}
	if code, ok := res.Exit.(float64); !ok || code != 0 {
		r.t.Errorf("mini-claude acp exited %v once stdin closed, want 0; stderr: %s", res.Exit, res.Stderr)
	}
	for i, s := range res.Steps {
		if s.Error != "" {
			r.t.Errorf("step %d (%s) failed: %s\nstderr: %s", i, s.Op, s.Error, res.Stderr)
		}
	}
	return res
}

// acpFile writes content to name in the run's folder and returns its path.
func (r *run) acpFile(name, content string) string {
	r.t.Helper()
	path := filepath.Join(r.dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
	return path
}

// readTurn is a model turn reading path, as call id "read".
func readTurn(t *testing.T, path string) llmtest.Turn {
	return calls(llmtest.ToolUse("read", "Read", toolInput(t, map[string]any{"file_path": path})))
}

// editTurn is a model turn editing path, as call id, from old to new.
func editTurn(t *testing.T, id, path, old, new string) llmtest.Turn {
	return calls(llmtest.ToolUse(id, "Edit", toolInput(t, map[string]any{"file_path": path, "old_string": old, "new_string": new})))
}
