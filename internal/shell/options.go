package shell

import "strings"

// argv is a command's words with helpers to read its options the way GNU
// and BSD tools parse them.
type argv []word

// opts describes which options of a command take a value, so that the value
// is not mistaken for an operand: short letters and long names.
type opts struct {
	short string
	long  []string
}

// operands returns the words that are not options or option values,
// honouring "--".
func (a argv) operands(o opts) []word {
	var out []word
	for i := 1; i < len(a); i++ {
		t := a[i].text
		if a[i].dynamic || t == "-" || !strings.HasPrefix(t, "-") {
			out = append(out, a[i])
			continue
		}
		if t == "--" {
			return append(out, a[i+1:]...)
		}
		if strings.HasPrefix(t, "--") {
			if !strings.Contains(t, "=") && containsString(o.long, t) {
				i++
			}
			continue
		}
		if isDigits(t[1:]) {
			continue // head -5
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte(o.short, t[j]) >= 0 {
				if j == len(t)-1 {
					i++
				}
				break
			}
		}
	}
	return out
}

// has reports whether any short option letter in short, or any long option
// in long (bare, abbreviated or with =value), appears before "--".
func (a argv) has(short string, long ...string) bool {
	for _, w := range a[1:] {
		t := w.text
		if t == "--" {
			return false
		}
		if strings.HasPrefix(t, "--") {
			name, _, _ := strings.Cut(t, "=")
			for _, l := range long {
				if longMatch(name, l) {
					return true
				}
			}
			continue
		}
		if len(t) > 1 && t[0] == '-' && short != "" && strings.ContainsAny(t[1:], short) {
			return true
		}
	}
	return false
}

// values returns the values given to a short option letter or long option
// ("-o f", "-of", "--output f", "--output=f").
func (a argv) values(short byte, long string) []word {
	var out []word
	for i := 1; i < len(a); i++ {
		t := a[i].text
		if t == "--" {
			break
		}
		switch {
		case long != "" && longMatch(t, long) && i+1 < len(a):
			out = append(out, a[i+1])
			i++
		case long != "" && strings.Contains(t, "=") && longMatch(t[:strings.IndexByte(t, '=')], long):
			out = append(out, word{text: t[strings.IndexByte(t, '=')+1:], dynamic: a[i].dynamic, span: a[i].span})
		case short != 0 && len(t) >= 2 && t[0] == '-' && t[1] != '-':
			k := strings.IndexByte(t[1:], short)
			if k < 0 {
				continue
			}
			rest := t[k+2:]
			if rest != "" {
				out = append(out, word{text: rest, dynamic: a[i].dynamic, span: a[i].span})
			} else if i+1 < len(a) {
				out = append(out, a[i+1])
				i++
			}
		}
	}
	return out
}

// hasPrefixWord reports whether some word starts with one of the prefixes
// (for options like -fprint0 and --pre=cmd).
func (a argv) hasPrefixWord(prefixes ...string) bool {
	for _, w := range a[1:] {
		for _, p := range prefixes {
			if strings.HasPrefix(w.text, p) {
				return true
			}
		}
	}
	return false
}

func (a argv) contains(texts ...string) bool {
	for _, w := range a[1:] {
		if containsString(texts, w.text) {
			return true
		}
	}
	return false
}

// longMatch reports whether a long option as written names option: GNU
// getopt and git accept any unambiguous abbreviation (sort --out=f is
// sort --output=f), so every prefix of at least one letter counts.
func longMatch(written, option string) bool {
	return written == option || (len(written) >= 3 && strings.HasPrefix(written, "--") && strings.HasPrefix(option, written))
}
