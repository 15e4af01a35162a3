package shell

import (
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// maxNesting bounds how deep strings given to bash -c or eval are parsed in
// turn; deeper ones are reported as dynamic.
const maxNesting = 8

// maxWrappers bounds how many wrappers are peeled off one command; a
// command behind more is reported as dynamic.
const maxWrappers = 32

// state is what every walker of one Analyze call shares, including the ones
// walking strings nested in bash -c or eval.
type state struct {
	res Analysis
}

// walker walks one parsed source: the command line itself or a string
// nested in it.
type walker struct {
	st  *state
	src string
	// outer, when set, is the span of the bash -c or eval argument this
	// source came from; every span reported points there.
	outer *Span
	depth int
}

// scope is what the code being walked runs under: the wrappers of the
// shell it runs in (bash -c, sudo bash -c) and whether that is privileged.
type scope struct {
	wrappers []string
	elevated bool
	// indirect is set when the code runs with a changed environment,
	// directory or arguments (env FOO=1 bash -c …, xargs sh -c …).
	indirect bool
}

func newWalker(src string) *walker {
	return &walker{st: &state{res: Analysis{Source: src}}, src: src}
}

func (w *walker) finish() *Analysis {
	res := &w.st.res
	res.ReadOnly = len(res.Hazards) == 0 && len(res.Writes) == 0
	for _, c := range res.Commands {
		if c.Dynamic {
			res.Dynamic = true
		}
		if !c.ReadOnly {
			res.ReadOnly = false
		}
	}
	return res
}

// nested returns a walker for src, a string found in the word at sp.
func (w *walker) nested(src string, sp Span) *walker {
	outer := w.report(sp)
	return &walker{st: w.st, src: src, outer: &outer, depth: w.depth + 1}
}

func (w *walker) span(n syntax.Node) Span {
	start, end := n.Pos(), n.End()
	return Span{Start: int(start.Offset()), End: int(end.Offset()), Line: int(start.Line()), Col: int(start.Col())}
}

// report converts a span of this walker's source to one of Analysis.Source.
func (w *walker) report(sp Span) Span {
	if w.outer != nil {
		return *w.outer
	}
	return sp
}

func (w *walker) text(sp Span) string {
	if sp.Start < 0 || sp.End > len(w.src) || sp.Start > sp.End {
		return ""
	}
	return w.src[sp.Start:sp.End]
}

func (w *walker) stmts(list []*syntax.Stmt, sc scope) {
	for _, s := range list {
		w.stmt(s, sc)
	}
}

func (w *walker) stmt(s *syntax.Stmt, sc scope) {
	if s == nil {
		return
	}
	for _, r := range s.Redirs {
		w.redirect(r, sc)
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		w.call(c, sc, w.stdinOf(s.Redirs))
	case *syntax.BinaryCmd:
		w.stmt(c.X, sc)
		w.stmt(c.Y, sc)
	case *syntax.Subshell:
		w.stmts(c.Stmts, sc)
	case *syntax.Block:
		w.stmts(c.Stmts, sc)
	case *syntax.IfClause:
		for clause := c; clause != nil; clause = clause.Else {
			w.stmts(clause.Cond, sc)
			w.stmts(clause.Then, sc)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond, sc)
		w.stmts(c.Do, sc)
	case *syntax.ForClause:
		w.loop(c.Loop, sc)
		w.stmts(c.Do, sc)
	case *syntax.CaseClause:
		w.substs(c.Word, sc)
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				w.substs(p, sc)
			}
			w.stmts(item.Stmts, sc)
		}
	case *syntax.FuncDecl:
		w.stmt(c.Body, sc)
	case *syntax.ArithmCmd:
		w.arith(c.X, sc)
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			w.arith(x, sc)
		}
	case *syntax.TestClause:
		w.test(c.X, sc)
	case *syntax.DeclClause:
		w.decl(c, sc)
	case *syntax.TimeClause:
		inner := sc
		inner.wrappers = appendWrapper(sc.wrappers, "time")
		w.stmt(c.Stmt, inner)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, sc)
	case *syntax.TestDecl:
		w.stmt(c.Body, sc)
	}
}

func (w *walker) loop(l syntax.Loop, sc scope) {
	switch l := l.(type) {
	case *syntax.WordIter:
		for _, item := range l.Items {
			w.substs(item, sc)
			w.listed(item, "for")
		}
	case *syntax.CStyleLoop:
		w.arith(l.Init, sc)
		w.arith(l.Cond, sc)
		w.arith(l.Post, sc)
	}
}

// redirect records the file a redirection writes or reads and walks the
// substitutions in its target and here-document body (an unquoted
// here-document delimiter leaves $(…) in the body to run).
func (w *walker) redirect(r *syntax.Redirect, sc scope) {
	if r.Word != nil {
		w.substs(r.Word, sc)
	}
	if r.Hdoc != nil {
		w.substs(r.Hdoc, sc)
	}
	if r.Word == nil {
		return
	}
	target := w.literal(r.Word)
	op := r.Op.String()
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob,
		syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob:
		w.addWrite(target, op)
	case syntax.DplOut:
		if !isFdDup(target) {
			w.addWrite(target, op)
		}
	case syntax.RdrInOut:
		w.addRead(target, op, false)
		w.addWrite(target, op)
	case syntax.RdrIn:
		w.addRead(target, op, false)
	}
}

