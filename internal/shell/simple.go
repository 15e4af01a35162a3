package shell

import (
	"path"
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
	source   string
	span     Span
}

// assignment is a NAME=value word before a command or given to env.
type assignment struct {
	name  string
	value word
	text  string
}

func (w *walker) call(c *syntax.CallExpr, sc scope) {
	inv := invocation{wrappers: sc.wrappers, elevated: sc.elevated}
	for _, a := range c.Assigns {
		w.assignSubsts(a, sc)
		if a.Name == nil {
			continue
		}
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
		for _, as := range inv.assigns {
			if !safeBareAssignment(as.name) {
				w.st.notReadOnly = true
			}
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
			u := unwrap(inv.args)
			if u.runsNothing {
				return
			}
			if u.inner < 0 || u.inner >= len(inv.args) {
				w.emit(inv, u.dynamic)
				return
			}
			w.applyWrapper(&inv, u)
			continue
		}
		switch {
		case shells[base]:
			w.shell(inv, sc)
		case base == "eval":
			w.eval(inv, sc)
		case base == "find":
			w.find(inv, sc)
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
	inv.assigns = append(inv.assigns, u.assigns...)
	inv.elevated = inv.elevated || u.elevated
	inv.stdinArgs = inv.stdinArgs || u.stdinArgs
	inv.movedCwd = inv.movedCwd || u.movedCwd
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
	cmd.Prefix = CommandPrefix(cmd.Args)
	if !dynamic {
		eff := classify(inv.args)
		cmd.ReadOnly = eff.readOnly && !inv.elevated && !inv.movedCwd &&
			(!inv.stdinArgs || eff.anyArgs) && safeCommandAssigns(inv.assigns)
		if cmd.ReadOnly {
			for _, r := range eff.reads {
				w.addRead(r, cmd.Prefix)
			}
		}
		for _, t := range eff.writes {
			w.addWrite(t, cmd.Prefix)
		}
		if eff.cd != nil {
			w.st.res.Cds = append(w.st.res.Cds, *eff.cd)
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
// and walked; a script file runs unknown code; no operand reads code from
// stdin, which cannot be known.
func (w *walker) shell(inv invocation, sc scope) {
	script, flagsEnd, mode := shellOperands(inv.args)
	switch mode {
	case shellScriptFile:
		w.emit(inv, false)
		return
	case shellStdin:
		w.emit(inv, true)
		return
	}
	code := inv.args[script]
	wrapper := strings.Join(words(inv.args[:flagsEnd]), " ")
	w.parseNested(inv, code, wrapper, sc)
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
	last := inv.args[len(inv.args)-1].span
	code := word{text: strings.Join(parts, " "), span: Span{Start: inv.args[1].span.Start, End: last.End, Line: inv.args[1].span.Line, Col: inv.args[1].span.Col}}
	w.parseNested(inv, code, inv.args[0].text, sc)
}

// parseNested walks code, a string that inv runs as shell code, with
// wrapper added to the wrappers of every command found in it.
func (w *walker) parseNested(inv invocation, code word, wrapper string, sc scope) {
	if code.dynamic || w.depth >= maxNesting {
		w.emit(inv, true)
		return
	}
	file, err := parse(code.text)
	if err != nil {
		w.emit(inv, true)
		return
	}
	inner := scope{wrappers: appendWrapper(inv.wrappers, wrapper), elevated: inv.elevated || sc.elevated}
	if len(inv.assigns) > 0 || inv.movedCwd || inv.stdinArgs {
		// The environment or directory the string runs in differs from the
		// line's own: its commands can't be judged read-only on their own.
		w.st.notReadOnly = true
	}
	w.nested(code.text, code.span).stmts(file.Stmts, inner)
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
		sub.args = act.args
		sub.wrappers = appendWrapper(inv.wrappers, strings.Join(words(inv.args[:act.start]), " "))
		w.invoke(sub, sc)
	}
}
