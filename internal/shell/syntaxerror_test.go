package shell

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestSyntaxErrorGolden pins the messages the model reads when its command
// does not parse.
func TestSyntaxErrorGolden(t *testing.T) {
	var sb strings.Builder
	for _, cmd := range []string{
		`echo "unterminated`,
		`echo 'unterminated`,
		`if true; then ls`,
		`for f in *; do echo $f`,
		`ls |`,
		`ls && `,
		"cat <<EOF\nno end",
		`echo $(date`,
		`echo ${x`,
		`)`,
		"ls\nfi",
		`case x in`,
		`a=(1 2`,
	} {
		_, err := Analyze(cmd)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("Analyze(%q) = %v, want a *SyntaxError", cmd, err)
		}
		sb.WriteString("$ " + strings.ReplaceAll(cmd, "\n", `\n`) + "\n" + se.Error() + "\n\n")
	}
	golden := filepath.Join("testdata", "syntax_errors.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if sb.String() != string(want) {
		t.Errorf("syntax error messages changed (run go test -update if intended):\n%s", sb.String())
	}
}
