package prompt

import (
	"path/filepath"
	"testing"
)

func TestBuildTakesTheSessionsMemoryInsteadOfReadingItAgain(t *testing.T) {
	root := fixture(t)
	opts := fullOptions(root)
	h := testHost(filepath.Join(root, "home"))
	loaded := loadMemory(opts.Cwd, h.home, nil)
	read := build(opts, h)
	opts.Memory = &loaded
	if given := build(opts, h); given != read {
		t.Fatalf("the prompt built from the loaded memory differs from the one that read it:\n%s\n---\n%s", given, read)
	}
	// What the session loaded is used even when the files change afterwards.
	writeFile(t, filepath.Join(root, "proj", "CLAUDE.md"), "Changed after the session started.\n")
	if given := build(opts, h); given != read {
		t.Fatalf("the prompt read the memory files again:\n%s", given)
	}
	opts.Memory = &Memory{}
	if given := build(opts, h); given == read {
		t.Fatal("an empty Memory still put the files' text in the prompt")
	}
}
