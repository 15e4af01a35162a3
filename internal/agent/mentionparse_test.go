package agent

import (
	"slices"
	"testing"
)

func TestMentionTokensFindsQuotedMentionsFirst(t *testing.T) {
	tests := []struct {
		prompt string
		want   []mentionToken
	}{
		{"look at @notes.txt please", []mentionToken{{text: "notes.txt"}}},
		{"@a.go#L2-4, then @b.go", []mentionToken{{text: "a.go#L2-4,"}, {text: "b.go"}}},
		{`compare @a.go and @"my file.txt"`, []mentionToken{{text: "my file.txt", quoted: true}, {text: "a.go"}}},
		{`@"my file.txt#L2"x`, []mentionToken{{text: "my file.txt#L2", quoted: true}}},
		{"@a.go\n@a.go\t@a.go#L1", []mentionToken{{text: "a.go"}, {text: "a.go#L1"}}},
		{`mail me@notes.txt or @"unterminated`, nil},
		{"a lone @ sign", nil},
	}
	for _, tt := range tests {
		if got := mentionTokens(tt.prompt); !slices.Equal(got, tt.want) {
			t.Errorf("mentionTokens(%q) = %+v, want %+v", tt.prompt, got, tt.want)
		}
	}
}

func TestParseMentionReadsTheLinesOfALineSuffix(t *testing.T) {
	tests := []struct {
		mention       string
		path          string
		offset, limit int
	}{
		{"notes.txt", "notes.txt", 0, 0},
		{"notes.txt#L2-4", "notes.txt", 2, 3},
		{"notes.txt#L3", "notes.txt", 3, 1},
		{"notes.txt#L3-3", "notes.txt", 3, 1},
		{"notes.txt#L5-100", "notes.txt", 5, 96},
		{"notes.txt#L2-4#frag", "notes.txt", 2, 3},
		{"src/a.go#L10-20#L1", "src/a.go", 10, 11},
		// Suffixes that are no line range read the whole file, as Claude Code does.
		{"notes.txt#Lfoo", "notes.txt", 0, 0},
		{"notes.txt#L", "notes.txt", 0, 0},
		{"notes.txt#l2-3", "notes.txt", 0, 0},
		{"notes.txt#L2x", "notes.txt", 0, 0},
		{"notes.txt#L2-4,", "notes.txt", 0, 0},
		{"notes.txt#L2-3-5", "notes.txt", 0, 0},
		{"notes.txt#frag", "notes.txt", 0, 0},
		// Ranges that read nothing ask for the whole file, as the call Claude Code shows says.
		{"notes.txt#L4-2", "notes.txt", 0, 0},
		{"notes.txt#L0", "notes.txt", 0, 0},
		{"notes.txt#L0-2", "notes.txt", 0, 0},
		{"notes.txt#L99999999999999999999", "notes.txt", 0, 0},
		// The path ends at the first #.
		{"a#b.txt", "a", 0, 0},
		{"notes.txt#a#b", "notes.txt#a#b", 0, 0},
	}
	for _, tt := range tests {
		path, offset, limit := parseMention(tt.mention)
		if path != tt.path || offset != tt.offset || limit != tt.limit {
			t.Errorf("parseMention(%q) = %q, %d, %d, want %q, %d, %d", tt.mention, path, offset, limit, tt.path, tt.offset, tt.limit)
		}
	}
}
