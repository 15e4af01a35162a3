package patch

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestComputeMatchesClaudeCode checks the hunks against those Claude Code
// 2.1.332 reported for the same changes (captured from its stream-json, as in
// e2e/testdata/file_results).
func TestComputeMatchesClaudeCode(t *testing.T) {
	var numbered, renumbered strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&numbered, "line %d\n", i)
		if i == 1000 {
			renumbered.WriteString("line one thousand\n")
			continue
		}
		fmt.Fprintf(&renumbered, "line %d\n", i)
	}
	tests := []struct {
		name          string
		before, after string
		want          string
	}{
		{"write existing.txt", "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\nline 11\nline 12\nline 13\nline 14\nline 15\nline 16\nline 17\nline 18\nline 19\nline 20\n", "line 1\nline 2\nLINE 3 changed\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\nline 11\nline 12\nline 13\nline 14\nLINE 15 changed\nline 16\nline 17\nline 18\nline 19\nline 20\nline 21\n",
			`[{"oldStart":1,"oldLines":6,"newStart":1,"newLines":6,"lines":[" line 1"," line 2","-line 3","+LINE 3 changed"," line 4"," line 5"," line 6"]},{"oldStart":12,"oldLines":9,"newStart":12,"newLines":10,"lines":[" line 12"," line 13"," line 14","-line 15","+LINE 15 changed"," line 16"," line 17"," line 18"," line 19"," line 20","+line 21"]}]`},
		{"edit existing.txt", "line 1\nline 2\nLINE 3 changed\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\nline 11\nline 12\nline 13\nline 14\nLINE 15 changed\nline 16\nline 17\nline 18\nline 19\nline 20\nline 21\n", "line 1\nline 2\nLINE 3 changed\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline ten\nline ten and a half\nline 11\nline 12\nline 13\nline 14\nLINE 15 changed\nline 16\nline 17\nline 18\nline 19\nline 20\nline 21\n",
			`[{"oldStart":7,"oldLines":7,"newStart":7,"newLines":8,"lines":[" line 7"," line 8"," line 9","-line 10","+line ten","+line ten and a half"," line 11"," line 12"," line 13"]}]`},
		{"edit rep.txt", "foo bar\nfoo baz\nqux foo\n", "FOO bar\nFOO baz\nqux FOO\n",
			`[{"oldStart":1,"oldLines":3,"newStart":1,"newLines":3,"lines":["-foo bar","-foo baz","-qux foo","+FOO bar","+FOO baz","+qux FOO"]}]`},
		{"edit crlf.txt", "one\ntwo\nthree\n", "one\nTWO\nTHREE\nfour\n",
			`[{"oldStart":1,"oldLines":3,"newStart":1,"newLines":4,"lines":[" one","-two","-three","+TWO","+THREE","+four"]}]`},
		{"write crlf.txt", "one\nTWO\nTHREE\nfour\n", "one\r\nTWO\r\n",
			`[{"oldStart":1,"oldLines":4,"newStart":1,"newLines":2,"lines":["-one","-TWO","-THREE","-four","+one\r","+TWO\r"]}]`},
		{"edit nonl.txt", "a\nb\nc", "a\nb\nC",
			`[{"oldStart":1,"oldLines":3,"newStart":1,"newLines":3,"lines":[" a"," b","-c","\\ No newline at end of file","+C","\\ No newline at end of file"]}]`},
		{"write nonl.txt", "a\nb\nC", "a\nB\nC",
			`[{"oldStart":1,"oldLines":3,"newStart":1,"newLines":3,"lines":[" a","-b","+B"," C","\\ No newline at end of file"]}]`},
		{"edit created-by-edit.txt", "", "made by edit\n",
			`[{"oldStart":1,"oldLines":0,"newStart":1,"newLines":1,"lines":["+made by edit"]}]`},
		{"write new.txt", "alpha\nbeta\ngamma\n", "alpha\nbeta\ngamma\n",
			`[]`},
		{"write go.go", "package x\n\nfunc a() {\n\treturn\n}\n\nfunc b() {\n\treturn\n}\n", "package x\n\nfunc a() {\n\treturn\n}\n\nfunc c() {\n\treturn\n}\n\nfunc b() {\n\treturn\n}\n",
			`[{"oldStart":4,"oldLines":6,"newStart":4,"newLines":10,"lines":["   return"," }"," ","+func c() {","+  return","+}","+"," func b() {","   return"," }"]}]`},
		{"edit go.go", "package x\n\nfunc a() {\n\treturn\n}\n\nfunc c() {\n\treturn\n}\n\nfunc b() {\n\treturn\n}\n", "package x\n\nfunc a() {\n\treturn\n}\n\nfunc b() {\n\treturn\n}\n",
			`[{"oldStart":4,"oldLines":10,"newStart":4,"newLines":6,"lines":["   return"," }"," ","-func c() {","-  return","-}","-"," func b() {","   return"," }"]}]`},
		{"write gap.txt", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\nl14\nl15\nl16\nl17\nl18\nl19\nl20\nl21\nl22\nl23\nl24\nl25\nl26\nl27\nl28\nl29\nl30\nl31\nl32\nl33\nl34\nl35\nl36\nl37\nl38\nl39\nl40\n", "l1\nl2\nl3\nl4\nl5 changed\nl6\nl7\nl8\nl9\nl10\nl11\nl12 changed\nl13\nl14\nl15\nl16\nl17\nl18\nl19\nl20 changed\nl21\nl22\nl23\nl24\nl25\nl26\nl27\nl28\nl29\nl30\nl31\nl32\nl33\nl34\nl35\nl36\nl37\nl38\nl39\nl40\n",
			`[{"oldStart":2,"oldLines":14,"newStart":2,"newLines":14,"lines":[" l2"," l3"," l4","-l5","+l5 changed"," l6"," l7"," l8"," l9"," l10"," l11","-l12","+l12 changed"," l13"," l14"," l15"]},{"oldStart":17,"oldLines":7,"newStart":17,"newLines":7,"lines":[" l17"," l18"," l19","-l20","+l20 changed"," l21"," l22"," l23"]}]`},
		{"write tabs.txt", "a\tb\n\t\tc\n  \td\ne\n", "a\tB\n\t\tC\n  \tD\ne\n",
			`[{"oldStart":1,"oldLines":4,"newStart":1,"newLines":4,"lines":["-a\tb","-    c","-  \td","+a\tB","+    C","+  \tD"," e"]}]`},
		{"write empty.txt", "gone\n", "",
			`[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":0,"lines":["-gone"]}]`},
		{"write of repeated lines", "x\ny\nx\ny\nx\ny\n", "y\nx\ny\nx\n",
			`[{"oldStart":1,"oldLines":6,"newStart":1,"newLines":4,"lines":["-x"," y"," x"," y"," x","-y"]}]`},
		{"write of an appended line", "one\nTWO\nthree\n", "one\nTWO\nthree\nfour\n",
			`[{"oldStart":1,"oldLines":3,"newStart":1,"newLines":4,"lines":[" one"," TWO"," three","+four"]}]`},
		{"edit in a large file", numbered.String(), renumbered.String(),
			`[{"oldStart":997,"oldLines":7,"newStart":997,"newLines":7,"lines":[" line 997"," line 998"," line 999","-line 1000","+line one thousand"," line 1001"," line 1002"," line 1003"]}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(Compute(tt.before, tt.after))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("hunks\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestCount(t *testing.T) {
	added, removed := Count(Compute("a\nb\nc", "a\nB\nC\nd\n"))
	if added != 3 || removed != 2 {
		t.Errorf("Count = +%d -%d, want +3 -2", added, removed)
	}
}

// TestHunksRebuildTheNewText applies the hunks of random changes to the old
// text and expects the new one, which checks the line numbers and the
// cutting of common beginnings and ends.
func TestHunksRebuildTheNewText(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString([]string{"a\n", "b\n", "c\n", "\n", "d\r\n"}[rng.IntN(5)])
		}
		if rng.IntN(4) == 0 {
			b.WriteString("end")
		}
		return b.String()
	}
	for i := range 2000 {
		before, after := text(), text()
		if got := apply(t, before, Compute(before, after)); got != after {
			t.Fatalf("case %d: %q to %q rebuilt as %q from %v", i, before, after, got, Compute(before, after))
		}
	}
}

// apply rebuilds the new text from the old one and hunks.
func apply(t *testing.T, before string, hunks []Hunk) string {
	old := strings.SplitAfter(before, "\n")
	var out strings.Builder
	at := 0
	for _, h := range hunks {
		for ; at < h.OldStart-1; at++ {
			out.WriteString(old[at])
		}
		if h.NewStart-1 != strings.Count(out.String(), "\n") {
			t.Fatalf("hunk %+v starts at new line %d, want %d", h, h.NewStart, strings.Count(out.String(), "\n")+1)
		}
		for i, l := range h.Lines {
			if l == NoNewline {
				continue
			}
			end := "\n"
			if i+1 < len(h.Lines) && h.Lines[i+1] == NoNewline {
				end = ""
			}
			switch l[0] {
			case ' ':
				out.WriteString(l[1:] + end)
				at++
			case '-':
				at++
			case '+':
				out.WriteString(l[1:] + end)
			}
		}
	}
	for ; at < len(old); at++ {
		out.WriteString(old[at])
	}
	return out.String()
}

// TestCuttingTheCommonEndsKeepsEveryHunkWhole makes small changes to random
// texts; the hunks diffed on the part that differs must rebuild the new
// text, change as many lines as the whole texts' hunks, and give every
// change its full context (cut-off lines included), as Claude Code's do.
// Where a change could sit is not compared: equally short diffs of the part
// and of the whole may place an ambiguous change differently.
func TestCuttingTheCommonEndsKeepsEveryHunkWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func() string { return []string{"a\n", "b\n", "\n", "\n", "x\n"}[rng.IntN(5)] }
	for i := range 20000 {
		var lines []string
		for range 5 + rng.IntN(40) {
			lines = append(lines, pick())
		}
		before := strings.Join(lines, "")
		for range 1 + rng.IntN(3) {
			at := rng.IntN(len(lines) + 1)
			switch rng.IntN(3) {
			case 0:
				lines = append(lines[:at], append([]string{pick()}, lines[at:]...)...)
			case 1:
				if at < len(lines) {
					lines = append(lines[:at], lines[at+1:]...)
				}
			default:
				if at < len(lines) {
					lines[at] = pick()
				}
			}
		}
		after := strings.Join(lines, "")
		got := Compute(before, after)
		whole, _ := region{before: before, after: after}.hunks()
		if rebuilt := apply(t, before, got); rebuilt != after {
			t.Fatalf("case %d: %q to %q rebuilt as %q from %v", i, before, after, rebuilt, got)
		}
		gotAdded, gotRemoved := Count(got)
		if added, removed := Count(whole); gotAdded != added || gotRemoved != removed {
			t.Fatalf("case %d: %q to %q: +%d -%d, the whole texts' hunks +%d -%d", i, before, after, gotAdded, gotRemoved, added, removed)
		}
		oldLines := strings.Count(before, "\n")
		for _, h := range got {
			lead, trail := contextAround(h)
			if lead < Context && h.OldStart > 1 || trail < Context && h.OldStart+h.OldLines-1 < oldLines {
				t.Fatalf("case %d: %q to %q: hunk %+v has %d lines of context before and %d after", i, before, after, h, lead, trail)
			}
		}
	}
}

// contextAround counts the unchanged lines before a hunk's first change and
// after its last.
func contextAround(h Hunk) (lead, trail int) {
	var marks []byte
	for _, l := range h.Lines {
		if l != NoNewline {
			marks = append(marks, l[0])
		}
	}
	for lead < len(marks) && marks[lead] == ' ' {
		lead++
	}
	for trail < len(marks) && marks[len(marks)-1-trail] == ' ' {
		trail++
	}
	return lead, trail
}
