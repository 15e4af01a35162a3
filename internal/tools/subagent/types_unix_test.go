//go:build unix

package subagent

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An agent type file that is a FIFO or a link to /dev/zero is reported and
// left out at once; the folder's other types still load.
func TestLoadTypesSkipsFilesThatAreNotRegular(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "good.md"), "---\nname: good\ndescription: fine\n---\nok")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.md")); err != nil {
		t.Fatal(err)
	}
	var types []Type
	var errs []error
	done := make(chan struct{})
	go func() {
		defer close(done)
		types, errs = LoadTypes([]string{dir})
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("LoadTypes did not return within 5s")
	}
	if got := strings.Join(Names(types), ","); got != "general-purpose,good" {
		t.Errorf("types %s, want the built-in and good", got)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "fifo.md: not a regular file but a named pipe") ||
		!strings.Contains(errs[1].Error(), "zero.md: not a regular file but a device") {
		t.Errorf("errors %v, want the FIFO and the device named", errs)
	}
}
