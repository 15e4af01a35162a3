package bash

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/resultstore"
	"github.com/mini-claude/mini-claude/internal/shell"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// Progress is the data of the progress events a running command reports each second.
type Progress struct {
	Elapsed     time.Duration
	OutputBytes int64
	// Tail is the last lines of the output so far (progressLines at most).
	Tail string
}

// progressLines is how many lines of output a progress event carries.
const progressLines = 5

// sandboxStatus is where the calls learn whether commands can be sandboxed; a
// variable so tests can see the session without one.
var sandboxStatus = shell.ProbeSandbox

// progressEvery is how often a running command reports progress.
const progressEvery = time.Second

func call(ctx context.Context, in Input, env *tool.Env, progress tool.Progress) (Output, error) {
	m := managerOf(env.Session)
	m.noticeSandbox()
	dir, reset := workingDir(env)
	childEnv, err := commandEnv(ctx, in.Command, dir, env)
	if err != nil {
		return Output{}, err
	}
	spec := shell.Spec{Command: in.Command, Dir: dir, Env: childEnv}
	sandboxed := !in.DangerouslyDisableSandbox && sandboxStatus().Available()
	if sandboxed {
		spec.Sandbox = &shell.Sandbox{Writable: workspace.AllowedDirs(env)}
	}
	out := newOutputLog(maxResultChars, func() (*os.File, error) { return resultstore.Create(env, env.ToolUseID) })
	foreground, background := timeouts(in)
	var spillErr error
	if in.RunInBackground {
		// Its output goes to its file from the first byte, which the result
		// names, however soon it ends.
		_, spillErr = out.Spill()
	}
	t, err := m.start(spec, in.Command, in.Description, out, in.RunInBackground, background)
	if err != nil {
		return Output{}, fmt.Errorf("the command could not start: %w", err)
	}
	if in.RunInBackground {
		m.reportSpill(t, spillErr)
		return m.backgrounded(t, sandboxed, 0, background), nil
	}
	timer := time.NewTimer(foreground)
	defer timer.Stop()
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for {
		select {
		case <-t.done:
			defer out.Close()
			res, err := finished(t, env, sandboxed, reset)
			res.quiet = noOutputExpected(in.Command)
			return res, err
		case <-ctx.Done():
			m.stop(t, "interrupted")
			out.Close()
			return Output{}, fmt.Errorf("the command was interrupted: %w", ctx.Err())
		case <-timer.C:
			if m.toBackground(t, background) {
				return m.backgrounded(t, sandboxed, foreground, background), nil
			}
		case <-tick.C:
			tail := out.LastLines(progressLines)
			progress(tool.ProgressEvent{Message: tail[strings.LastIndexByte(tail, '\n')+1:],
				Data: Progress{Elapsed: time.Since(t.started), OutputBytes: out.Size(), Tail: tail}})
		}
	}
}

// commandEnv is the environment a command starts with: the user's, without
// the credentials the user's settings do not pass, and in a folder the user
// has not trusted, with git kept from running the programs a repository's
// own configuration names (see shell.UntrustedGitEnv). The user approving
// git diff there does not expect its config to run anything.
func commandEnv(ctx context.Context, command, dir string, env *tool.Env) ([]string, error) {
	base := credentials.ChildEnv(os.Environ(), env.PassEnv)
	if env.FolderTrusted {
		return base, nil
	}
	guarded, err := shell.UntrustedGitEnv(ctx, command, dir, base)
	if err != nil {
		return nil, fmt.Errorf("the command was not run: %w", err)
	}
	return guarded, nil
}

// noticeSandbox tells the model, once per session, that commands run without the sandbox.
func (m *manager) noticeSandbox() {
	m.noticed.Do(func() {
		if status := sandboxStatus(); !status.Available() {
			m.session.Notify(fmt.Sprintf("Bash commands in this session run without a sandbox (%v): they can write anywhere the user can.", status.Err))
		}
	})
}

// workingDir returns the directory to run in: the session's, or the original
// one when the session's has disappeared.
func workingDir(env *tool.Env) (string, bool) {
	if info, err := os.Stat(env.Cwd); err == nil && info.IsDir() {
		return env.Cwd, false
	}
	original := env.Session.OriginalCwd()
	env.Session.SetCwd(original)
	return original, true
}