var fdDup = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]+-?|-)$`) })

// isFdDup reports whether the target of >& names a file descriptor (2>&1,
// >&-) rather than a file (>&out.log, which bash treats as &>out.log).
func isFdDup(target word) bool {
	return !target.dynamic && fdDup().MatchString(target.text)
}

// harmlessSinks are write targets that are no file.
var harmlessSinks = map[string]bool{
	"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/fd/1": true, "/dev/fd/2": true,
}

// harmlessSources are read sources that are no file and reveal nothing.
var harmlessSources = map[string]bool{
	"/dev/null": true, "/dev/zero": true, "/dev/random": true, "/dev/urandom": true,
	"/dev/stdin": true, "/dev/fd/0": true, "-": true,
}

func (w *walker) addWrite(target word, op string) {
	if !target.dynamic && harmlessSinks[target.text] {
		return
	}
	w.st.res.Writes = append(w.st.res.Writes, Write{Path: target.text, Dynamic: target.dynamic, Globs: target.globs, Op: op, Span: w.report(target.span)})
}

func (w *walker) addRead(target word, op string, recursive bool) {
	if !target.dynamic && harmlessSources[target.text] {
		return
	}
	w.st.res.Reads = append(w.st.res.Reads, Read{Path: target.text, Dynamic: target.dynamic, Globs: target.globs, Recursive: recursive, Op: op, Span: w.report(target.span)})
}

// substs walks the command substitutions, process substitutions and
// arithmetic expansions inside a word, wherever they are nested.
func (w *walker) substs(n syntax.Node, sc scope) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(node syntax.Node) bool {
		switch x := node.(type) {
		case *syntax.CmdSubst:
			w.stmts(x.Stmts, sc)
			return false
		case *syntax.ProcSubst:
			w.stmts(x.Stmts, sc)
			return false
		case *syntax.ArithmExp:
			w.arith(x.X, sc)
			return false
		case *syntax.ParamExp:
			w.paramExp(x, sc)
			return false
		}
		return true
	})
}

// paramExp walks a parameter expansion: its index and slice are
// arithmetic; its default, replacement and nested words may substitute.
func (w *walker) paramExp(p *syntax.ParamExp, sc scope) {
	w.arith(p.Index, sc)
	if p.Slice != nil {
		w.arith(p.Slice.Offset, sc)
		w.arith(p.Slice.Length, sc)
	}
	var words []*syntax.Word
	if p.Exp != nil {
		words = append(words, p.Exp.Word)
	}
	if p.Repl != nil {
		words = append(words, p.Repl.Orig, p.Repl.With)
	}
	for _, wd := range words {
		if wd != nil {
			w.substs(wd, sc)
		}
	}
	if p.NestedParam != nil {
		w.substs(p.NestedParam, sc)
	}
}

// arith walks an arithmetic expression. Bash evaluates the contents of a
// variable named in arithmetic as an expression in turn, and an array
// subscript in those contents can run a command (x='a[$(cmd)]'; $((x))),
// so a variable there is a hazard.
func (w *walker) arith(x syntax.ArithmExpr, sc scope) {
	if x == nil {
		return
	}
	flagged := false
	syntax.Walk(x, func(node syntax.Node) bool {
		switch n := node.(type) {
		case *syntax.CmdSubst:
			w.stmts(n.Stmts, sc)
			return false
		case *syntax.ProcSubst:
			w.stmts(n.Stmts, sc)
			return false
		case *syntax.ParamExp:
			if !flagged && !isSpecialParam(n) {
				flagged = true
				w.hazard(hazardArithmetic, x)
			}
		case *syntax.Lit:
			if !flagged && isName(n.Value) {
				flagged = true
				w.hazard(hazardArithmetic, x)
			}
		}
		return true
	})
}

// Reasons for hazards.
const (
	hazardArithmetic  = "arithmetic evaluates the contents of a variable as code, which can run commands"
	hazardAssignment  = "sets a variable that changes what later commands run or read"
	hazardEnvironment = "runs shell code in a changed environment or directory"
	hazardDeclaration = "declares a variable whose name or value is only known at run time"
)

func (w *walker) hazard(reason string, n syntax.Node) { w.hazardAt(reason, w.span(n)) }

func (w *walker) hazardAt(reason string, sp Span) {
	w.st.res.Hazards = append(w.st.res.Hazards, Hazard{Reason: reason, Source: w.text(sp), Span: w.report(sp)})
}

// isSpecialParam reports whether p is $#, $?, $$, $! or a positional
// parameter: values the command line cannot have filled with code.
func isSpecialParam(p *syntax.ParamExp) bool {
	if p.Param == nil || p.Index != nil || p.Exp != nil || p.Repl != nil || p.Slice != nil {
		return false
	}
	switch v := p.Param.Value; v {
	case "#", "?", "$", "!", "@", "*":
		return true
	default:
		return isDigits(v)
	}
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

var nameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

func isName(s string) bool { return nameRe().MatchString(s) }

// arithTestOps are the [[ ]] operators that evaluate their operands as
// arithmetic.
var arithTestOps = map[syntax.BinTestOperator]bool{
	syntax.TsEql: true, syntax.TsNeq: true, syntax.TsLeq: true,
	syntax.TsGeq: true, syntax.TsLss: true, syntax.TsGtr: true,
}

func (w *walker) test(x syntax.TestExpr, sc scope) {
	switch t := x.(type) {
	case *syntax.BinaryTest:
		if arithTestOps[t.Op] && (hasParam(t.X) || hasParam(t.Y)) {
			w.hazard(hazardArithmetic, t)
		}
		w.test(t.X, sc)
		w.test(t.Y, sc)
	case *syntax.UnaryTest:
		w.test(t.X, sc)
	case *syntax.ParenTest:
		w.test(t.X, sc)
	case *syntax.Word:
		w.substs(t, sc)
	}
}

func hasParam(x syntax.TestExpr) bool {
	found := false
	syntax.Walk(x, func(node syntax.Node) bool {
		switch n := node.(type) {
		case *syntax.ParamExp:
			found = true
		case *syntax.Lit:
			if isName(n.Value) {
				found = true
			}
		}
		return !found
	})
	return found
}

// decl handles declare, local, export, readonly and typeset: their values
// can hold substitutions, and exporting or setting a variable such as PATH
// changes what later commands run.
func (w *walker) decl(d *syntax.DeclClause, sc scope) {
	for _, a := range d.Args {
		w.assignSubsts(a, sc)
		w.arrayGlobs(a)
		if a.Name != nil && !safeBareAssignment(a.Name.Value) {
			w.hazard(hazardAssignment, a)
		}
		if a.Name != nil && a.Name.Value == globIgnore {
			w.st.res.GlobOptions = true
		}
		if a.Naked && a.Name == nil && a.Value != nil {
			if v := w.literal(a.Value); v.dynamic {
				w.hazard(hazardDeclaration, a)
			}
		}
	}
}

// listed records the paths a glob word lists where bash expands it outside
// a command's arguments (a for or select list, an array's elements): the
// names it matches reach the line as ls would show them, so they are reads.
func (w *walker) listed(wd *syntax.Word, op string) {
	if v := w.literal(wd); v.globs != nil {
		w.addRead(v, op, false)
	}
}

// arrayGlobs records the paths an array assignment's glob elements list.
func (w *walker) arrayGlobs(a *syntax.Assign) {
	if a.Array == nil || a.Name == nil {
		return
	}
	for _, e := range a.Array.Elems {
		if e.Value != nil {
			w.listed(e.Value, a.Name.Value+"=()")
		}
	}
}

func (w *walker) assignSubsts(a *syntax.Assign, sc scope) {
	if a.Index != nil {
		w.arith(a.Index, sc)
	}
	if a.Value != nil {
		w.substs(a.Value, sc)
	}
	if a.Array != nil {
		w.substs(a.Array, sc)
	}
}

func appendWrapper(list []string, wrapper string) []string {
	out := make([]string, 0, len(list)+1)
	out = append(out, list...)
	return append(out, wrapper)
}

// stdinOf returns the standard input the last input redirection of a
// statement gives it.
func (w *walker) stdinOf(redirs []*syntax.Redirect) stdinSource {
	var in stdinSource
	for _, r := range redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			body := w.hdocBody(r)
			in = stdinSource{code: &body}
		case syntax.WordHdoc:
			body := w.literal(r.Word)
			in = stdinSource{code: &body}
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
			in = stdinSource{file: true}
		}
	}
	return in
}

// hdocBody is the text of a here-document: taken as is when its delimiter
// is quoted, with $ \` \\ and newline escapes removed otherwise; any
// expansion in an unquoted body makes it dynamic.
func (w *walker) hdocBody(r *syntax.Redirect) word {
	if r.Hdoc == nil {
		return word{span: w.span(r)}
	}
	sp := w.span(r.Hdoc)
	dynamic := word{text: w.text(sp), dynamic: true, mayBeOption: true, span: sp}
	for _, part := range r.Hdoc.Parts {
		if _, ok := part.(*syntax.Lit); !ok {
			return dynamic
		}
	}
	quoted := r.Word != nil && (len(r.Word.Parts) != 1 || strings.Contains(r.Word.Lit(), "\\") || r.Word.Lit() == "")
	if quoted {
		return word{text: r.Hdoc.Lit(), span: sp}
	}
	body, err := expand.Document(&expand.Config{}, r.Hdoc)
	if err != nil {
		return dynamic
	}
	return word{text: body, span: sp}
}
