package shell

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
)

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
	goldenfile.Check(t, golden, sb.String())
}
