// Package shell is where bash command lines are understood and run.
//
// Analyze parses a line with mvdan.cc/sh (bash dialect) before anything runs
// and lists every simple command it would execute, however deeply nested:
// across operators, subshells, substitutions, control flow, functions,
// here-documents, wrappers (env, timeout, sudo, xargs, find -exec …) and the
// strings given to bash -c and eval. For each it gives the prefix a Claude
// Code permission rule matches and a read-only verdict decided per command
// and per option (a program named by a path, ./ls, is never read-only); for
// the line, the files written and read, the cd targets and the hazards that
// are no command. A path written as a glob or brace list carries the
// patterns bash matches, and ExpandGlob finds what they match on the file
// system as bash will. A line that does not parse is a *SyntaxError and must
// not run.
package shell
