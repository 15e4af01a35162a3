package agent

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// turnPair returns an assistant message calling tool with id, and the user
// message answering it with text.
func turnPair(id, tool, text string, isError bool) []llm.Message {
	return []llm.Message{
		{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockToolUse, ID: id, Name: tool, Input: []byte(`{}`)}}},
		{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock(text)}, isError)}},
	}
}

func history(results ...string) []llm.Message {
	msgs := []llm.Message{llm.UserText("task")}
	for i, r := range results {
		msgs = append(msgs, turnPair(fmt.Sprintf("t%d", i), "Bash", r, false)...)
	}
	return msgs
}

func resultTexts(msgs []llm.Message) []string {
	var texts []string
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult {
				texts = append(texts, b.Content[0].Text)
			}
		}
	}
	return texts
}

func TestClearResults(t *testing.T) {
	big, small := strings.Repeat("b", 50), "s"
	placeholder := clearedPlaceholder("Bash", 50)
	tests := []struct {
		name    string
		results []string
		keep    int
		want    []string
	}{
		{"no more turns than kept", []string{big, big}, 2, []string{big, big}},
		{"old big results cleared, recent kept", []string{big, big, big, big}, 2, []string{placeholder, placeholder, big, big}},
		{"small results kept", []string{small, big, small, big}, 1, []string{small, placeholder, small, big}},
		{"keep none", []string{big, big}, 0, []string{placeholder, placeholder}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := history(tt.results...)
			out, cleared := clearResults(msgs, tt.keep, 10)
			if got := resultTexts(out); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("results %q, want %q", got, tt.want)
			}
			wantCleared := 0
			for _, w := range tt.want {
				if w == placeholder {
					wantCleared++
				}
			}
			if len(cleared) != wantCleared {
				t.Errorf("%d reported cleared, want %d", len(cleared), wantCleared)
			}
			if got := resultTexts(msgs); !reflect.DeepEqual(got, tt.results) {
				t.Errorf("the input history changed: %q", got)
			}
			if len(out) != len(msgs) {
				t.Errorf("%d messages, want %d", len(out), len(msgs))
			}
			for i := range out {
				if out[i].Role != msgs[i].Role {
					t.Errorf("message %d role %s, want %s", i, out[i].Role, msgs[i].Role)
				}
			}
		})
	}
}

func TestClearResultsKeepsPairingErrorsAndOtherBlocks(t *testing.T) {
	big := strings.Repeat("e", 40)
	msgs := []llm.Message{llm.UserText("task")}
	msgs = append(msgs, turnPair("bad", "Read", big, true)...)
	msgs[len(msgs)-1].Content = append(msgs[len(msgs)-1].Content, llm.TextBlock("<system-reminder>\nnotice\n</system-reminder>"))
	msgs = append(msgs, turnPair("img", "Read", "", false)...)
	msgs[len(msgs)-1].Content[0].Content = []llm.ContentBlock{{Type: llm.BlockImage, Source: &llm.ImageSource{Type: "base64", MediaType: "image/png", Data: "AAAA"}}}
	msgs = append(msgs, turnPair("last", "Read", big, false)...)
	out, cleared := clearResults(msgs, 1, 10)
	if len(cleared) != 2 {
		t.Fatalf("%d cleared, want the error result and the image", len(cleared))
	}
	first := out[2].Content
	if len(first) != 2 || first[0].ToolUseID != "bad" || !first[0].IsError || !strings.Contains(first[0].Content[0].Text, "40 characters of Read output") {
		t.Errorf("error result became %+v", first)
	}
	if first[1].Text != "<system-reminder>\nnotice\n</system-reminder>" {
		t.Errorf("the text block after the result became %+v", first[1])
	}
	if img := out[4].Content[0]; img.ToolUseID != "img" || img.Content[0].Type != llm.BlockText {
		t.Errorf("image result became %+v", img)
	}
	if got := out[6].Content[0].Content[0].Text; got != big {
		t.Errorf("the last result was changed to %q", got)
	}
}

func TestEstimateTokens(t *testing.T) {
	msgs := history(strings.Repeat("x", 4000))
	if got := estimateTokens(msgs); got < 1000 || got > 1010 {
		t.Errorf("estimate %d, want about 1000", got)
	}
	image := []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{{Type: llm.BlockImage, Source: &llm.ImageSource{Data: strings.Repeat("A", 1_000_000)}}}}}
	if got := estimateTokens(image); got != imageTokens {
		t.Errorf("image estimate %d, want %d whatever its encoded size", got, imageTokens)
	}
}

func TestFirstPromptSurvivesCompactions(t *testing.T) {
	state := CarriedState{OriginalTask: "Fix the\nparser", LatestRequest: "and the lexer"}
	once := []llm.Message{llm.UserText(compactedText("summary one", state))}
	if got := firstPrompt(once); got != "Fix the\nparser" {
		t.Errorf("firstPrompt after one compaction = %q", got)
	}
	if got := firstPrompt(history("x")); got != "task" {
		t.Errorf("firstPrompt of a plain history = %q", got)
	}
	same := compactedText("s", CarriedState{OriginalTask: "t", LatestRequest: "t"})
	if !strings.Contains(same, "<latest-user-request>\n(the original task above)\n</latest-user-request>") {
		t.Errorf("a latest request equal to the task is repeated:\n%s", same)
	}
}

func TestFirstPromptIsNotAMentionsReadCall(t *testing.T) {
	read := []llm.ContentBlock{
		llm.TextBlock("<system-reminder>\nCalled the Read tool with the following input: {}\n</system-reminder>"),
		llm.TextBlock("<system-reminder>\nResult of calling the Read tool:\n1\tx\n</system-reminder>"),
	}
	msgs := withAttachments(llm.UserText("fix @a.go"), []Attachment{{Path: "/a.go", Blocks: read}})
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want the call alone, then the result and the prompt", len(msgs))
	}
	if got := firstPrompt(msgs); got != "fix @a.go" {
		t.Errorf("firstPrompt = %q, want the prompt", got)
	}
}

func TestEditedFilesSkipsFailedCalls(t *testing.T) {
	msgs := []llm.Message{llm.UserText("task")}
	add := func(id, name, input string, isError bool) {
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockToolUse, ID: id, Name: name, Input: []byte(input)}}},
			llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.ToolResultBlock(id, nil, isError)}})
	}
	add("1", "Write", `{"file_path":"/a.go","content":""}`, false)
	add("2", "Edit", `{"file_path":"/b.go"}`, true)
	add("3", "NotebookEdit", `{"notebook_path":"/c.ipynb"}`, false)
	add("4", "Read", `{"file_path":"/d.go"}`, false)
	add("5", "Edit", `{"file_path":"rel.go"}`, false)
	if got, want := editedFiles(msgs), []string{"/a.go", "/c.ipynb", "rel.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("editedFiles = %q, want %q", got, want)
	}
}
