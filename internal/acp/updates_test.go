package acp

import (
	"encoding/json"
	"reflect"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

func TestDescribeGivesEachToolItsKindTitleAndFiles(t *testing.T) {
	line := 10
	tests := []struct {
		name, tool, input string
		title             string
		kind              sdk.ToolKind
		locations         []sdk.ToolCallLocation
	}{
		{"read", "Read", `{"file_path":"/p/a.go"}`, "Read /p/a.go", sdk.ToolKindRead, []sdk.ToolCallLocation{{Path: "/p/a.go"}}},
		{"read from a line", "Read", `{"file_path":"/p/a.go","offset":10}`, "Read /p/a.go (from line 10)", sdk.ToolKindRead, []sdk.ToolCallLocation{{Path: "/p/a.go", Line: &line}}},
		{"edit", "Edit", `{"file_path":"/p/a.go","old_string":"a","new_string":"b"}`, "Edit /p/a.go", sdk.ToolKindEdit, []sdk.ToolCallLocation{{Path: "/p/a.go"}}},
		{"write", "Write", `{"file_path":"/p/n.go","content":"x"}`, "Write /p/n.go", sdk.ToolKindEdit, []sdk.ToolCallLocation{{Path: "/p/n.go"}}},
		{"bash", "Bash", `{"command":"go test ./..."}`, "`go test ./...`", sdk.ToolKindExecute, nil},
		{"grep in a folder", "Grep", `{"pattern":"TODO","path":"/p"}`, "Search `TODO`", sdk.ToolKindSearch, []sdk.ToolCallLocation{{Path: "/p"}}},
		{"glob", "Glob", `{"pattern":"**/*.go"}`, "Find `**/*.go`", sdk.ToolKindSearch, nil},
		{"fetch", "WebFetch", `{"url":"https://example.com"}`, "Fetch https://example.com", sdk.ToolKindFetch, nil},
		{"todo", "TodoWrite", `{"todos":[]}`, "Update the plan", sdk.ToolKindThink, nil},
		{"mcp tool", "mcp__everything__echo", `{"message":"hi"}`, "mcp__everything__echo", sdk.ToolKindOther, nil},
		{"input that is not JSON", "Read", `{"file_pa`, "Read ", sdk.ToolKindRead, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := describe(tt.tool, json.RawMessage(tt.input))
			if got.title != tt.title || got.kind != tt.kind || !reflect.DeepEqual(got.locations, tt.locations) {
				t.Errorf("describe = %q %q %+v, want %q %q %+v", got.title, got.kind, got.locations, tt.title, tt.kind, tt.locations)
			}
		})
	}
}

func TestDescribeGivesAnEditItsDiff(t *testing.T) {
	info := describe("Edit", json.RawMessage(`{"file_path":"/p/a.go","old_string":"helo","new_string":"hello"}`))
	if len(info.content) != 1 || info.content[0].Diff == nil {
		t.Fatalf("content %+v, want one diff", info.content)
	}
	d := info.content[0].Diff
	if d.Path != "/p/a.go" || d.OldText == nil || *d.OldText != "helo" || d.NewText != "hello" {
		t.Errorf("diff %+v", d)
	}
	write := describe("Write", json.RawMessage(`{"file_path":"/p/n.go","content":"package n\n"}`))
	if d := write.content[0].Diff; d == nil || d.OldText != nil || d.NewText != "package n\n" {
		t.Errorf("a Write's diff %+v, want a new file's", d)
	}
}

func TestPlanEntriesReadATodoWriteList(t *testing.T) {
	tests := []struct {
		name, tool, input string
		want              []sdk.PlanEntry
		ok                bool
	}{
		{"a list", "TodoWrite", `{"todos":[{"content":"a","status":"completed","activeForm":"A"},{"content":"b","status":"in_progress","activeForm":"B"}]}`,
			[]sdk.PlanEntry{{Content: "a", Status: sdk.PlanEntryStatusCompleted, Priority: sdk.PlanEntryPriorityMedium},
				{Content: "b", Status: sdk.PlanEntryStatusInProgress, Priority: sdk.PlanEntryPriorityMedium}}, true},
		{"an unknown status is pending", "TodoWrite", `{"todos":[{"content":"a","status":"blocked"}]}`,
			[]sdk.PlanEntry{{Content: "a", Status: sdk.PlanEntryStatusPending, Priority: sdk.PlanEntryPriorityMedium}}, true},
		{"an empty list clears the plan", "TodoWrite", `{"todos":[]}`, []sdk.PlanEntry{}, true},
		{"another tool", "Read", `{"file_path":"/a"}`, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := planEntries(tt.tool, json.RawMessage(tt.input))
			if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("planEntries = %+v %v, want %+v %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestPromptTextJoinsTheEditorsContent(t *testing.T) {
	text := func(s string) sdk.ContentBlock { return sdk.TextBlock(s) }
	tests := []struct {
		name   string
		blocks []sdk.ContentBlock
		want   string
	}{
		{"text", []sdk.ContentBlock{text("fix "), text("the bug")}, "fix the bug"},
		{"a linked file becomes a mention", []sdk.ContentBlock{text("explain"), sdk.ResourceLinkBlock("main.go", "file:///p/main.go")}, "explain @/p/main.go "},
		{"another link keeps its URI", []sdk.ContentBlock{sdk.ResourceLinkBlock("doc", "https://example.com/doc")}, "https://example.com/doc"},
		{"an embedded resource is given in a context tag", []sdk.ContentBlock{text("see"),
			sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file:///p/a.go", Text: "package a"}})},
			"see\n<context ref=\"file:///p/a.go\">\npackage a\n</context>\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := promptText(tt.blocks); got != tt.want {
				t.Errorf("promptText = %q, want %q", got, tt.want)
			}
		})
	}
}
