package shell

import (
	"strings"
)

// unwrapped is what a wrapper command (env, timeout, sudo, xargs …) does to
// the command it runs.
type unwrapped struct {
	// inner is the index of the wrapped command's name in the wrapper's
	// words, or -1 when the wrapper runs no command (env alone prints the
	// environment; sudo -l lists rights).
	inner int
	// runsNothing is set when the words run no program at all (exec with
	// only redirections).
	runsNothing bool
	// dynamic is set when the wrapper runs something that cannot be known
	// (env -S 'string').
	dynamic   bool
	assigns   []assignment
	elevated  bool
	stdinArgs bool
	movedCwd  bool
	// clearsEnv is set when the wrapper removes variables from the
	// command's environment (env -i, env -u NAME): the settings the runner
	// adds, such as the git guard for untrusted folders, may be gone.
	clearsEnv bool
	writes    []word
}

// optionSpec describes a wrapper's options: those that take a value and,
// optionally, the ones after which it runs no command.
type optionSpec struct {
	withValue  string // short options taking a value, such as "ugp"
	longValue  []string
	standalone string // short options that make it run no command
	longAlone  []string
}

// scan skips the options at the start of args[from:] and returns the index
// of the first operand, or -1 when an option says no command runs.
func (o optionSpec) scan(args []word, from int) int {
	i := from
	for i < len(args) {
		a := args[i].text
		if args[i].dynamic {
			return i
		}
		if a == "--" {
			return i + 1
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return i
		}
		if strings.HasPrefix(a, "--") {
			name, _, hasValue := strings.Cut(a, "=")
			if containsString(o.longAlone, name) {
				return -1
			}
			if containsString(o.longValue, name) && !hasValue {
				i++
			}
			i++
			continue
		}
		for j := 1; j < len(a); j++ {
			if strings.IndexByte(o.standalone, a[j]) >= 0 {
				return -1
			}
			if strings.IndexByte(o.withValue, a[j]) >= 0 {
				if j == len(a)-1 {
					i++
				}
				break
			}
		}
		i++
	}
	return min(i, len(args))
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wrappers maps a command name to how it wraps the command it runs.
var wrappers = map[string]func(args []word) unwrapped{
	"env":     unwrapEnv,
	"timeout": unwrapTimeout,
	"nice":    unwrapNice,
	"nohup":   simpleWrapper(optionSpec{}),
	"setsid":  simpleWrapper(optionSpec{}),
	"stdbuf":  simpleWrapper(optionSpec{withValue: "ioe", longValue: []string{"--input", "--output", "--error"}}),
	"ionice":  simpleWrapper(optionSpec{withValue: "cnp", longValue: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}, standalone: "pPu", longAlone: []string{"--pid", "--pgid", "--uid"}}),
	"sudo":    unwrapSudo,
	"doas":    elevatedWrapper(optionSpec{withValue: "uC", standalone: "sL"}),
	"command": unwrapCommand,
	"builtin": simpleWrapper(optionSpec{}),
	"exec":    unwrapExec,
	"time":    unwrapTime,
	"xargs":   unwrapXargs,
	"watch":   simpleWrapper(optionSpec{withValue: "nq", longValue: []string{"--interval", "--equexit"}}),
	// macOS and moreutils/expect helpers that run their operand unchanged.
	"caffeinate": simpleWrapper(optionSpec{withValue: "wt"}),
	"chronic":    simpleWrapper(optionSpec{}),
	"unbuffer":   simpleWrapper(optionSpec{}),
	"pkexec":     elevatedWrapper(optionSpec{longValue: []string{"--user"}}),
}

func simpleWrapper(o optionSpec) func([]word) unwrapped {
	return func(args []word) unwrapped { return unwrapped{inner: o.scan(args, 1)} }
}

func elevatedWrapper(o optionSpec) func([]word) unwrapped {
	return func(args []word) unwrapped {
		u := unwrapped{inner: o.scan(args, 1), elevated: true}
		u.inner, u.assigns = takeAssigns(args, u.inner)
		return u
	}
}

// takeAssigns collects NAME=value words starting at i, as env and sudo
// accept before the command.
func takeAssigns(args []word, i int) (int, []assignment) {
	var out []assignment
	for i >= 0 && i < len(args) {
		name, value, ok := strings.Cut(args[i].text, "=")
		if !ok || !isName(name) {
			break
		}
		out = append(out, assignment{name: name, value: word{text: value, dynamic: args[i].dynamic}, text: args[i].text})
		i++
	}
	return i, out
}

