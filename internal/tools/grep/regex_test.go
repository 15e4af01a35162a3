package grep

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

func TestTranslate(t *testing.T) {
	tests := []struct{ in, want string }{
		{`\d+`, `[` + unicodeDigit + `]+`},
		{`[\d_]`, `[` + unicodeDigit + `_]`},
		{`\W`, `[^` + unicodeWord + `]`},
		{`[^\s]`, `[^` + unicodeSpace + `]`},
		{`[\W]`, `[\W]`},
		{`[]\d]`, `[]` + unicodeDigit + `]`},
		{`[[:alpha:]\d]`, `[[:alpha:]` + unicodeDigit + `]`},
		{`\.\(\x41`, `\.\(\x41`},
		{`a\`, `a\`},
	}
	for _, tt := range tests {
		if got := translate(tt.in); got != tt.want {
			t.Errorf("translate(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCompile(t *testing.T) {
	tests := []struct {
		pattern         string
		ignoreCase      bool
		multiline       bool
		lit             string
		fold, pure      bool
		spans, vmFinder bool
	}{
		{pattern: "foo", lit: "foo", pure: true},
		{pattern: "foo(bar)+baz", lit: "foo"},
		{pattern: `\bfunction\s+\w+`, lit: "function", vmFinder: true},
		{pattern: "Kelvin", ignoreCase: true, lit: "elvin", fold: true},
		{pattern: "mask", ignoreCase: true, lit: "ma", fold: true},
		{pattern: "a|b"},
		{pattern: `foo\nbar`, multiline: true, spans: true},
		{pattern: `foo.bar`, multiline: true, lit: "foo", spans: true},
		{pattern: `foo`, multiline: true, lit: "foo", pure: true},
	}
	for _, tt := range tests {
		m, err := compile(tt.pattern, tt.ignoreCase, tt.multiline)
		if err != nil {
			t.Fatalf("%s: %v", tt.pattern, err)
		}
		_, isVM := m.re.(*vm)
		if m.spansLines != tt.spans || isVM != tt.vmFinder {
			t.Errorf("%s: spansLines %v, vm finder %v", tt.pattern, m.spansLines, isVM)
		}
		if !m.spansLines && (!strings.EqualFold(string(m.lit), tt.lit) || m.litFold != tt.fold || m.pure != tt.pure) {
			t.Errorf("%s: literal %q fold %v pure %v, want %q %v %v", tt.pattern, m.lit, m.litFold, m.pure, tt.lit, tt.fold, tt.pure)
		}
	}
}

func TestCompiledSemantics(t *testing.T) {
	tests := []struct {
		pattern, text string
		multiline     bool
		want          bool
	}{
		{`[^a]`, "\n", false, false},
		{`\s`, "\n", false, false},
		{`(?s).`, "\n", false, false},
		{`\d`, "٣", false, true},
		{`\w`, "é", false, true},
		{`\s`, "\u00a0", false, true},
		{`\s`, "\v", false, true},
		{`.`, "\xff", false, false},
		{`[^x]`, "\xe2\x82", false, false},
		{`\bfoo`, "ſfoo", false, false},
		{`\bfoo`, "\xfffoo", false, true},
		{`\Bx`, "\xffx", false, false},
		{`^b`, "a\nb", true, true},
		{`a.b`, "a\nb", true, true},
		{`[^x]b`, "a\nb", true, true},
	}
	for _, tt := range tests {
		m, err := compile(tt.pattern, false, tt.multiline)
		if err != nil {
			t.Fatalf("%s: %v", tt.pattern, err)
		}
		engine := m.re
		if tt.multiline {
			engine = m.iter
		}
		if got := len(engine.FindAllIndex([]byte(tt.text), -1)) > 0; got != tt.want {
			t.Errorf("%q on %q: match %v, want %v", tt.pattern, tt.text, got, tt.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	if _, err := compile(`foo\nbar`, false, false); err != errNewlineInPattern {
		t.Errorf("a line break outside multiline: %v", err)
	}
	_, err := compile("foo(", false, false)
	if err == nil || strings.Contains(err.Error(), "(?m") {
		t.Errorf("error %v should not show the flags we add", err)
	}
}

// TestVMAgreesWithRegexpOnASCII checks the vm against Go's regexp where the
// two must agree: on ASCII text, \b means the same and stepping one byte is
// stepping one character.
func TestVMAgreesWithRegexpOnASCII(t *testing.T) {
	patterns := []string{`foo`, `\bfo+\b`, `\B`, `a*`, `(a|ab)(c|bcd)(d*)`, `^x|y$`, `(?i)hello`, `\w+\s*=`, `[^ ]*`, `(?U)a+b?`,
		`a{2,3}`, `x?\b`, `\b`, `(?s)a.*b`, `^$`, `(a*)*`, `b|ab|abc`, `[[:punct:]]+`}
	alphabet := "ab cd=_x\ny.helo"
	rng := rand.New(rand.NewPCG(3, 5))
	for _, p := range patterns {
		tree, err := syntax.Parse("(?m)"+p, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		machine, err := newVM(tree)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile("(?m)" + p)
		for range 300 {
			b := make([]byte, rng.IntN(20))
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			if got, want := machine.FindIndex(b), re.FindIndex(b); !slices.Equal(got, want) {
				t.Fatalf("%q on %q: vm %v, regexp %v", p, b, got, want)
			}
			if got, want := machine.FindAllIndex(b, -1), re.FindAllIndex(b, -1); !slices.EqualFunc(got, want, slices.Equal[[]int]) {
				t.Fatalf("%q on %q: vm all %v, regexp all %v", p, b, got, want)
			}
		}
	}
}
