package shell

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Analysis is everything the permission engine and the Bash tool need to know
// about a command line, derived from its syntax tree without running it.
type Analysis struct {
	// Source is the command line as analysed.
	Source string
	// Commands lists every simple command the line can execute, in the
	// order they start (a substitution before the command it fills in),
	// including those inside substitutions, subshells, control flow,
	// function bodies, wrappers (env, timeout, sudo, xargs, find -exec) and
	// the strings given to bash -c, sh -c and eval.
	Commands []Command
	// ReadOnly is true when every command only reads, searches or lists,
	// nothing is written and there is no hazard. Such a line may run without
	// a prompt and in parallel with other read-only calls.
	ReadOnly bool
	// Writes lists the files the line writes: redirection targets (other
	// than /dev/null and fd duplications) and the targets of commands known
	// to create, change or remove files (touch, cp, mv, rm, tee, sed -i …).
	Writes []Write
	// Reads lists the files the line reads through input redirections
	// (cat < .env) and the file operands of read-only commands (cat .env),
	// and the paths globs list in for lists and array elements (for f in
	// private/*), whose names the line then holds.
	Reads []Read
	// Cds lists the targets of cd and pushd in source order, after quote
	// removal ("~" for a bare cd, "-" for cd -); a target that depends on
	// expansion is recorded as written and sets CwdUnknown.
	Cds []string
	// CwdUnknown is set when some command moves to a directory that cannot
	// be known statically (cd "$dir", popd): relative paths after it cannot
	// be resolved.
	CwdUnknown bool
	// Dynamic is true when some command name, or some code run through
	// eval/bash -c, cannot be known without running the line.
	Dynamic bool
	// GlobOptions is set when the line may change how bash expands globs
	// (shopt, a GLOBIGNORE assignment, set -f): Globs, which assume bash's
	// default options, may then miss matches.
	GlobOptions bool
	// Hazards are the parts of the line that are no command but keep it
	// from being read-only: a PATH=… assignment, arithmetic on a variable.
	Hazards []Hazard
}

// Hazard is a part of a command line, other than a command, that can change
// what later commands run or run code itself.
type Hazard struct {
	// Reason says what it can do, for a permission prompt.
	Reason string
	// Source is its text as written; Span locates it in Analysis.Source.
	Source string
	Span   Span
}

// Command is one simple command as it would be executed.
type Command struct {
	// Args is the command line after quote removal and after any wrappers
	// (env, timeout, sudo, xargs …) are stripped: Args[0] is the program.
	// A word that depends on expansion (variables, globs, substitutions) is
	// recorded as written in the source.
	Args []string
	// Assigns are the VAR=value words written before the command or given
	// to an env or sudo wrapper, as written.
	Assigns []string
	// Wrappers are the commands that run this one, outermost first, each as
	// its words joined by spaces: "sudo -u bob", "timeout 5", "xargs -0",
	// "find . -exec", "bash -c".
	Wrappers []string
	// Prefix is the command name plus its subcommand words, skipping flags,
	// as a Claude Code prefix rule ("Bash(git commit:*)") matches it: see
	// CommandPrefix. The name stays as written (/bin/rm); see Program.
	Prefix string
	// ReadOnly is true when this command, with these options, only reads,
	// searches or lists, and nothing in its environment changes that.
	ReadOnly bool
	// Plain is true when the command runs just as Args say: no assignment
	// outside the harmless list (PATH=…, LD_PRELOAD=…), no sudo, no
	// arguments added by xargs, no env -C, no changed environment around the
	// bash -c that runs it. Allow rules may match a plain command by Prefix
	// and Args; one that is not plain must be asked about unless a rule
	// names its wrappers and assignments too. Deny rules match Prefix and
	// Args either way.
	Plain bool
	// Elevated is true when the command runs with raised privileges (sudo,
	// doas, pkexec).
	Elevated bool
	// Dynamic is true when the program run cannot be known statically: its
	// name contains an expansion or glob, or it runs a string that does.
	Dynamic bool
	// Globs holds, at the index of each word of Args that is a glob or brace
	// list and expands no other way, the patterns bash matches against the
	// file system for it (see Read.Globs); nil when no word is.
	Globs [][]string
	// Source is the text of the simple command as written, wrappers and
	// assignments included; for commands found inside a bash -c or eval
	// string it is the text within that string.
	Source string
	// Span locates the command in Analysis.Source; for commands inside a
	// bash -c or eval string it locates that string argument.
	Span Span
}

