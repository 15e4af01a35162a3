package llm

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestContentBlockJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		block ContentBlock
		want  string
	}{
		{"text keeps html characters", TextBlock("a < b && c > d"), `{"type":"text","text":"a < b && c > d"}`},
		{"empty text keeps its field", TextBlock(""), `{"type":"text","text":""}`},
		{"thinking with signature", ContentBlock{Type: BlockThinking, Thinking: "hmm", Signature: "sig"}, `{"type":"thinking","thinking":"hmm","signature":"sig"}`},
		{"redacted thinking", ContentBlock{Type: BlockRedactedThinking, Data: "opaque"}, `{"type":"redacted_thinking","data":"opaque"}`},
		{"tool use", ContentBlock{Type: BlockToolUse, ID: "t1", Name: "Read", Input: json.RawMessage(`{"file_path":"a"}`)}, `{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"a"}}`},
		{"tool use without input", ContentBlock{Type: BlockToolUse, ID: "t1", Name: "Ls"}, `{"type":"tool_use","id":"t1","name":"Ls","input":{}}`},
		{"lone text result is a string", ToolResultBlock("t1", []ContentBlock{TextBlock("<ok>")}, false), `{"type":"tool_result","tool_use_id":"t1","content":"<ok>"}`},
		{"error result", ToolResultBlock("t1", []ContentBlock{TextBlock("bad")}, true), `{"type":"tool_result","tool_use_id":"t1","content":"bad","is_error":true}`},
		{"several blocks stay a list", ToolResultBlock("t1", []ContentBlock{TextBlock("a"), TextBlock("b")}, false), `{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`},
		{"server tool use", ContentBlock{Type: BlockServerToolUse, ID: "srvtoolu_1", Name: "web_search", Input: json.RawMessage(`{"query":"go"}`)}, `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"go"}}`},
		{"web search hits", ContentBlock{Type: BlockWebSearchResult, ToolUseID: "srvtoolu_1", SearchResults: []SearchResult{{Title: "Go", URL: "https://go.dev", EncryptedContent: "enc", PageAge: "1 day"}}},
			`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","title":"Go","url":"https://go.dev","encrypted_content":"enc","page_age":"1 day"}]}`},
		{"web search without hits", ContentBlock{Type: BlockWebSearchResult, ToolUseID: "srvtoolu_1", SearchResults: []SearchResult{}}, `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}`},
		{"web search error", ContentBlock{Type: BlockWebSearchResult, ToolUseID: "srvtoolu_1", SearchError: "max_uses_exceeded"},
			`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}}`},
		{"image", ContentBlock{Type: BlockImage, Source: &ImageSource{Type: "base64", MediaType: "image/png", Data: "AAA"}}, `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAA"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := encode(tt.block)
			if err != nil || string(got) != tt.want {
				t.Fatalf("Marshal = %s, %v; want %s", got, err, tt.want)
			}
			var back ContentBlock
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			again, _ := encode(back)
			if string(again) != tt.want {
				t.Errorf("round trip = %s, want %s", again, tt.want)
			}
		})
	}
}

// encode is how the stream-json printer writes: without escaping <, > and &.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

func TestMarshalRefusesUnknownType(t *testing.T) {
	if _, err := json.Marshal(ContentBlock{Type: "video"}); err == nil {
		t.Error("an unknown block type was encoded")
	}
}

func TestPromptTextLeavesOutReminders(t *testing.T) {
	m := Message{Role: RoleUser, Content: []ContentBlock{
		TextBlock("<system-reminder>\nCalled the Read tool with the following input: {}\n</system-reminder>"),
		TextBlock("<system-reminder>\nResult of calling the Read tool:\n1\tx\n</system-reminder>"),
		TextBlock("fix @x.txt"),
	}}
	if got := m.PromptText(); got != "fix @x.txt" {
		t.Errorf("PromptText() = %q, want the prompt alone", got)
	}
	if !IsReminder(m.Content[0]) || IsReminder(m.Content[2]) {
		t.Error("IsReminder does not tell the reminders from the prompt")
	}
}

func TestPromptTextOfACommandIsTheCommandAsTyped(t *testing.T) {
	m := Message{Role: RoleUser, Content: []ContentBlock{
		TextBlock("<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n- review: x\n</system-reminder>"),
		TextBlock("<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/auth.go</command-args>\n"),
		TextBlock("Review src/auth.go for bugs.\n"),
	}}
	if got := m.PromptText(); got != "/review src/auth.go" {
		t.Errorf("PromptText = %q", got)
	}
	m.Content[1] = TextBlock("<command-message>plain</command-message>\n<command-name>/plain</command-name>\n")
	if got := m.PromptText(); got != "/plain" {
		t.Errorf("PromptText without arguments = %q", got)
	}
}
