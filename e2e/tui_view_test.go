package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestTUIResumeDrawsToolResults runs a Read and an Edit headless, then
// resumes the session in the UI: the calls are drawn by their tools from
// the outputs the transcript kept (the Edit shows the change it made, not
// the file as it is now), condensed, and in full with ctrl+o; as Claude
// Code does on resume, a Read's content is not kept, so none is shown.
func TestTUIResumeDrawsToolResults(t *testing.T) {
	r := newRun(t)
	file := pushGreetingEdit(r)
	if out := r.exec("-p", "fix the greeting", "--permission-mode", "acceptEdits"); out.code != 0 {
		t.Fatalf("the headless run failed: %d %s", out.code, out.stderr)
	}
	s := openScreen(t, r, "-c")
	shot := s.waitFor("> fix the greeting", "Read("+file+")", "Read 3 lines", "Edit("+file+")", "- world", "+ there", "Edited.")
	if strings.Contains(shot, "2 world") {
		t.Fatalf("the Read result is not condensed:\n%s", shot)
	}
	s.keys("C-o")
	if shot := s.waitFor("Read 3 lines", "- world", "+ there"); strings.Contains(shot, "2 world") {
		t.Fatalf("the resumed Read shows content a resumed session should not keep:\n%s", shot)
	}
}

// TestTUICompactSummary compacts, opens the summary with ctrl+o, and finds it
// again, folded, in the resumed session.
func TestTUICompactSummary(t *testing.T) {
	r := newRun(t)
	r.srv.Push(text("The build uses make."), text("<summary>The user asked about the **build**; it uses make.</summary>"))
	s := openScreen(t, r)
	s.typeLine("how is it built?")
	s.waitFor("The build uses make.")
	s.typeLine("/compact")
	shot := s.waitFor("Conversation compacted: 2 messages summarised", "ctrl+o for the summary")
	if strings.Contains(shot, "it uses make.") {
		t.Fatalf("the summary is shown before ctrl+o:\n%s", shot)
	}
	s.keys("C-o")
	s.waitFor("The user asked about the build; it uses make.", "ctrl+o to hide")
	s.exit()

	again := openScreen(t, r, "-c")
	shot = again.waitFor("Conversation compacted", "ctrl+o for the summary")
	if strings.Contains(shot, "it uses make.") || strings.Contains(shot, "> This session") {
		t.Fatalf("the resumed summary is not folded into the compaction notice:\n%s", shot)
	}
	again.keys("C-o")
	again.waitFor("The user asked about the build; it uses make.")
}

// wheel sends n notches of the mouse wheel over the conversation, as a
// terminal reports them in SGR mode (button 64 up, 65 down).
func (s *screen) wheel(up bool, n int) {
	s.t.Helper()
	button := 65
	if up {
		button = 64
	}
	for range n {
		s.run("send-keys", "-t", "0", "-l", fmt.Sprintf("\x1b[<%d;10;5M", button))
	}
}

// TestTUIMouseWheelScrolls scrolls a long answer with the wheel and back.
func TestTUIMouseWheelScrolls(t *testing.T) {
	r := newRun(t)
	var lines []string
	for i := 1; i <= 80; i++ {
		lines = append(lines, fmt.Sprintf("answer line %02d", i))
	}
	r.srv.Push(text(strings.Join(lines, "\n\n")))
	s := openScreen(t, r)
	s.typeLine("write a long answer")
	shot := s.waitFor("answer line 80")
	if strings.Contains(shot, "answer line 60") {
		t.Fatalf("the answer fits the screen; it cannot test scrolling:\n%s", shot)
	}
	s.wheel(true, 15)
	shot = s.waitFor("answer line 45")
	if strings.Contains(shot, "answer line 80") {
		t.Fatalf("the wheel scrolled back up to line 45 but still shows the end of the answer:\n%s", shot)
	}
	s.wheel(false, 15)
	s.waitFor("answer line 80")
}
