package prompt

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkBuild builds the full prompt from 40 directories below a repository
// root, with memory files scattered along the way: the cost start-up pays.
func BenchmarkBuild(b *testing.B) {
	root := b.TempDir()
	writeFile(b, filepath.Join(root, "home", "CLAUDE.md"), "user rules\n")
	writeFile(b, filepath.Join(root, "repo", ".git", "HEAD"), "ref: refs/heads/main\n")
	dir := filepath.Join(root, "repo")
	for i := range 40 {
		dir = filepath.Join(dir, fmt.Sprintf("d%02d", i))
		if i%10 == 0 {
			writeFile(b, filepath.Join(dir, "CLAUDE.md"), strings.Repeat(fmt.Sprintf("rule %d\n", i), 200))
		}
	}
	writeFile(b, filepath.Join(dir, "AGENTS.md"), "leaf rules\n")
	opts := fullOptions(root)
	opts.Cwd = dir
	h := testHost(filepath.Join(root, "home"))

	b.ReportAllocs()
	for b.Loop() {
		build(opts, h)
	}
}
