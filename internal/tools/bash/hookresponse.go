package bash

import "github.com/mini-claude/mini-claude/internal/shell"

// hookResponse is a command's result as Claude Code's PostToolUse hooks read
// it (tool_response).
type hookResponse struct {
	Stdout           string `json:"stdout"`
	Stderr           string `json:"stderr"`
	Interrupted      bool   `json:"interrupted"`
	IsImage          bool   `json:"isImage"`
	NoOutputExpected bool   `json:"noOutputExpected"`
	BackgroundTaskID string `json:"backgroundTaskId,omitempty"`
}

// HookResponse is the result in Claude Code's shape. mini-claude reads a
// command's stdout and stderr together, in the order they were written, as
// the model gets them: stdout holds both and stderr is empty. A command that
// went to the background has printed nothing yet and names its task.
func (o Output) HookResponse() any {
	r := hookResponse{Stdout: o.Text, Stderr: "", NoOutputExpected: o.quiet}
	switch {
	case o.TaskID != "":
		r.Stdout, r.BackgroundTaskID = "", o.TaskID
	case o.Text == noOutput:
		r.Stdout = ""
	}
	return r
}

// quietPrograms are the programs Claude Code expects no output from when
// they succeed.
var quietPrograms = map[string]bool{"mv": true, "cp": true, "rm": true, "mkdir": true, "rmdir": true, "chmod": true,
	"chown": true, "chgrp": true, "touch": true, "ln": true, "cd": true, "export": true, "unset": true, "wait": true}

// noOutputExpected reports whether every command of the line runs one of
// quietPrograms directly, as Claude Code judges a command's noOutputExpected.
func noOutputExpected(command string) bool {
	a, err := shell.Analyze(command)
	if err != nil || len(a.Commands) == 0 {
		return false
	}
	for _, c := range a.Commands {
		if len(c.Wrappers) > 0 || len(c.Args) == 0 || !quietPrograms[c.Args[0]] {
			return false
		}
	}
	return true
}
