package grep

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeFixture writes the golden tree to the directory named, so Claude Code
// can be run on it (see testdata/claude-code/README.md).
var writeFixture = flag.String("write-fixture", "", "write the golden fixture tree to this directory and stop")

// epoch is the modification time of the oldest fixture file.
var epoch = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// entry is one file of the fixture: its content, its age in seconds after
// epoch, or the target when it is a symbolic link.
type entry struct {
	path, content string
	age           int
	link          string
}

func repeat(s string, n int) string { return strings.Repeat(s, n) }

// fixtureEntries is the tree the golden cases search. The working directory
// is cwd/, a git repository; outside/ is beside it and not in a repository.
func fixtureEntries() []entry {
	entries := []entry{
		{path: "cwd/.git/HEAD", content: "ref: refs/heads/main\n"},
		{path: "cwd/.gitignore", content: "ignored.txt\nnode_modules\n*.log\n"},
		{path: "cwd/a.txt", content: "hello world\nfoo bar\nanother foo line\nFOO upper\n", age: 10},
		{path: "cwd/b.txt", content: "nothing here\n", age: 50},
		{path: "cwd/ignored.txt", content: "foo ignored\n", age: 11},
		{path: "cwd/debug.log", content: "foo in a log\n", age: 12},
		{path: "cwd/node_modules/x/i.js", content: "foo nm\n", age: 13},
		{path: "cwd/.hidden/h.txt", content: "foo hidden\n", age: 40},
		{path: "cwd/link.txt", link: "a.txt"},
		{path: "cwd/src/main.go", content: "package main\n\nfunc foo() {}\n\nfunc bar() {\n\tfoo()\n}\n// x\n// y\n// z\nfunc baz() { foo() }\n", age: 30},
		{path: "cwd/src/app.js", content: "const foo = 1;\nlet x = foo + foo;\n", age: 31},
		{path: "cwd/src/app.ts", content: "const foo: number = 1;\n", age: 32},
		{path: "cwd/src/tool.py", content: "def foo():\n    pass\n", age: 33},
		{path: "cwd/src/sub/deep.txt", content: "foo\nfoo\nfoo\n", age: 20},
		{path: "cwd/docs/long.txt", content: repeat("x", 600) + " foo " + repeat("y", 100) + "\n", age: 1},
		{path: "cwd/docs/edge.txt", content: "short foo\n" + repeat("a", 499) + "foo\n", age: 2},
		{path: "cwd/docs/multi.txt", content: "start\nfoo\nmiddle\nend\n", age: 3},
		{path: "cwd/enc/crlf.txt", content: "one\r\ntwo hit\r\nthree\r\n", age: 60},
		{path: "cwd/enc/nonl.txt", content: "no newline hit", age: 61},
		{path: "cwd/enc/bin.dat", content: "bin hit\n\x00\x00\x00 more\n", age: 62},
		{path: "cwd/enc/bom8.txt", content: "\xef\xbb\xbfbom hit\n", age: 63},
		{path: "cwd/enc/bom16.txt", content: "\xff\xfeh\x00i\x00t\x00 \x00u\x00\n\x00", age: 64},
		{path: "cwd/enc/tab.txt", content: "hit\tx\n", age: 65},
		{path: "cwd/enc/latin1.txt", content: "caf\xe9 hit latin1\n", age: 66},
		{path: "cwd/enc/trailing.txt", content: "hit   \n\ttrailing tab hit\t\n", age: 67},
		{path: "cwd/u/uni.txt", content: "héllo wörld\nnaïve café\n٣ digits ٣\nplain words\n\u212Aelvin\nſtar\n", age: 70},
		{path: "cwd/m/multi.txt", content: "alpha\nbeta\ngamma\ndelta\nalpha\nbeta\n\nend\n", age: 71},
		{path: "cwd/o/o.txt", content: "foo bar foo\nbaz\nfoo\n", age: 72},
		{path: "cwd/pair/one.txt", content: "a\nb hit\nc\n", age: 73},
		{path: "cwd/pair/two.txt", content: "d\ne hit\nf\n", age: 74},
		{path: "cwd/l/exact500.txt", content: repeat("a", 500) + "\n", age: 80},
		{path: "cwd/l/over501.txt", content: repeat("a", 501) + "\n", age: 81},
		{path: "cwd/l/multibyte.txt", content: repeat("é", 300) + "a\n", age: 82},
		{path: "cwd/l/manymatch.txt", content: repeat("ab ", 200) + "\n", age: 83},
		{path: "cwd/l/context.txt", content: repeat("ctx ", 200) + "\nhit\nshort ctx\n", age: 84},
		{path: "cwd/late/late.txt", content: repeat("hit line\n", 12000) + "\x00tail hit\n" + repeat("hit after\n", 10), age: 90},
		{path: "cwd/late/explicit.txt", content: repeat("hit line\n", 9000) + "nul\x00hit here\n" + "hit after\n", age: 91},
		{path: "cwd/late/early.txt", content: "hit\n\x00", age: 92},
		{path: "outside/.gitignore", content: "x.txt\n"},
		{path: "outside/.ignore", content: "y.txt\n"},
		{path: "outside/x.txt", content: "hit\n", age: 100},
		{path: "outside/y.txt", content: "hit\n", age: 101},
		{path: "outside/d/o.py", content: "foo out\n", age: 102},
	}
	var sparse strings.Builder
	for i := 1; sparse.Len() < 130_700; i++ {
		fmt.Fprintf(&sparse, "line %05d filler text", i)
		if i%97 == 0 {
			sparse.WriteString(" hit")
		}
		sparse.WriteString("\n")
	}
	sparse.WriteString("\x00 binary tail hit\n")
	entries = append(entries, entry{path: "cwd/sparse/sparse.txt", content: sparse.String(), age: 93})
	var b strings.Builder
	for i := 1; i < 60; i++ {
		fmt.Fprintf(&b, "line %d", i)
		if i%7 == 0 {
			b.WriteString(" hit")
		}
		b.WriteString("\n")
	}
	entries = append(entries, entry{path: "cwd/ctx/ctx.txt", content: b.String(), age: 85})
	for i := 1; i <= 130; i++ {
		entries = append(entries, entry{path: fmt.Sprintf("cwd/many/f%03d.txt", i), content: fmt.Sprintf("foo %03d\n", i), age: 200 + (i*37)%130})
	}
	for _, name := range []string{"a-b.txt", "a_b.txt", "a b.txt", "A.txt", "a.txt", "b1.txt", "b10.txt", "b2.txt", "_x.txt", "~y.txt", "Éa.txt", "ea.txt", "z.TXT", "Z.txt", "ä.txt"} {
		entries = append(entries, entry{path: "cwd/ties/" + name, content: "tie\n", age: 400})
	}
	return entries
}

// buildFixture writes the fixture under root and returns the working directory.
func buildFixture(t testing.TB, root string) string {
	t.Helper()
	for _, e := range fixtureEntries() {
		full := filepath.Join(root, e.path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if e.link != "" {
			if err := os.Symlink(e.link, full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(full, []byte(e.content), 0o644); err != nil {
			t.Fatal(err)
		}
		when := epoch.Add(time.Duration(e.age) * time.Second)
		if err := os.Chtimes(full, when, when); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(root, "cwd")
}

func TestWriteFixture(t *testing.T) {
	if *writeFixture == "" {
		t.Skip("-write-fixture not given")
	}
	buildFixture(t, *writeFixture)
}
