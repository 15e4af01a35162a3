package agent

import (
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestIsCompactSummary(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{compactedText("The user asked for a build.", CarriedState{OriginalTask: "build it"}), true},
		{"This session is being continued from a previous conversation that ran out of context. The summary below covers it.", true},
		{"build it", false},
		{"Please summarise: " + compactedPrefix, false},
	}
	for _, tt := range tests {
		if got := IsCompactSummary(tt.text); got != tt.want {
			t.Errorf("IsCompactSummary(%.60q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestCompactedTextPlacesTheSessionsSectionsAroundTheFilesEdited(t *testing.T) {
	state := CarriedState{
		OriginalTask: "task", LatestRequest: "next", FilesEdited: []string{"/p/a.go"}, Memory: "memo",
		// As Session.Carried gives them: by tag.
		Sections: []tool.Section{
			{Tag: "background-tasks", Lines: []string{"- b1 (running since 10:00:00) sleep"}},
			{Tag: "files-read", Lines: []string{"/p/b.go", "/p/c.go"}},
			{Tag: "plan", Lines: []string{"step one"}},
			{Tag: "todo-list", Lines: []string{"1. [pending] Test"}},
			{Tag: "empty"},
		},
	}
	var tags []string
	for _, line := range strings.Split(compactedText("sum", state), "\n") {
		if strings.HasPrefix(line, "<") && !strings.HasPrefix(line, "</") {
			tags = append(tags, line)
		}
	}
	want := []string{"<summary>", "<original-task>", "<latest-user-request>", "<todo-list>", "<files-edited>",
		"<files-read>", "<background-tasks>", "<plan>", "<memory>"}
	if !slices.Equal(tags, want) {
		t.Errorf("sections %v, want %v", tags, want)
	}
	if !strings.Contains(compactedText("sum", state), "\n<files-read>\n/p/b.go\n/p/c.go\n</files-read>\n") {
		t.Error("a section's lines are not one a line")
	}
}
