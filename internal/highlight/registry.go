package highlight

import (
	"compress/gzip"
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed lexers
var definitions embed.FS

// lexerEntry is a generated lexer definition: its file under lexers/ and the
// configuration that chooses it by name, alias or file name.
type lexerEntry struct {
	file   string
	config chroma.Config
}

// registry returns the registry of every generated lexer, built on first use
// from the static index; no definition is parsed until a lexer runs.
var registry = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	for i := range lexerIndex {
		reg.Register(&lazyLexer{entry: &lexerIndex[i], registry: reg})
	}
	return reg
})

// lazyLexer is a lexer known by its configuration whose definition is parsed
// the first time it tokenises.
type lazyLexer struct {
	entry    *lexerEntry
	registry *chroma.LexerRegistry
	once     sync.Once
	lexer    *chroma.RegexLexer
	err      error
}

// Config returns the configuration from the index.
func (l *lazyLexer) Config() *chroma.Config { return &l.entry.config }

// Tokenise loads the definition on first use and tokenises text with it.
func (l *lazyLexer) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	l.once.Do(func() {
		l.lexer, l.err = chroma.NewXMLLexer(gzipFS{definitions}, "lexers/"+strings.TrimSuffix(l.entry.file, ".gz"))
		if l.err == nil {
			l.lexer.SetRegistry(l.registry)
		}
	})
	if l.err != nil {
		return nil, l.err
	}
	return l.lexer.Tokenise(options, text)
}

// SetRegistry sets the registry sub-lexers are looked up in.
func (l *lazyLexer) SetRegistry(r *chroma.LexerRegistry) chroma.Lexer {
	l.registry = r
	return l
}

// SetAnalyser is ignored: lexers are chosen by file name and alias only.
func (l *lazyLexer) SetAnalyser(func(string) float32) chroma.Lexer { return l }

// AnalyseText scores nothing, for the same reason.
func (l *lazyLexer) AnalyseText(string) float32 { return 0 }

// gzipFS serves each gzipped definition under lexers/ by its name without
// ".gz", unpacked, as chroma's XML loader reads the file by that name.
type gzipFS struct{ fs.FS }

// Open opens name+".gz" and unpacks it as it is read.
func (g gzipFS) Open(name string) (fs.File, error) {
	f, err := g.FS.Open(name + ".gz")
	if err != nil {
		return nil, err
	}
	r, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("unpack %s: %w", name, err)
	}
	return &gzipFile{File: f, reader: r}, nil
}

// gzipFile is an open definition read through its decompressor.
type gzipFile struct {
	fs.File
	reader *gzip.Reader
}

// Read reads unpacked bytes.
func (f *gzipFile) Read(p []byte) (int, error) { return f.reader.Read(p) }
