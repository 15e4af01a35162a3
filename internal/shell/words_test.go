package shell

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// bashWords runs bash and returns the value it gives each word (shell source
// that expands to one word), in the UTF-8 locale.
func bashWords(t *testing.T, words []string) []string {
	t.Helper()
	var script strings.Builder
	for _, w := range words {
		script.WriteString("printf '%s\\0' " + w + "\n")
	}
	cmd := exec.Command("bash", "-c", script.String())
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	values := strings.Split(string(out), "\x00")
	if len(values) != len(words)+1 {
		t.Fatalf("bash gave %d values for %d words", len(values)-1, len(words))
	}
	return values[:len(words)]
}

// TestStaticWordsMatchBash proves the value the analysis gives a word that
// expands nothing against bash itself, for every kind of ANSI-C escape and
// quoting: a NUL, however it is written ($'\0', $'\x00', $'\c@', $'\400'),
// ends its $'...' string as it does in bash.
func TestStaticWordsMatchBash(t *testing.T) {
	words := []string{
		`$'\a\b\e\E\f\n\r\t\v\\\'\"\?'`,
		`$'\0'`, `$'\1'`, `$'\12'`, `$'\123'`, `$'\1234'`, `$'\400'`, `$'\500'`, `$'\777'`, `$'\4000'`, `$'\8'`, `$'a\0101'`,
		`$'\x'`, `$'\xg'`, `$'\x4'`, `$'\x41'`, `$'\x414'`, `$'\xFF'`, `$'\x4g'`, `$'\xc3\xa9'`, `$'\303\251'`,
		`$'\u'`, `$'\u4'`, `$'\u00e9'`, `$'\u00e9x'`, `$'\U0001F600'`, `$'\U'`, `$'\uZ'`, `$'\u123'`, `$'\U1F600'`,
		`$'\ud800'`, `$'\udfff'`, `$'\U110000'`, `$'\U001FFFFF'`, `$'\U00200000'`, `$'\U04000000'`, `$'\U7FFFFFFF'`,
		`$'\UFFFFFFFF'`, `$'a\UFFFFFFFFb'`, `$'r\U80000000m'`, `$'\u0000x'`, `$'\x00'`,
		`$'\cA'`, `$'\ca'`, `$'\cz'`, `$'\c'`, `$'x\c'`, `$'\c?'`, `$'\c@'`, `$'\c '`, `$'\c['`, `$'\c{'`, `$'\c_'`,
		`$'\c\\'`, `$'\c\\x'`, `$'\c\\\\'`, `$'\c\x41'`, `$'\c\n'`, `$'\c\''`, `$'\c"'`, `$'\c1'`, `$'\cé'`, `$'\c/'`,
		`$'\z'`, `$'\%'`, `$'\ '`, `$'\/'`, `$'\-'`,
		`$'a\x00b'c`, `x$'a\0b'y`, `$'r\x00m'`, `$'rm\0'`, `$'rm\c@x'`, `$'..\x00'`, `$'..\c@'`, `$'..\400'`,
		`$'x\c/../../etc/passwd'`, `$'a\'b'`, `$'a\\'`,
		`"a\$b"`, `"a\\b"`, `"a\b"`, `"a\"b"`, `"a\n"`, `"\é"`, `"\'"`, "\"a\\`b\"", "\"a\\\nb\"", `$"r\m"`,
		`'x'"y"z`, `x'y'"z"\w`, `'a\b'`, `a\ b`, `a\\b`, `a\"b`, `a\'b`, `a\$b`, `\é`, `\*.go`, `a\{b,c}`,
		"ec\\\nho", `x~`, `{a}`, `{"command":"false"}`,
	}
	want := bashWords(t, words)
	for i, w := range words {
		a, err := Analyze("echo " + w)
		if err != nil {
			t.Fatalf("Analyze(echo %s): %v", w, err)
		}
		if args := a.Commands[0].Args; len(args) != 2 || args[1] != want[i] {
			t.Errorf("%s: the analysis gives %q, bash %q", w, a.Commands[0].Args[1:], want[i])
		}
	}
}
