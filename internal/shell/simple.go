package shell

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// invocation is a simple command on its way to becoming a Command: wrappers
// are peeled off it one at a time.
type invocation struct {
	args     []word
	assigns  []assignment
	wrappers []string
	elevated bool
	// stdinArgs is set under xargs: more arguments arrive on stdin.
	stdinArgs bool
	// movedCwd is set under env -C: file operands are relative to another
	// directory than the shell's.
	movedCwd bool
	// clearsEnv is set under env -i or env -u: variables the runner sets
	// may not reach the command.
	clearsEnv bool
	// indirect is set for code run by a shell whose environment, directory
	// or arguments were changed, and for a command run by a wrapper named by
	// a path (./timeout 5 ls): that file decides what really runs.
	indirect bool
	// stdin is what the command reads on standard input, as far as the
	// line says: a shell without -c runs it as code.
	stdin  stdinSource
	source string
	span   Span
}

// stdinSource is the standard input a statement's redirections give it.
type stdinSource struct {
	// code is the text of a here-document or here-string.
	code *word
	// file is set when stdin comes from a file (bash < script.sh).
	file bool
}

// assignment is a NAME=value word before a command or given to env.
type assignment struct {
	name  string
	value word
	text  string
}

func (w *walker) call(c *syntax.CallExpr, sc scope, stdin stdinSource) {
	inv := invocation{wrappers: sc.wrappers, elevated: sc.elevated, indirect: sc.indirect, stdin: stdin}
	for _, a := range c.Assigns {
		w.assignSubsts(a, sc)
		if a.Name == nil {
			continue
		}
		w.arrayGlobs(a)
		as := assignment{name: a.Name.Value, text: w.text(w.span(a))}
		if a.Value != nil {
			as.value = w.literal(a.Value)
		}
		if a.Array != nil || a.Index != nil || a.Append {
			as.value.dynamic = true
		}
		inv.assigns = append(inv.assigns, as)
	}
	for _, a := range c.Args {
		w.substs(a, sc)
	}
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			if a.Name != nil && !safeBareAssignment(a.Name.Value) {
				w.hazard(hazardAssignment, a)
			}
		}
		if changesGlobbing(nil, inv.assigns) {
			w.st.res.GlobOptions = true
		}
		return
	}
	for _, a := range c.Args {
		inv.args = append(inv.args, w.literal(a))
	}
	inv.span = w.span(c)
	inv.source = w.text(inv.span)
	w.invoke(inv, sc)
}

// invoke peels wrappers off inv until the program that really runs is
// found, then records it. Strings run by bash -c and eval are parsed and
// walked as code of their own.
func (w *walker) invoke(inv invocation, sc scope) {
	for len(inv.args) > 0 {
		name := inv.args[0]
		if name.dynamic {
			w.emit(inv, true)
			return
		}
		base := path.Base(name.text)
		if unwrap, ok := wrappers[base]; ok {
			if len(inv.wrappers) >= maxWrappers {
				w.emit(inv, true)
				return
			}
			u := unwrap(inv.args)
			if u.runsNothing {
				return
			}
			if u.inner <= 0 || u.inner >= len(inv.args) {
				w.emit(inv, u.dynamic)
				return
			}
			w.applyWrapper(&inv, u)
			inv.indirect = inv.indirect || qualified(name)
			continue
		}
		switch {
		case shells[base]:
			w.shell(inv, sc)
		case base == "find":
			w.find(inv, sc)
		case qualified(name):
			// ./eval, ./alias: a file, not the built-in of that name.
			w.emit(inv, false)
		case base == "eval":
			w.eval(inv, sc)
		case base == "alias":
			w.alias(inv, sc)
		case base == "trap":
			w.trap(inv, sc)
		default:
			w.emit(inv, false)
		}
		return
	}
}

