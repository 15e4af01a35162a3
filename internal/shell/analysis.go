// Package shell analyses bash commands before they run and runs them. The
// analysis (Analyze) parses a command with mvdan.cc/sh and lists every simple
// command it would execute, however deeply nested, with the prefix a
// permission rule matches, the files it writes and reads through redirections
// and known writing commands, the directories it cds into, and whether the
// whole command only reads.
package shell

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Analysis is everything the permission engine and the Bash tool need to know
// about a command line, derived from its syntax tree without running it.
type Analysis struct {
	// Source is the command line as analysed.
	Source string
	// Commands lists every simple command the line can execute, in source
	// order, including those inside substitutions, subshells, control flow,
	// function bodies, wrappers (env, timeout, sudo, xargs, find -exec) and
	// the strings given to bash -c, sh -c and eval.
	Commands []Command
	// ReadOnly is true when every command only reads, searches or lists,
	// no redirection writes to a file, and nothing is dynamic enough to hide
	// a write. Such a command may run without a prompt and in parallel.
	ReadOnly bool
	// Writes lists the files the line writes: redirection targets (other
	// than /dev/null and fd duplications) and the targets of commands known
	// to create, change or remove files (touch, cp, mv, rm, tee, sed -i …).
	Writes []Write
	// Reads lists the files the line reads through input redirections
	// (cat < .env) and the file operands of read-only commands (cat .env).
	Reads []Read
	// Cds lists the targets of cd, pushd and popd in source order, as
	// written ("~" for a bare cd, "-" for cd -).
	Cds []string
	// Dynamic is true when some command name, or some code run through
	// eval/bash -c, cannot be known without running the line.
	Dynamic bool
}

// Command is one simple command as it would be executed.
type Command struct {
	// Args is the command line after quote removal and after any wrappers
	// (env, timeout, sudo, xargs …) are stripped: Args[0] is the program.
	// A word that depends on expansion (variables, globs, substitutions) is
	// recorded as written in the source.
	Args []string
	// Assigns are the VAR=value words written before the command (or set by
	// an env wrapper), as written.
	Assigns []string
	// Wrappers are the commands that run this one, outermost first, each as
	// its words joined by spaces: "sudo -u bob", "timeout 5", "xargs -0",
	// "find . -exec", "bash -c".
	Wrappers []string
	// Prefix is the command name plus its subcommand words, skipping flags,
	// as a Claude Code prefix rule ("Bash(git commit:*)") matches it: see
	// CommandPrefix.
	Prefix string
	// ReadOnly is true when this command, with these options, only reads,
	// searches or lists, and nothing in its environment changes that.
	ReadOnly bool
	// Dynamic is true when the program run cannot be known statically: its
	// name contains an expansion or glob, or it runs a string that does.
	Dynamic bool
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

// Write is a file a command line writes.
type Write struct {
	// Path is the target as written after quote removal; a leading "~" is
	// left for the consumer to expand. Dynamic paths are recorded as written.
	Path string
	// Dynamic is true when the path depends on expansion or a glob.
	Dynamic bool
	// Op is the redirection operator (">", ">>", "&>", "&>>", ">|", "<>") or
	// the command prefix that writes ("tee", "cp", "sed -i", "rm").
	Op string
	// Span locates the redirection or the operand in Analysis.Source.
	Span Span
}

// Read is a file a command line reads.
type Read struct {
	// Path is the file as written after quote removal (see Write.Path).
	Path string
	// Dynamic is true when the path depends on expansion or a glob.
	Dynamic bool
	// Op is "<" for an input redirection, or the reading command's prefix.
	Op string
	// Span locates the redirection or the operand in Analysis.Source.
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