// finished renders a command that ended in the foreground, moving the
// session's directory to where a successful command ended.
func finished(t *task, env *tool.Env, sandboxed, reset bool) (Output, error) {
	exit := t.exit
	v, _ := t.out.Since(0)
	body := renderView(v)
	res := Output{ExitCode: exit.Code, Sandboxed: sandboxed, CwdReset: reset}
	if v.persisted != nil {
		res.OutputPath = v.persisted.Path
	}
	if exit.Code == 0 && exit.Dir != "" && exit.Dir != env.Cwd {
		if workspace.Inside(env, exit.Dir) {
			env.Session.SetCwd(exit.Dir)
		} else {
			env.Session.SetCwd(env.Session.OriginalCwd())
			res.CwdReset = true
		}
	}
	var notes []string
	if res.CwdReset {
		notes = append(notes, "Shell cwd was reset to "+env.Session.OriginalCwd())
	}
	if sandboxed && exit.Code != 0 && deniedBySandbox(body) {
		notes = append(notes, fmt.Sprintf("[The sandbox lets commands write only inside %s and the temporary directories. If this command must write elsewhere, run it again with dangerouslyDisableSandbox: true; the user will be asked.]",
			strings.Join(workspace.AllowedDirs(env), ", ")))
	}
	res.Text = strings.Join(append(nonEmpty(body), notes...), "\n")
	if exit.Code != 0 {
		return res, &tool.OutputError{Text: strings.Join(append([]string{fmt.Sprintf("Exit code %d", exit.Code)}, nonEmpty(res.Text)...), "\n")}
	}
	if res.Text == "" {
		res.Text = noOutput
	}
	return res, nil
}

// noOutput is what the model reads of a command that printed nothing.
const noOutput = "(Bash completed with no output)"

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// deniedBySandbox reports whether a failure looks like a write the sandbox refused.
func deniedBySandbox(output string) bool {
	return strings.Contains(output, "Permission denied") || strings.Contains(output, "Operation not permitted") ||
		strings.Contains(output, "Read-only file system")
}

// renderView gives the model a part of the output: the text without leading
// blank lines and trailing white space, or the preview of a large part.
func renderView(v view) string {
	if v.persisted == nil {
		return trimBlankLines(v.text)
	}
	p := *v.persisted
	p.Head = trimBlankLines(p.Head)
	p.Tail = strings.TrimRight(p.Tail, " \t\r\n")
	return p.String()
}

// trimBlankLines removes the blank lines before the first line with text, and
// all white space after the last, keeping the first line's indentation.
func trimBlankLines(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	for {
		line, rest, found := strings.Cut(s, "\n")
		if !found || strings.TrimSpace(line) != "" {
			return s
		}
		s = rest
	}
}

// backgrounded renders a command that went to the background, in Claude
// Code's words: started there (timedOut is 0), or moved there when it
// outlived its timeout, after the output it printed until then; limit is how
// long it may run there.
func (m *manager) backgrounded(t *task, sandboxed bool, timedOut, limit time.Duration) Output {
	path := t.out.Path()
	where := "Output is being written to: " + path + "."
	if path == "" {
		where = "Its output could not be written to a file; TaskOutput still shows its start and end."
	}
	var sentences []string
	soFar := ""
	if timedOut == 0 {
		sentences = append(sentences, fmt.Sprintf("Command running in background with ID: %s. %s", t.id, where),
			"You will be notified when it completes.")
	} else {
		v, end := t.out.Since(0)
		soFar = renderView(v)
		m.mu.Lock()
		t.readOffset = end
		m.mu.Unlock()
		sentences = append(sentences,
			fmt.Sprintf("Command did not complete within its %ds timeout and was moved to the background (ID: %s). %s", max(1, int(timedOut.Round(time.Second).Seconds())), t.id, where),
			"You will be notified when it completes.",
			fmt.Sprintf("If it is still running after %s in the background, it will be stopped and you will be notified.", shortDuration(limit)),
			"It is running now: do not start a second copy while it runs. If it is no longer needed, stop it with TaskStop.")
		if soFar == "" {
			sentences = append(sentences, "No output had been read from it when it was moved. A program that buffers its output, or a pipe into one such as tail, can keep the output file empty until the command finishes.")
		}
	}
	if path != "" {
		sentences = append(sentences, "To check interim output, use Read on that file path.")
	}
	text := strings.Join(sentences, " ")
	if soFar != "" {
		text = soFar + "\n" + text
	}
	return Output{Text: text, ExitCode: -1, TaskID: t.id, OutputPath: path, Sandboxed: sandboxed}
}

// shortDuration writes d in hours, minutes and seconds, leaving out the
// units before the first and after the last that are not zero: 10m, 1h 30m,
// 45s.
func shortDuration(d time.Duration) string {
	d = d.Round(time.Second)
	units := []struct {
		size time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}}
	var parts []string
	for _, u := range units {
		n := d / u.size
		d -= n * u.size
		if n > 0 || len(parts) > 0 {
			parts = append(parts, fmt.Sprintf("%d%s", n, u.name))
		}
	}
	for len(parts) > 1 && strings.HasPrefix(parts[len(parts)-1], "0") {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return "0s"
	}
	return strings.Join(parts, " ")
}
