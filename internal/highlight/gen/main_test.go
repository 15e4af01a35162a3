package main

import (
	"bytes"
	"os"
	"path/filepath"
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
		fresh, err1 := os.ReadFile(filepath.Join(dir, rel))
		committed, err2 := os.ReadFile(filepath.Join("..", rel))
		if err1 != nil || err2 != nil || !bytes.Equal(fresh, committed) {
			t.Errorf("%s differs from what go generate ./internal/highlight writes (%v, %v)", rel, err1, err2)
		}
	}
}
