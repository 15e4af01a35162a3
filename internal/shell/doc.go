// Package shell is where bash command lines are understood and run.
//
// Analyze parses a line with mvdan.cc/sh (bash dialect) before anything runs
// and lists every simple command it would execute, however deeply nested:
// across operators, subshells, substitutions, control flow, functions,
// here-documents, wrappers (env, timeout, sudo, xargs, find -exec …) and the
// strings given to bash -c and eval. For each it gives the prefix a Claude
// Code permission rule matches and a read-only verdict decided per command
// and per option; for the line, the files written and read, the cd targets
// and the hazards that are no command. A line that does not parse is a
// *SyntaxError and must not run.
package shell
