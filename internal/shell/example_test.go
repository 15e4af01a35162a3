package shell_test

import (
	"fmt"

	"github.com/mini-claude/mini-claude/internal/shell"
)

// A permission engine walks every command, write and read of a line: here
// the cd is harmless, but python needs approval and the redirection is an
// edit of out.txt.
func ExampleAnalyze() {
	a, err := shell.Analyze(`cd src && timeout 60 python evil.py > out.txt`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range a.Commands {
		fmt.Printf("%-18q prefix=%q read-only=%v wrappers=%q\n", c.Source, c.Prefix, c.ReadOnly, c.Wrappers)
	}
	for _, w := range a.Writes {
		fmt.Printf("writes %s (%s) at column %d\n", w.Path, w.Op, w.Span.Col)
	}
	fmt.Println("cds:", a.Cds, "read-only:", a.ReadOnly)
	// Output:
	// "cd src"           prefix="cd" read-only=true wrappers=[]
	// "timeout 60 python evil.py" prefix="python" read-only=false wrappers=["timeout 60"]
	// writes out.txt (>) at column 39
	// cds: [src] read-only: false
}

// A line that does not parse is never run; the error says where and why.
func ExampleSyntaxError() {
	_, err := shell.Analyze(`echo "unclosed`)
	fmt.Println(err)
	// Output:
	// bash syntax error at line 1, column 6: reached EOF without closing quote `"`. The command was not run; fix the syntax (quotes, brackets, heredoc delimiters) and try again.
}