func unwrapEnv(args []word) unwrapped {
	o := optionSpec{withValue: "uCS", longValue: []string{"--unset", "--chdir", "--split-string"}}
	u := unwrapped{inner: o.scan(args, 1)}
	for _, a := range args[1:max(u.inner, 1)] {
		switch {
		case a.text == "-S" || strings.HasPrefix(a.text, "--split-string") || (strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") && strings.Contains(a.text, "S")):
			u.dynamic = true
		case a.text == "-C" || strings.HasPrefix(a.text, "--chdir") || (strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") && strings.Contains(a.text, "C")):
			u.movedCwd = true
		}
		if strings.HasPrefix(a.text, "--ignore-environment") || strings.HasPrefix(a.text, "--unset") ||
			(strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") && strings.ContainsAny(a.text, "iu")) {
			u.clearsEnv = true
		}
	}
	if u.dynamic {
		u.inner = -1
		return u
	}
	u.inner, u.assigns = takeAssigns(args, u.inner)
	if u.inner >= len(args) {
		u.inner = -1
	}
	return u
}

func unwrapTimeout(args []word) unwrapped {
	o := optionSpec{withValue: "ks", longValue: []string{"--kill-after", "--signal"}}
	i := o.scan(args, 1)
	if i < 0 || i >= len(args) {
		return unwrapped{inner: -1}
	}
	return unwrapped{inner: i + 1} // skip the duration
}

func unwrapNice(args []word) unwrapped {
	i := 1
	for i < len(args) && !args[i].dynamic {
		a := args[i].text
		switch {
		case a == "-n" || a == "--adjustment":
			i += 2
			continue
		case strings.HasPrefix(a, "-n") || strings.HasPrefix(a, "--adjustment="):
		case a == "--":
			i++
		case len(a) > 1 && a[0] == '-' && isDigits(strings.TrimPrefix(a[1:], "-")):
		default:
			return unwrapped{inner: i}
		}
		if a == "--" {
			break
		}
		i++
	}
	return unwrapped{inner: min(i, len(args))}
}

func unwrapSudo(args []word) unwrapped {
	o := optionSpec{
		withValue:  "ugUpCDhrtTR",
		longValue:  []string{"--user", "--group", "--other-user", "--prompt", "--close-from", "--chdir", "--host", "--role", "--type", "--command-timeout", "--chroot"},
		standalone: "elvKV",
		longAlone:  []string{"--edit", "--list", "--validate", "--reset-timestamp", "--remove-timestamp", "--version"},
	}
	u := unwrapped{inner: o.scan(args, 1), elevated: true}
	u.inner, u.assigns = takeAssigns(args, u.inner)
	return u
}

// unwrapCommand handles the command builtin: command -v/-V only looks a
// name up; otherwise it runs its operand, bypassing functions.
func unwrapCommand(args []word) unwrapped {
	return unwrapped{inner: optionSpec{standalone: "vV"}.scan(args, 1)}
}

func unwrapExec(args []word) unwrapped {
	i := optionSpec{withValue: "a"}.scan(args, 1)
	if i >= len(args) {
		return unwrapped{runsNothing: true}
	}
	return unwrapped{inner: i}
}

// unwrapTime handles time as a program (/usr/bin/time, command time); the
// time keyword is parsed as a clause of its own.
func unwrapTime(args []word) unwrapped {
	u := unwrapped{inner: optionSpec{withValue: "fo", longValue: []string{"--format", "--output"}}.scan(args, 1)}
	for i := 1; i < len(args) && (u.inner < 0 || i < u.inner); i++ {
		a := args[i].text
		switch {
		case (a == "-o" || a == "--output") && i+1 < len(args):
			u.writes = append(u.writes, args[i+1])
		case strings.HasPrefix(a, "--output="):
			u.writes = append(u.writes, word{text: strings.TrimPrefix(a, "--output="), dynamic: args[i].dynamic, span: args[i].span})
		}
	}
	return u
}

func unwrapXargs(args []word) unwrapped {
	o := optionSpec{
		withValue: "adEILnPs",
		longValue: []string{"--arg-file", "--delimiter", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"},
	}
	return unwrapped{inner: o.scan(args, 1), stdinArgs: true}
}

// shells are the programs whose -c option runs a string as shell code.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true, "rbash": true}

type shellMode int

const (
	shellString shellMode = iota
	shellScriptFile
	shellStdin
)

// shellOperands finds what a shell invocation runs: the index of the -c
// string (and the index after the options), a script file, or stdin.
func shellOperands(args []word) (script, flagsEnd int, mode shellMode) {
	cmdMode := false
	i := 1
	for ; i < len(args); i++ {
		a := args[i].text
		if args[i].dynamic {
			break
		}
		if a == "--" || a == "-" {
			i++
			break
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		if strings.HasPrefix(a, "--") {
			if a == "--rcfile" || a == "--init-file" {
				i++
			}
			continue
		}
		if strings.ContainsRune(a[1:], 'c') {
			cmdMode = true
		}
		if strings.ContainsRune(a[1:], 's') {
			return 0, i, shellStdin
		}
		if strings.ContainsAny(a[1:], "oO") {
			i++
		}
	}
	i = min(i, len(args))
	switch {
	case i == len(args):
		return 0, i, shellStdin
	case cmdMode:
		return i, i, shellString
	default:
		return i, i, shellScriptFile
	}
}

// findAction is one -exec/-execdir/-ok/-okdir command of a find.
type findAction struct {
	start int // index of the -exec word in the find's words
	args  []word
}

// splitFindActions separates find's own words from the commands its exec
// actions run (up to the terminating ";" or "+").
func splitFindActions(args []word) (own []word, actions []findAction) {
	for i := 0; i < len(args); i++ {
		switch args[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
			if args[i].dynamic {
				break
			}
			end := i + 1
			for end < len(args) && !(args[end].text == ";" || (args[end].text == "+" && args[end-1].text == "{}")) {
				end++
			}
			if end > i+1 {
				actions = append(actions, findAction{start: i + 1, args: args[i+1 : end]})
			}
			own = append(own, args[i])
			i = end
			continue
		}
		own = append(own, args[i])
	}
	return own, actions
}
