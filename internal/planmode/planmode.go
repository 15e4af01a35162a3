// Package planmode is the session's side of plan mode, as Claude Code 2.1.332
// runs it: the plan file the model writes its plan to (the one file plan mode
// lets it change), the reminders that tell the model it is planning, and
// when it gets the full one, the short one, or the note that plan mode ended.
package planmode

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// reminderTemplate is Claude Code's plan-mode reminder (recorded in
// e2e/testdata/plan), its Explore and Plan agent types named general-purpose,
// mini-claude's agent type; {{PLAN_FILE_INFO}} says where the plan goes.
//
//go:embed reminder.md
var reminderTemplate string

// Reminder intervals, as Claude Code schedules them: a reminder with the
// prompt that starts plan mode, then one every promptsBetween prompts, the
// full text every fullEvery reminders and the short one in between.
const (
	promptsBetween = 6
	fullEvery      = 5
)

// State is one session's plan mode: where its plan file is and which
// reminders the model has had. It is safe for concurrent use.
type State struct {
	mu  sync.Mutex
	dir string
	// path is the plan file, chosen with the first prompt planned.
	path string
	// reminders counts the reminders sent; sincePrompt the prompts since the last.
	reminders, sincePrompt int
	// told says the model was told plan mode is active and not yet that it ended.
	told bool
}

type stateKey struct{}

// Of returns the session's plan-mode state.
func Of(s *tool.Session) *State {
	return tool.Value(s, stateKey{}, func() *State { return &State{} })
}

// Attach sets the folder plan files go to (~/.mini-claude/plans).
func Attach(s *tool.Session, dir string) {
	st := Of(s)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.dir = dir
}

// Path returns the plan file, "" before the session first planned.
func (st *State) Path() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.path
}

// Prompt returns the reminder that goes with a prompt the user sends in
// mode, "" for none: in plan mode the full or the short plan-mode reminder
// on Claude Code's schedule, and once after plan mode ended (the user left
// it with Shift+Tab) the note that it did.
func (st *State) Prompt(mode, prompt string) string {
	st.mu.Lock()
	defer st.mu.Unlock()
	if mode != "plan" {
		if !st.told {
			return ""
		}
		st.told = false
		return wrap(exitedText(st.path))
	}
	if st.path == "" {
		st.path = newPath(st.dir, prompt)
	}
	if st.told && st.sincePrompt+1 < promptsBetween {
		st.sincePrompt++
		return ""
	}
	full := st.reminders%fullEvery == 0 || !st.told
	st.told, st.sincePrompt = true, 0
	st.reminders++
	if full {
		return wrap(Full(st.path))
	}
	return wrap(Sparse(st.path))
}

// Exited records that the model was told plan mode ended (ExitPlanMode's
// result says so), and returns that note for the result.
func (st *State) Exited() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.told = false
	return wrap(exitedText(st.path))
}

// Full is the whole plan-mode reminder for the plan file at path.
func Full(path string) string {
	info := fmt.Sprintf("No plan file exists yet. You should create your plan at %s using the Write tool.", path)
	if exists(path) {
		info = fmt.Sprintf("A plan file already exists at %s. You can read it and make incremental edits using the Edit tool.", path)
	}
	return strings.Replace(reminderTemplate, "{{PLAN_FILE_INFO}}", info, 1)
}

// Sparse is the short reminder sent between full ones.
func Sparse(path string) string {
	return fmt.Sprintf("Plan mode still active (see full instructions earlier in conversation). Read-only except plan file (%s). "+
		"Follow 5-phase workflow. End turns with AskUserQuestion (for clarifications) or ExitPlanMode (for plan approval). "+
		"Never ask about plan approval via text or AskUserQuestion.", path)
}

// exitedText tells the model plan mode ended, and where its plan is.
func exitedText(path string) string {
	text := "## Exited Plan Mode\n\nYou have exited plan mode. You can now make edits, run tools, and take actions."
	if exists(path) {
		text += fmt.Sprintf(" The plan file is located at %s if you need to reference it.", path)
	}
	return text
}

func wrap(text string) string {
	return "<system-reminder>\n" + text + "\n</system-reminder>"
}

func exists(path string) bool {
	if path == "" {
		return false
	}
	_, err := os.Stat(path)
	return err == nil
}

var word = regexp.MustCompile(`[a-z0-9]+`)

// Words from which a plan file's name is made, after the prompt's first
// words, as Claude Code names them ("plan-the-change-zesty-sparkle.md").
var (
	adjectives = []string{"brave", "calm", "eager", "gentle", "lucky", "merry", "quiet", "swift", "tidy", "zesty"}
	nouns      = []string{"badger", "comet", "falcon", "harbor", "lantern", "meadow", "otter", "sparkle", "willow", "nest"}
)

// newPath names a new plan file in dir after the prompt's first three words
// and two random ones.
func newPath(dir, prompt string) string {
	words := word.FindAllString(strings.ToLower(prompt), 3)
	words = append(words, adjectives[rand.IntN(len(adjectives))], nouns[rand.IntN(len(nouns))])
	return filepath.Join(dir, strings.Join(words, "-")+".md")
}
