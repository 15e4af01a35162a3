package shell

import (
	"slices"
	"testing"
)

// TestPathQualifiedNamesAreNeverReadOnly proves that a command name written
// as a path runs as an unknown program: ./ls is the folder's file named ls,
// not the read-only ls, however it is reached (directly, behind a wrapper,
// from find -exec or xargs), and a wrapper or shell named by a path makes
// what it runs unknown too. Writers named by a path still report their
// targets, for the deny rules.
func TestPathQualifiedNamesAreNeverReadOnly(t *testing.T) {
	for _, tc := range []struct {
		cmd      string
		commands []string
		writes   []string
		// readOnly lists the commands that are read-only: plain ones
		// around the qualified one.
		readOnly []string
	}{
		{cmd: `./ls -la`, commands: []string{"./ls -la"}},
		{cmd: `bin/cat notes.txt`, commands: []string{"bin/cat notes.txt"}},
		{cmd: `../x/grep foo a.txt`, commands: []string{"../x/grep foo a.txt"}},
		{cmd: `/tmp/evil/ls`, commands: []string{"/tmp/evil/ls"}},
		{cmd: `/usr/bin/ls -la`, commands: []string{"/usr/bin/ls -la"}},
		{cmd: `"$PWD"/ls`, commands: []string{`"$PWD"/ls`}},
		{cmd: `./git status`, commands: []string{"./git status"}},
		{cmd: `/usr/bin/git log`, commands: []string{"/usr/bin/git log"}},
		{cmd: `./echo hi`, commands: []string{"./echo hi"}},
		{cmd: `./cd sub && ls`, commands: []string{"./cd sub", "ls"}, readOnly: []string{"ls"}},
		{cmd: `./find . -name x`, commands: []string{"./find . -name x"}},
		{cmd: `timeout 5 ./ls`, commands: []string{"./ls"}},
		{cmd: `env ./ls`, commands: []string{"./ls"}},
		{cmd: `env LANG=C ./ls`, commands: []string{"./ls"}},
		{cmd: `nice ./ls`, commands: []string{"./ls"}},
		{cmd: `nice -n 5 bin/cat x`, commands: []string{"bin/cat x"}},
		{cmd: `command ./ls`, commands: []string{"./ls"}},
		{cmd: `exec ./ls`, commands: []string{"./ls"}},
		{cmd: `ls | xargs ./cat`, commands: []string{"ls", "./cat"}, readOnly: []string{"ls"}},
		{cmd: `find . -exec ./x {} \;`, commands: []string{"find . -exec", "./x {}"}, readOnly: []string{"find . -exec"}},
		{cmd: `find . -exec ./ls {} +`, commands: []string{"find . -exec", "./ls {}"}, readOnly: []string{"find . -exec"}},
		{cmd: `bash -c './ls'`, commands: []string{"./ls"}},
		{cmd: `./timeout 5 ls`, commands: []string{"ls"}},
		{cmd: `./env ls`, commands: []string{"ls"}},
		{cmd: `/usr/bin/env LANG=C ls`, commands: []string{"ls"}},
		{cmd: `./nice cat x`, commands: []string{"cat x"}},
		{cmd: `./bash -c 'git status'`, commands: []string{"git status"}},
		{cmd: `/bin/sh -c ls`, commands: []string{"ls"}},
		{cmd: `./eval ls`, commands: []string{"./eval ls"}},
		{cmd: `./alias ls=x`, commands: []string{"./alias ls=x"}},
		{cmd: `/bin/rm -f a`, commands: []string{"/bin/rm -f a"}, writes: []string{"a"}},
		{cmd: `./cp a b`, commands: []string{"./cp a b"}, writes: []string{"b"}},
		{cmd: `timeout 5 /bin/rm a`, commands: []string{"/bin/rm a"}, writes: []string{"a"}},
	} {
		a, err := Analyze(tc.cmd)
		if err != nil {
			t.Fatalf("Analyze(%q): %v", tc.cmd, err)
		}
		var commands, writes, readOnly []string
		for _, c := range a.Commands {
			commands = append(commands, c.String())
			if c.ReadOnly {
				readOnly = append(readOnly, c.String())
			}
		}
		for _, w := range a.Writes {
			writes = append(writes, w.Path)
		}
		if a.ReadOnly {
			t.Errorf("%q: the line is read-only", tc.cmd)
		}
		if !slices.Equal(commands, tc.commands) || !slices.Equal(writes, tc.writes) || !slices.Equal(readOnly, tc.readOnly) {
			t.Errorf("%q: commands %q writes %q read-only %q, want %q %q %q",
				tc.cmd, commands, writes, readOnly, tc.commands, tc.writes, tc.readOnly)
		}
	}
}

// TestBareNamesStayReadOnly is the control for the test above: the same
// commands without a path are read-only, directly and behind wrappers.
func TestBareNamesStayReadOnly(t *testing.T) {
	for _, cmd := range []string{
		`ls -la`, `cat notes.txt`, `grep foo a.txt`, `git status`, `timeout 5 ls`, `env LANG=C ls`,
		`nice ls`, `command ls`, `ls | xargs echo`, `find . -exec cat {} \;`, `bash -c 'git status'`, `eval ls`,
	} {
		a, err := Analyze(cmd)
		if err != nil {
			t.Fatalf("Analyze(%q): %v", cmd, err)
		}
		if !a.ReadOnly {
			t.Errorf("%q: not read-only", cmd)
		}
	}
}