func (w *walker) applyWrapper(inv *invocation, u unwrapped) {
	texts := make([]string, 0, u.inner)
	for _, a := range inv.args[:u.inner] {
		texts = append(texts, a.text)
	}
	inv.wrappers = appendWrapper(inv.wrappers, strings.Join(texts, " "))
	inv.assigns = append(slices.Clip(inv.assigns), u.assigns...)
	inv.elevated = inv.elevated || u.elevated
	inv.stdinArgs = inv.stdinArgs || u.stdinArgs
	inv.movedCwd = inv.movedCwd || u.movedCwd
	inv.clearsEnv = inv.clearsEnv || u.clearsEnv
	for _, out := range u.writes {
		w.addWrite(out, inv.args[0].text)
	}
	inv.args = inv.args[u.inner:]
}

// emit records inv as a Command, with its read-only verdict, the files it
// names and its cd target.
func (w *walker) emit(inv invocation, dynamic bool) {
	cmd := Command{
		Args:     words(inv.args),
		Wrappers: inv.wrappers,
		Dynamic:  dynamic,
		Source:   inv.source,
		Span:     w.report(inv.span),
	}
	for _, as := range inv.assigns {
		cmd.Assigns = append(cmd.Assigns, as.text)
	}
	cmd.Globs = argGlobs(inv.args)
	if changesGlobbing(inv.args, inv.assigns) {
		w.st.res.GlobOptions = true
	}
	cmd.Prefix = cmd.Args[0]
	cmd.Elevated = inv.elevated
	if !dynamic {
		cmd.Prefix = CommandPrefix(cmd.Args)
		asWritten := !inv.elevated && !inv.movedCwd && !inv.clearsEnv && !inv.indirect && safeCommandAssigns(inv.assigns)
		cmd.Plain = asWritten && !inv.stdinArgs
		eff := classify(inv.args)
		cmd.ReadOnly = eff.readOnly && asWritten && (!inv.stdinArgs || eff.anyArgs) &&
			!(optionSensitive[path.Base(cmd.Args[0])] && anyMayBeOption(inv.args[1:]))
		if cmd.ReadOnly {
			for _, r := range eff.reads {
				w.addRead(locate(r, inv.span), cmd.Prefix, eff.recursive)
			}
		}
		for _, t := range eff.writes {
			w.addWrite(locate(t, inv.span), cmd.Prefix)
		}
		if _, writer := writerEffect(path.Base(cmd.Args[0]), argv(inv.args)); writer && inv.stdinArgs {
			// xargs supplies the targets: some file, no one knows which.
			w.addWrite(word{dynamic: true, span: inv.span}, cmd.Prefix)
		}
		if eff.cd != nil {
			w.st.res.Cds = append(w.st.res.Cds, eff.cd.text)
		}
		if eff.cwdUnknown || (eff.cd != nil && eff.cd.dynamic) {
			w.st.res.CwdUnknown = true
		}
	}
	w.st.res.Commands = append(w.st.res.Commands, cmd)
}

func words(list []word) []string {
	out := make([]string, len(list))
	for i, a := range list {
		out[i] = a.text
	}
	return out
}

// shell handles bash, sh and the other shells: with -c the string is parsed
// and walked; a script file runs unknown code; without operands the shell
// runs its standard input, walked when a here-document or here-string gives
// it.
func (w *walker) shell(inv invocation, sc scope) {
	script, flagsEnd, mode := shellOperands(inv.args)
	wrapper := strings.Join(words(inv.args[:flagsEnd]), " ")
	switch {
	case mode == shellString:
		if !w.code(inv.args[script], wrapper, inv, sc) {
			w.emit(inv, true)
		}
	case mode == shellScriptFile || inv.stdin.file:
		w.emit(inv, false)
	case inv.stdin.code != nil:
		if !w.code(*inv.stdin.code, wrapper, inv, sc) {
			w.emit(inv, true)
		}
	default:
		w.emit(inv, true)
	}
}

// eval joins its arguments with spaces and runs them as code.
func (w *walker) eval(inv invocation, sc scope) {
	if len(inv.args) == 1 {
		return
	}
	parts := make([]string, 0, len(inv.args)-1)
	for _, a := range inv.args[1:] {
		if a.dynamic {
			w.emit(inv, true)
			return
		}
		parts = append(parts, a.text)
	}
	first, last := inv.args[1].span, inv.args[len(inv.args)-1].span
	code := word{text: strings.Join(parts, " "), span: Span{Start: first.Start, End: last.End, Line: first.Line, Col: first.Col}}
	if !w.code(code, inv.args[0].text, inv, sc) {
		w.emit(inv, true)
	}
}