// String renders the command's words joined by spaces, as a rule matches it.
func (c Command) String() string { return strings.Join(c.Args, " ") }

// Program is the base name of the program run (rm for /bin/rm), the name a
// deny rule on the command must also be matched against.
func (c Command) Program() string {
	if len(c.Args) == 0 {
		return ""
	}
	return path.Base(c.Args[0])
}

// Write is a file a command line writes.
type Write struct {
	// Path is the target as written after quote removal; a leading "~" is
	// left for the consumer to expand. Dynamic paths are recorded as written;
	// the path is empty when the line does not name it at all (xargs rm).
	Path string
	// Dynamic is true when the path depends on expansion or a glob.
	Dynamic bool
	// Globs are the patterns a dynamic path expands from (see Read.Globs).
	Globs []string
	// Op is the redirection operator (">", ">>", "&>", "&>>", ">|", "<>") or
	// the prefix of the command that writes ("tee", "cp", "sed", "rm").
	Op string
	// Span locates the path as written (redirection target or operand).
	Span Span
}

// Read is a file a command line reads.
type Read struct {
	// Path is the file as written after quote removal (see Write.Path).
	Path string
	// Dynamic is true when the path depends on expansion or a glob.
	Dynamic bool
	// Globs are the patterns bash matches against the file system for a
	// dynamic path whose only expansions are globs and brace lists: one per
	// word the brace expansion gives, quoted and escaped characters
	// backslash-escaped, a leading unquoted ~ left as is. ExpandGlob expands
	// one. Nil for a static path and for one that depends on anything else
	// (a variable, a substitution, an extended glob): that one is unknown.
	Globs []string
	// Recursive is true when the command reads the whole tree under the
	// path (grep -r, rg, find, du, ls -R), not just the path itself.
	Recursive bool
	// Op is "<" for an input redirection, the reading command's prefix,
	// "for" for a for or select list, or "NAME=()" for an array's elements.
	Op string
	// Span locates the path as written (redirection target or operand).
	Span Span
}

// Span is a region of the analysed source: byte offsets [Start, End) and the
// 1-based line and column of Start.
type Span struct {
	Start, End int
	Line, Col  int
}

// SyntaxError reports a command line bash cannot parse; the command was not run.
type SyntaxError struct {
	Line, Col int
	// Problem is the parser's description ("reached EOF without closing quote '").
	Problem string
	// Incomplete is true when the line ends too early (an unclosed quote,
	// bracket or heredoc) rather than containing a wrong token.
	Incomplete bool
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("bash syntax error at line %d, column %d: %s. The command was not run; fix the syntax (quotes, brackets, heredoc delimiters) and try again.",
		e.Line, e.Col, e.Problem)
}

// Analyze parses command as bash and derives its Analysis. A command that
// does not parse returns a *SyntaxError and no analysis.
func Analyze(command string) (*Analysis, error) {
	file, err := parse(command)
	if err != nil {
		return nil, err
	}
	w := newWalker(command)
	w.stmts(file.Stmts, scope{})
	return w.finish(), nil
}

func parse(command string) (*syntax.File, error) {
	parser := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(false))
	file, err := parser.Parse(strings.NewReader(command), "")
	if err == nil {
		return file, nil
	}
	var perr syntax.ParseError
	if errors.As(err, &perr) {
		return nil, &SyntaxError{Line: int(perr.Pos.Line()), Col: int(perr.Pos.Col()), Problem: perr.Text, Incomplete: perr.Incomplete}
	}
	var lerr syntax.LangError
	if errors.As(err, &lerr) {
		return nil, &SyntaxError{Line: int(lerr.Pos.Line()), Col: int(lerr.Pos.Col()), Problem: lerr.Error()}
	}
	return nil, &SyntaxError{Line: 1, Col: 1, Problem: err.Error()}
}
