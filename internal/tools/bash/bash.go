// Package bash is the Bash tool and its two companions, TaskOutput and
// TaskStop: commands run with real bash in the session's directory, in their
// own process group and (where Landlock exists) a write sandbox; a command
// that outlives its timeout moves to the background instead of being killed,
// and everything a session started is killed when it ends.
package bash

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/shell"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Limits of the timeout input, in milliseconds.
const (
	defaultTimeout           = 120_000
	maxTimeout               = 600_000
	defaultBackgroundTimeout = 600_000
	maxBackgroundTimeout     = 7_200_000
)

// maxResultChars is the output size above which the output goes to a file and
// the model gets a preview.
const maxResultChars = 30_000

// Input is what the model sends, in Claude Code's schema.
type Input struct {
	Command                   string  `json:"command" jsonschema_description:"The command to execute"`
	Timeout                   float64 `json:"timeout,omitempty" jsonschema_description:"Optional timeout in milliseconds (max 600000 for a foreground command)"`
	Description               string  `json:"description,omitempty" jsonschema_description:"What the command does, in 5-10 words of active voice, for the user who may not see the command (\"Run the unit tests\", \"List files in the current directory\"). Describe the effect; do not repeat the command's text, flags or paths."`
	RunInBackground           bool    `json:"run_in_background,omitempty" jsonschema_description:"Set to true to run this command in the background. With it, timeout limits how long the command may run in the background before it is stopped (default 600000 ms, max 7200000 ms)."`
	DangerouslyDisableSandbox bool    `json:"dangerouslyDisableSandbox,omitempty" jsonschema_description:"Set to true to run this command without the sandbox that limits where it may write; the user is asked first."`
}

// Output is the outcome of a call, as the model and the UI get it.
type Output struct {
	// Text is what the model reads.
	Text string `json:"text"`
	// ExitCode is the command's exit status; -1 while it runs in the background.
	ExitCode int `json:"exit_code"`
	// TaskID is set when the command went to the background.
	TaskID string `json:"task_id,omitempty"`
	// OutputPath is the file holding the full output, when it was too large or went to the background.
	OutputPath string `json:"output_path,omitempty"`
	// CwdReset is set when the command left the allowed directories and the
	// working directory went back to the original one.
	CwdReset bool `json:"cwd_reset,omitempty"`
	// Sandboxed says whether the command ran in the write sandbox.
	Sandboxed bool `json:"sandboxed"`
	// quiet says the command is one Claude Code expects no output from.
	quiet bool
}

// Tool runs bash commands.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               "Bash",
	SearchHint:         "run shell commands, tests, builds, git",
	Description:        description,
	MaxResultSizeChars: maxResultChars,
	IsReadOnly:         isReadOnly,
	IsConcurrencySafe:  isConcurrencySafe,
	ValidateInput:      validate,
	CheckPermissions:   checkPermissions,
	Accesses:           accesses,
	Call:               call,
	MapResult:          func(out Output) []llm.ContentBlock { return []llm.ContentBlock{llm.TextBlock(out.Text)} },
	RenderUse:          renderUse,
	RenderProgress:     renderProgress,
	RenderResult:       renderResult,
})

const description = `Runs a bash command and returns its output (stdout and stderr merged, in order).

- The command runs with bash -c in the session's working directory, with the user's environment and no input: stdin is empty and there is no terminal, so anything that prompts (read, editors, passwords, git rebase -i's editor) gets no answer and returns. Editors and pagers are set to accept and print (GIT_EDITOR=true, PAGER=cat).
- A cd carries over to the next call when the command succeeds and ends inside the allowed directories; when it ends outside them, the working directory goes back to the project root. Variables and functions do not carry over. Prefer absolute paths over cd.
- Use the dedicated tools rather than cat, head, tail, sed, awk, echo, find or grep when one fits: Read, Edit, Write, Glob and Grep give the user a better view.
- A non-zero exit is reported as "Exit code N" followed by the output. Output over 30000 characters is saved to a file; you get its start, its end and the path, and can Read the rest.
- timeout is in milliseconds (default 120000, max 600000; a larger one counts as 600000). A command still running at its timeout is not killed: it moves to the background and you get its task ID.
- run_in_background: true starts the command in the background at once (for servers, watchers, long builds); no trailing & is needed. You are notified when it ends. TaskOutput reads its new output, TaskStop stops it. With it, timeout is how long it may run before it is stopped (default 600000, max 7200000).
- Where the kernel supports it, commands run in a sandbox that lets them write only inside the allowed directories and the temporary directories; reading and the network are not limited. When a command fails because it needs to write elsewhere (Permission denied), run it again with dangerouslyDisableSandbox: true and the user is asked.
- Quote paths that contain spaces. Chain dependent commands with &&; make independent calls in parallel instead.
- Git: commit or push only when the user asks; never use interactive flags (-i); do not commit files that likely hold secrets (.env, credentials).`

// analysis analyses the command; nil for a command that does not parse, or
// for no command at all (the tools listing asks with the zero input).
func analysis(in Input) *shell.Analysis {
	if strings.TrimSpace(in.Command) == "" {
		return nil
	}
	a, err := shell.Analyze(in.Command)
	if err != nil {
		return nil
	}
	return a
}

// isReadOnly holds for a command the analysis finds only reads, searches or lists.
func isReadOnly(in Input) bool {
	a := analysis(in)
	return a != nil && a.ReadOnly
}

// isConcurrencySafe holds for a read-only command without cd, which would race
// with other calls over the session's working directory.
func isConcurrencySafe(in Input) bool {
	a := analysis(in)
	return a != nil && a.ReadOnly && len(a.Cds) == 0
}

// validate refuses only a negative timeout and a command that does not
// parse. An empty command runs (and prints nothing), and a timeout over the
// maximum counts as the maximum, as in Claude Code: refusing them would
// protect nothing.
func validate(_ context.Context, in Input, _ *tool.Env) error {
	if in.Timeout < 0 {
		return fmt.Errorf("timeout %v ms is negative: give the milliseconds the command may run, or leave timeout out for the default (%d)", in.Timeout, defaultTimeout)
	}
	if strings.TrimSpace(in.Command) == "" {
		return nil
	}
	_, err := shell.Analyze(in.Command)
	return err
}

// timeouts returns how long the command may run in the foreground and, once in
// the background, how long it may run there; a timeout over its maximum counts
// as the maximum.
func timeouts(in Input) (foreground, background time.Duration) {
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	if in.RunInBackground {
		if in.Timeout > 0 {
			return 0, ms(min(in.Timeout, maxBackgroundTimeout))
		}
		return 0, ms(defaultBackgroundTimeout)
	}
	if in.Timeout > 0 {
		return ms(min(in.Timeout, maxTimeout)), ms(defaultBackgroundTimeout)
	}
	return ms(defaultTimeout), ms(defaultBackgroundTimeout)
}
