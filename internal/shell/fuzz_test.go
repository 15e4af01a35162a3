package shell

import (
	"errors"
	"strings"
	"testing"
)

// FuzzAnalyze checks that Analyze never panics and that what it returns is
// consistent: spans inside the source, no command without a name, read-only
// only when nothing is written, no program named by a path read-only, glob
// patterns only on dynamic paths (and expandable without a panic), syntax
// errors with a position.
func FuzzAnalyze(f *testing.F) {
	for _, tc := range analysisCases {
		f.Add(tc.cmd)
	}
	f.Add("bash -c \"sh -c 'eval \\\"rm x\\\"'\"")
	f.Add("cat <<-EOF | bash\n\tls $(pwd)\n\tEOF\n")
	f.Add("for ((i=0; i<3; i++)); do echo ${a[i]}; done")
	f.Add(`cat {priv,"pub"}*/[!.]x?[[:alpha:]] > o{1..3}/\*.txt; ./ls; timeout 5 bin/cat .*`)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src string) {
		a, err := Analyze(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Analyze(%q) error %T %v is no *SyntaxError", src, err, err)
			}
			if se.Line < 0 || se.Col < 0 || se.Error() == "" {
				t.Fatalf("Analyze(%q): bad syntax error %+v", src, se)
			}
			return
		}
		inside := func(sp Span) bool { return sp.Start >= 0 && sp.Start <= sp.End && sp.End <= len(src) }
		for _, c := range a.Commands {
			if len(c.Args) == 0 || c.Prefix == "" && c.Args[0] != "" {
				t.Fatalf("Analyze(%q): command without a name or prefix: %+v", src, c)
			}
			if !inside(c.Span) {
				t.Fatalf("Analyze(%q): span %+v outside the source", src, c.Span)
			}
			if c.ReadOnly && (c.Dynamic || c.Elevated) || c.Plain && (c.Dynamic || c.Elevated) {
				t.Fatalf("Analyze(%q): dynamic or elevated command %+v judged read-only or plain", src, c)
			}
			if c.ReadOnly && strings.Contains(c.Args[0], "/") {
				t.Fatalf("Analyze(%q): %q named by a path judged read-only", src, c.Args[0])
			}
		}
		for _, w := range a.Writes {
			if !inside(w.Span) {
				t.Fatalf("Analyze(%q): write span %+v outside the source", src, w.Span)
			}
			checkGlobs(t, src, dir, w.Dynamic, w.Globs)
		}
		for _, r := range a.Reads {
			if !inside(r.Span) {
				t.Fatalf("Analyze(%q): read span %+v outside the source", src, r.Span)
			}
			checkGlobs(t, src, dir, r.Dynamic, r.Globs)
		}
		if a.ReadOnly && (len(a.Writes) > 0 || a.Dynamic) {
			t.Fatalf("Analyze(%q): read-only with writes %v or dynamic commands", src, a.Writes)
		}
	})
}

// checkGlobs fails when a static path has glob patterns, and expands each
// pattern in dir, which must not panic.
func checkGlobs(t *testing.T, src, dir string, dynamic bool, globs []string) {
	if len(globs) > 0 && !dynamic {
		t.Fatalf("Analyze(%q): static path with globs %q", src, globs)
	}
	for _, p := range globs {
		if paths, err := ExpandGlob(p, dir); err == nil && len(paths) == 0 {
			t.Fatalf("Analyze(%q): %q expands to nothing, not even itself", src, p)
		}
	}
}

// BenchmarkAnalyze measures the analysis of a typical agent command.
func BenchmarkAnalyze(b *testing.B) {
	const cmd = `cd /repo/service && git status --short && go test ./... -run 'TestFoo|TestBar' 2>&1 | tail -n 20`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Analyze(cmd); err != nil {
			b.Fatal(err)
		}
	}
}
