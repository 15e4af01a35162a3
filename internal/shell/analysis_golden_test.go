package shell

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
)

// TestAnalysisGolden pins the whole analysis of every command line of
// testdata/analysis_corpus.txt (the command lines of the tests, those of the
// permission corpus and hard quoting), so that a change to how words are read
// shows every decision it would change.
func TestAnalysisGolden(t *testing.T) {
	var sb strings.Builder
	for _, cmd := range loadAnalysisCorpus(t) {
		sb.WriteString("$ " + strconv.Quote(cmd) + "\n")
		a, err := Analyze(cmd)
		var se *SyntaxError
		switch {
		case errors.As(err, &se):
			sb.WriteString("  " + se.Error() + "\n")
		case err != nil:
			t.Fatalf("Analyze(%q): %v", cmd, err)
		default:
			writeAnalysis(&sb, a)
		}
	}
	goldenfile.Check(t, filepath.Join("testdata", "analysis.golden"), sb.String())
}

// loadAnalysisCorpus reads the Go-quoted command lines of the corpus,
// skipping blank lines and # comments.
func loadAnalysisCorpus(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "analysis_corpus.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cmd, err := strconv.Unquote(text)
		if err != nil {
			t.Fatalf("analysis_corpus.txt line %d: %v", line, err)
		}
		cmds = append(cmds, cmd)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// writeAnalysis writes each field of a that is set on a line of its own, an
// element of a list of commands, reads, writes or hazards on a line of its own.
func writeAnalysis(sb *strings.Builder, a *Analysis) {
	v := reflect.ValueOf(*a)
	for i := range v.NumField() {
		name, f := v.Type().Field(i).Name, v.Field(i)
		if name == "Source" || f.IsZero() {
			continue
		}
		if f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Struct {
			sb.WriteString("  " + name + ":\n")
			for j := range f.Len() {
				sb.WriteString("    ")
				writeValue(sb, f.Index(j))
				sb.WriteString("\n")
			}
			continue
		}
		sb.WriteString("  " + name + ": ")
		writeValue(sb, f)
		sb.WriteString("\n")
	}
}

// writeValue writes v compactly, leaving out the fields of a struct that are
// zero and quoting strings byte for byte.
func writeValue(sb *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		sb.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		sb.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int:
		sb.WriteString(strconv.Itoa(int(v.Int())))
	case reflect.Slice:
		if v.IsNil() {
			sb.WriteString("nil")
			return
		}
		sb.WriteString("[")
		for i := range v.Len() {
			if i > 0 {
				sb.WriteString(" ")
			}
			writeValue(sb, v.Index(i))
		}
		sb.WriteString("]")
	case reflect.Struct:
		sb.WriteString("{")
		sep := ""
		for i := range v.NumField() {
			if v.Field(i).IsZero() {
				continue
			}
			sb.WriteString(sep + v.Type().Field(i).Name + ":")
			writeValue(sb, v.Field(i))
			sep = " "
		}
		sb.WriteString("}")
	default:
		panic("writeValue: no rendering for " + v.Kind().String())
	}
}
