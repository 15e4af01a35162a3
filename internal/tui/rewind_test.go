package tui

import (
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// rewindModel is a model whose session has two prompts, the second of which
// changed two files, one of them since changed outside; rewinds records
// the choices the UI passed on.
func rewindModel(t *testing.T, rewinds *[]RewindChoice) *model {
	return testModel(t, Options{
		Cwd: "/p",
		RewindPoints: func() []RewindPoint {
			return []RewindPoint{{ID: "a", Prompt: "first"}, {ID: "b", Prompt: "second", Files: 2}}
		},
		RewindPlan: func(id string) (RewindPlan, error) {
			return RewindPlan{Files: []string{"/p/x.go", "/p/y.go"}, Outside: []string{"/p/y.go"}}, nil
		},
		Rewind: func(id string, c RewindChoice) (RewindOutcome, error) {
			*rewinds = append(*rewinds, c)
			out := RewindOutcome{}
			if c.Conversation {
				out.Conversation = &Resumed{Messages: []llm.Message{llm.UserText("first")}}
			}
			if c.Code {
				out.Restored = []string{"/p/x.go"}
				out.Kept = []string{"/p/y.go"}
			}
			return out, nil
		},
	})
}

// finish runs the command a key returned, as the program would, and feeds its message back.
func finish(t *testing.T, m *model, keys ...string) {
	t.Helper()
	cmd := press(m, keys...)
	if cmd == nil {
		t.Fatalf("the keys %v started nothing:\n%s", keys, screenOf(m))
	}
	m.Update(cmd())
}

func TestRewindOptions(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		want  []RewindChoice
		shown string
		input string
	}{
		{"conversation only asks nothing about files", []string{"enter", "2"}, []RewindChoice{{Conversation: true}},
			`Rewound the conversation to before "second".`, "second"},
		{"code and conversation, keeping the file changed outside", []string{"enter", "enter", "enter"},
			[]RewindChoice{{Code: true, Conversation: true}}, "Kept (changed outside mini-claude): y.go", "second"},
		{"code, overwriting the file changed outside", []string{"enter", "3", "2"},
			[]RewindChoice{{Code: true, Overwrite: true}}, "Restored: x.go", ""},
		{"an earlier prompt", []string{"up", "enter", "2"}, []RewindChoice{{Conversation: true}}, `before "first"`, "first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []RewindChoice
			m := rewindModel(t, &got)
			press(m, "esc")
			press(m, "esc")
			if s := screenOf(m); !strings.Contains(s, "❯ second · 2 files changed") || !strings.Contains(s, "first · No code changes") {
				t.Fatalf("Esc Esc did not list the prompts:\n%s", s)
			}
			finish(t, m, tt.keys...)
			if len(got) != 1 || got[0] != tt.want[0] {
				t.Fatalf("rewinds %+v, want %+v", got, tt.want)
			}
			if s := screenOf(m); !strings.Contains(s, tt.shown) {
				t.Errorf("the screen does not say %q:\n%s", tt.shown, s)
			}
			if v := m.input.Value(); v != tt.input {
				t.Errorf("input %q, want %q", v, tt.input)
			}
		})
	}
}

func TestRewindDialogSaysWhatEachOptionDoesAndCanBeLeft(t *testing.T) {
	var got []RewindChoice
	m := rewindModel(t, &got)
	typeText(m, "/rewind")
	press(m, "enter", "enter")
	s := screenOf(m)
	for _, want := range []string{"Restore to the point before you sent this message:", "│ second", "1. Restore code and conversation",
		"4. Never mind", "The conversation goes back to before this message.", "The code will be restored in x.go and y.go.",
		"Changed outside mini-claude since: y.go (you will be asked).", "Changes made by Bash commands are not tracked"} {
		if !strings.Contains(s, want) {
			t.Errorf("the options do not say %q:\n%s", want, s)
		}
	}
	press(m, "down")
	if s := screenOf(m); !strings.Contains(s, "The code will be unchanged.") {
		t.Errorf("Restore conversation does not say the code stays:\n%s", s)
	}
	press(m, "esc")
	if m.rewind == nil || m.rewind.chosen != nil {
		t.Fatal("Esc did not go back to the list")
	}
	press(m, "enter", "4")
	if m.rewind != nil || len(got) != 0 {
		t.Errorf("Never mind left the dialog open (%v) or rewound %+v", m.rewind != nil, got)
	}
	m.opts.RewindPoints = func() []RewindPoint { return nil }
	typeText(m, "/rewind")
	press(m, "enter")
	if s := screenOf(m); !strings.Contains(s, "Nothing to rewind to yet.") {
		t.Errorf("an empty session does not say so:\n%s", s)
	}
}

func TestRewindHoldsTheQueueAndGivesItBackWithThePrompt(t *testing.T) {
	var got []RewindChoice
	m := rewindModel(t, &got)
	press(m, "esc")
	press(m, "esc")
	m.enqueue("typed meanwhile")
	m.sendQueued()
	if len(m.queue) != 1 {
		t.Fatalf("the queue went out while the rewind list was open: %q", m.queue)
	}
	finish(t, m, "enter", "2")
	if len(got) != 1 || !got[0].Conversation {
		t.Fatalf("rewinds %+v, want the conversation's", got)
	}
	if v := m.input.Value(); v != "second\ntyped meanwhile" || len(m.queue) != 0 {
		t.Errorf("input %q and queue %q, want the rewound prompt, then what was queued, in the input", v, m.queue)
	}
}