// alias records the alias command and walks each alias value as code: a
// later line of the same script can run it under a harmless name.
func (w *walker) alias(inv invocation, sc scope) {
	dynamic := false
	for _, a := range inv.args[1:] {
		name, value, ok := strings.Cut(a.text, "=")
		if !ok {
			continue
		}
		code := word{text: value, dynamic: a.dynamic, span: a.span}
		if !w.code(code, "alias "+name, inv, sc) {
			dynamic = true
		}
	}
	w.emit(inv, dynamic)
}

// trap records the trap command and walks the code it installs.
func (w *walker) trap(inv invocation, sc scope) {
	ops := argv(inv.args).operands(opts{})
	dynamic := false
	if len(ops) >= 2 && ops[0].text != "-" && ops[0].text != "" {
		dynamic = !w.code(ops[0], "trap", inv, sc)
	}
	w.emit(inv, dynamic)
}

// code walks a string that inv runs as shell code, with wrapper added to
// the wrappers of every command found in it. It returns false when the
// string cannot be known or parsed, and nothing was walked.
func (w *walker) code(code word, wrapper string, inv invocation, sc scope) bool {
	if code.dynamic || w.depth >= maxNesting {
		return false
	}
	file, err := parse(code.text)
	if err != nil {
		return false
	}
	indirect := len(inv.assigns) > 0 || inv.movedCwd || inv.clearsEnv || inv.stdinArgs || inv.indirect
	// A shell named by a path (./bash -c …) is a file that may run anything
	// but the string: the string's commands are kept for the deny rules and
	// are read-only or allowed by no rule of their own.
	inner := scope{wrappers: appendWrapper(inv.wrappers, wrapper), elevated: inv.elevated || sc.elevated,
		indirect: indirect || qualified(inv.args[0])}
	if indirect && !inv.indirect {
		// The environment, directory or arguments the string runs with
		// differ from the line's own: its commands can't be judged on
		// their own.
		w.hazardAt(hazardEnvironment, code.span)
	}
	w.nested(code.text, code.span).stmts(file.Stmts, inner)
	return true
}

// find records find itself, then each command its -exec, -execdir, -ok and
// -okdir actions run, with the {} placeholder standing for a found path.
func (w *walker) find(inv invocation, sc scope) {
	own, actions := splitFindActions(inv.args)
	self := inv
	self.args = own
	w.emit(self, false)
	for _, act := range actions {
		sub := inv
		sub.args = foundPaths(act.args)
		sub.wrappers = appendWrapper(inv.wrappers, strings.Join(words(inv.args[:act.start]), " "))
		w.invoke(sub, sc)
	}
}

// foundPaths marks the words holding find's {} placeholder dynamic: they
// stand for whatever paths find finds.
func foundPaths(args []word) []word {
	out := make([]word, len(args))
	for i, a := range args {
		out[i] = a
		if strings.Contains(a.text, "{}") {
			out[i].dynamic, out[i].globs = true, nil
		}
	}
	return out
}

// locate gives a word the analysis made up (the "." a recursive grep
// searches) the span of its command.
func locate(wd word, sp Span) word {
	if wd.span == (Span{}) {
		wd.span = sp
	}
	return wd
}

// optionSensitive are the read-only commands that some option or operand
// position turns into a writer or a runner (rg --pre, sort -o, uniq in out,
// git -c): an argument that expands to unknown options makes them unsafe.
var optionSensitive = map[string]bool{
	"printf": true, "date": true, "hostname": true, "read": true, "rg": true,
	"find": true, "sort": true, "uniq": true, "sed": true, "git": true,
	"base64": true, "xxd": true, "tree": true, "file": true, "set": true,
}

func anyMayBeOption(args []word) bool {
	for _, a := range args {
		if a.mayBeOption {
			return true
		}
	}
	return false
}
