package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGeneratedFilesMatchThePinnedChroma(t *testing.T) {
	dir := t.TempDir()
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, pattern := range []string{"*_gen.go", "lexers/*"} {
		for _, root := range []string{dir, ".."} {
			matches, err := filepath.Glob(filepath.Join(root, pattern))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range matches {
				rel, _ := filepath.Rel(root, m)
				files = append(files, rel)
			}
		}
	}
	for _, rel := range files {
		fresh, err1 := readGenerated(filepath.Join(dir, rel))
		committed, err2 := readGenerated(filepath.Join("..", rel))
		if err1 != nil || err2 != nil || !bytes.Equal(fresh, committed) {
			t.Errorf("%s differs from what go generate ./internal/highlight writes (%v, %v)", rel, err1, err2)
		}
	}
}

// readGenerated reads a generated file, a lexer's definition uncompressed:
// the compressor's bytes change between Go releases, the XML does not.
func readGenerated(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return data, err
	}
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}
