package commands

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestListingNamesEachCommandWithItsDescription(t *testing.T) {
	got := Listing([]Command{{Name: "pdf", Description: "Extract text."}, {Name: "review", Description: "Review a file", WhenToUse: "before a commit"}}, 8000)
	want := "<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n- pdf: Extract text.\n- review: Review a file - before a commit\n</system-reminder>"
	if got != want {
		t.Errorf("Listing =\n%q\nwant\n%q", got, want)
	}
	if Listing(nil, 8000) != "" {
		t.Error("an empty set should list nothing")
	}
}

func TestListingOverBudgetKeepsNamesAndDropsLaterDescriptions(t *testing.T) {
	var cmds []Command
	for i := range 5 {
		cmds = append(cmds, Command{Name: fmt.Sprintf("s%d", i), Description: strings.Repeat("d", 20)})
	}
	got := Listing(cmds, 70)
	body := strings.TrimSuffix(strings.SplitN(got, "\n\n", 2)[1], "\n</system-reminder>")
	if n := utf8.RuneCountInString(body); n > 70 {
		t.Errorf("listing body is %d characters, over the budget of 70:\n%s", n, body)
	}
	want := "- s0: dddddddddddddddddddd\n- s1: dddddddddddddddddddd\n- s2\n- s3\n- s4"
	if body != want {
		t.Errorf("listing body =\n%s\nwant\n%s", body, want)
	}
}

func TestListingBudgetFollowsTheContextWindowUpToItsCap(t *testing.T) {
	for _, tc := range []struct{ window, want int }{{200_000, 8000}, {128_000, 5120}, {1_000_000, MaxListingBudget}} {
		if got := ListingBudget(tc.window); got != tc.want {
			t.Errorf("ListingBudget(%d) = %d, want %d", tc.window, got, tc.want)
		}
	}
}

func TestDescriptionIsCutAtClaudeCodesLength(t *testing.T) {
	d := description(Command{Description: strings.Repeat("é", 2000)})
	if n := utf8.RuneCountInString(d); n != maxDescription || !strings.HasSuffix(d, "…") {
		t.Errorf("description has %d characters, ends %q", n, d[len(d)-5:])
	}
}
