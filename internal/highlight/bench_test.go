package highlight

import (
	"os"
	"testing"
)

// goSource is a real Go file of this repository, about 200 lines.
func goSource(b *testing.B) string {
	src, err := os.ReadFile("../render/diff.go")
	if err != nil {
		b.Fatal(err)
	}
	return string(src)
}

// BenchmarkColourGoFile colours a Go file with the Go lexer already loaded:
// the cost of each diff or code block drawn.
func BenchmarkColourGoFile(b *testing.B) {
	src := goSource(b)
	File("x.go", src)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if File("x.go", src) == nil {
			b.Fatal("not coloured")
		}
	}
}

// BenchmarkFirstGoFile colours a Go file with a lexer that has not run yet:
// the one-time cost of loading a language's definition on first use.
func BenchmarkFirstGoFile(b *testing.B) {
	src := goSource(b)
	entry := registry().Get("go").(*lazyLexer).entry
	for b.Loop() {
		if colour(&lazyLexer{entry: entry, registry: registry()}, src) == nil {
			b.Fatal("not coloured")
		}
	}
}
