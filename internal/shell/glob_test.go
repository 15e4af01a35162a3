package shell

import (
	"slices"
	"strings"
	"testing"
)

// TestGlobPatternsFollowQuoting proves that a glob word becomes patterns in
// which only the unquoted *, ? and [ are special, one per brace expansion
// word, and that a word expanding any other way gives none (it stays
// unknown).
func TestGlobPatternsFollowQuoting(t *testing.T) {
	for _, tc := range []struct {
		cmd   string
		globs [][]string // per read, then per write
	}{
		{`cat priv*/notes.txt`, [][]string{{"priv*/notes.txt"}}},
		{`cat p?ivate/[nN]otes.txt`, [][]string{{"p?ivate/[nN]otes.txt"}}},
		{`cat "priv"*/x`, [][]string{{`\p\r\i\v*/x`}}},
		{`cat 'a*'*`, [][]string{{`\a\**`}}},
		{`cat a\*b*`, [][]string{{`a\*b*`}}},
		{`cat "a/b"*`, [][]string{{`\a/\b*`}}},
		{`cat $'a\tb'*`, [][]string{{"\\a\\\t\\b*"}}},
		{`cat ~/pr*`, [][]string{{"~/pr*"}}},
		{`cat "~"/pr*`, [][]string{{`\~/pr*`}}},
		{`cat {a,b}*.txt`, [][]string{{"a*.txt", "b*.txt"}}},
		{`cat {priv,pub}/x`, [][]string{{"priv/x", "pub/x"}}},
		{`cat x{1..3}*`, [][]string{{"x1*", "x2*", "x3*"}}},
		{`cat {a,"b*"}?`, [][]string{{"a?", `\b\*?`}}},
		{`cat {"/etc/passwd",x}`, [][]string{{`/\e\t\c/\p\a\s\s\w\d`, "x"}}},
		{`cat {'priv',"pub"}/x`, [][]string{{`\p\r\i\v/x`, `\p\u\b/x`}}},
		{`cat {1..2000}`, [][]string{nil}},
		{"cat " + strings.Repeat("{a,b}", maxBraceLists+1), [][]string{nil}},
		{`cat $x*`, [][]string{nil}},
		{`cat "$d"/*`, [][]string{nil}},
		{`cat $(ls)*`, [][]string{nil}},
		{`cat @(a|b)`, [][]string{nil}},
		{`cat !(x)`, [][]string{nil}},
		{`cat plain.txt`, [][]string{nil}},
		{`echo x > priv*/out`, [][]string{{"priv*/out"}}},
		{`cat < [p]riv*/in`, [][]string{{"[p]riv*/in"}}},
		{`rm -f priv*/x`, [][]string{{"priv*/x"}}},
		{`cp a priv*/`, [][]string{{"priv*/"}}},
		{`for f in priv*/* a; do echo "$f"; done`, [][]string{{"priv*/*"}}},
		{`select f in [p]riv*; do break; done`, [][]string{{"[p]riv*"}}},
		{`files=(priv*/* "$x"*); declare -a more=(pub*)`, [][]string{{"priv*/*"}, {"pub*"}}},
		{`git -C sub show HEAD -- src*.go`, [][]string{{`\s\u\b/src*.go`}}},
		{`git -C "x$d" show HEAD -- src*.go`, [][]string{nil}},
	} {
		a, err := Analyze(tc.cmd)
		if err != nil {
			t.Fatalf("Analyze(%q): %v", tc.cmd, err)
		}
		var got [][]string
		for _, r := range a.Reads {
			got = append(got, r.Globs)
		}
		for _, w := range a.Writes {
			got = append(got, w.Globs)
		}
		if !slices.EqualFunc(got, tc.globs, slices.Equal) {
			t.Errorf("%q: globs %q, want %q", tc.cmd, got, tc.globs)
		}
	}
}

// TestCommandGlobsMarkGlobArguments proves that every glob argument of any
// command, read-only or not, carries its patterns, so that a protected file
// it matches is found whatever the command.
func TestCommandGlobsMarkGlobArguments(t *testing.T) {
	for _, tc := range []struct {
		cmd   string
		globs [][]string
	}{
		{`less priv*/notes.txt`, [][]string{nil, {"priv*/notes.txt"}}},
		{`python x.py a*`, [][]string{nil, nil, {"a*"}}},
		{`ls -la`, nil},
		{`find . -exec cat {}* \;`, nil},
	} {
		a, err := Analyze(tc.cmd)
		if err != nil {
			t.Fatalf("Analyze(%q): %v", tc.cmd, err)
		}
		last := a.Commands[len(a.Commands)-1]
		if !slices.EqualFunc(last.Globs, tc.globs, slices.Equal) {
			t.Errorf("%q: %q globs %q, want %q", tc.cmd, last.String(), last.Globs, tc.globs)
		}
	}
}

// TestGlobOptionsAreNoticed proves that a line that may change how bash
// globs says so, and that the usual set options do not.
func TestGlobOptionsAreNoticed(t *testing.T) {
	for cmd, want := range map[string]bool{
		`shopt -s dotglob; cat *`:                  true,
		`shopt -s globstar; cat **/x`:              true,
		`bash -c 'shopt -s nocaseglob; cat P*'`:    true,
		`GLOBIGNORE=x; cat *`:                      true,
		`GLOBIGNORE=x cat *`:                       true,
		`env GLOBIGNORE=x cat *`:                   true,
		`export GLOBIGNORE=x; cat *`:               true,
		`set -f; cat *`:                            true,
		`set -euf; cat *`:                          true,
		`set -o noglob; cat *`:                     true,
		`set -euo pipefail; cat *`:                 false,
		`cat *`:                                    false,
		`echo shopt; ls`:                           false,
		`FOO=1; set -x; cat "GLOBIGNORE" notes.md`: false,
	} {
		a, err := Analyze(cmd)
		if err != nil {
			t.Fatalf("Analyze(%q): %v", cmd, err)
		}
		if a.GlobOptions != want {
			t.Errorf("%q: GlobOptions = %v, want %v", cmd, a.GlobOptions, want)
		}
	}
}

// TestQuoteAndUnescapeGlob proves that quoting and unescaping are inverse,
// and that a quoted name is no pattern.
func TestQuoteAndUnescapeGlob(t *testing.T) {
	for _, s := range []string{"plain", "a*b?c[d]", `back\slash`, "dir/sub/é", "~home", ""} {
		q := quoteGlob(s)
		if unescapeGlob(q) != s {
			t.Errorf("unescapeGlob(quoteGlob(%q)) = %q", s, unescapeGlob(q))
		}
		for _, comp := range strings.Split(q, "/") {
			if hasGlobMeta(comp) {
				t.Errorf("quoteGlob(%q) = %q has a pattern", s, q)
			}
		}
	}
}
