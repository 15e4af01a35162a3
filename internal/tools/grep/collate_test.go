package grep

import (
	"slices"
	"testing"
)

func TestCompareUTF16(t *testing.T) {
	// U+FF5E is one UTF-16 unit, above the surrogate that starts U+1F600:
	// JavaScript puts the emoji first, byte order puts it last.
	if compareUTF16("\U0001F600", "\uFF5E") >= 0 {
		t.Error("a character beyond U+FFFF must sort before U+FF5E, as in JavaScript")
	}
	if compareUTF16("B", "a") >= 0 || compareUTF16("a", "ab") >= 0 || compareUTF16("x", "x") != 0 {
		t.Error("ASCII order is code unit order")
	}
}

func TestUTF16Len(t *testing.T) {
	if utf16Len("aé\U0001F600") != 4 {
		t.Errorf("utf16Len = %d, want 4", utf16Len("aé\U0001F600"))
	}
}

func TestDecodeUTF8(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ok é", "ok é"},
		{"caf\xe9", "caf\uFFFD"},
		{"\xe2\x82x", "\uFFFDx"},
		{"\xe2\x82", "\uFFFD"},
		{"\xe0\x80", "\uFFFD\uFFFD"},
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"\xf0\x9f\x98", "\uFFFD"},
		{"\xff\xfe", "\uFFFD\uFFFD"},
		{"\uFFFD", "\uFFFD"},
	}
	for _, tt := range tests {
		if got := decodeUTF8([]byte(tt.in)); got != tt.want {
			t.Errorf("decodeUTF8(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestLocaleCompare checks against the order ICU (Node's localeCompare) gives.
func TestLocaleCompare(t *testing.T) {
	icu := []string{"_x.txt", "~y.txt", "a b.txt", "a_b.txt", "a-b.txt", "a.txt", "A.txt", "ä.txt",
		"b1.txt", "b10.txt", "b2.txt", "ea.txt", "Éa.txt", "z.TXT", "Z.txt"}
	shuffled := slices.Clone(icu)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, localeCompare)
	if !slices.Equal(shuffled, icu) {
		t.Errorf("sorted %q\nwant    %q", shuffled, icu)
	}
	printable := " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789"
	for i := 1; i < len(printable); i++ {
		if localeCompare(printable[i-1:i], printable[i:i+1]) >= 0 {
			t.Errorf("%q should sort before %q", printable[i-1], printable[i])
		}
	}
}

func TestCollationKeyOrdersAsLocaleCompare(t *testing.T) {
	words := []string{"_x.txt", "~y.txt", "a b.txt", "a_b.txt", "a-b.txt", "a.txt", "A.txt", "ä.txt", "b1.txt", "b10.txt",
		"b2.txt", "ea.txt", "Éa.txt", "z.TXT", "Z.txt", "a", "A", "ab", "é", "日本", "\x01", "", "aB", "Ab"}
	for _, a := range words {
		for _, b := range words {
			want := localeCompare(a, b)
			got := slices.Compare(collationKey(a), collationKey(b))
			if (want < 0) != (got < 0) || (want > 0) != (got > 0) {
				t.Errorf("%q vs %q: key order %d, localeCompare %d", a, b, got, want)
			}
		}
	}
}

func TestCompareUTF16Prefixes(t *testing.T) {
	tests := []struct {
		a, b string
		sign int
	}{
		{"src/a.go", "src/a.go", 0}, {"src/a", "src/a.go", -1}, {"src/b", "src/a.go", 1},
		{"dir/é.txt", "dir/z.txt", 1}, {"dir/\U0001F600", "dir/\uFF5E", -1}, {"é", "éa", -1},
	}
	for _, tt := range tests {
		if got := compareUTF16(tt.a, tt.b); (got < 0) != (tt.sign < 0) || (got > 0) != (tt.sign > 0) {
			t.Errorf("compareUTF16(%q, %q) = %d, want sign %d", tt.a, tt.b, got, tt.sign)
		}
	}
}
