package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadSmallFileRefusesWhatCouldHangOrExhaustIt(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.json")
	os.Symlink("/dev/zero", zero)
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, make([]byte, MaxFileBytes+1), 0o644)
	ok := filepath.Join(dir, "ok.json")
	os.WriteFile(ok, []byte(`{}`), 0o644)
	for path, want := range map[string]string{fifo: "not a regular file", zero: "not a regular file", big: "larger than"} {
		started := time.Now()
		_, err := ReadSmallFile(path)
		if err == nil || !strings.Contains(err.Error(), want) || time.Since(started) > time.Second {
			t.Errorf("%s: %v after %s, want %q at once", filepath.Base(path), err, time.Since(started), want)
		}
	}
	if data, err := ReadSmallFile(ok); err != nil || string(data) != "{}" {
		t.Errorf("a regular file: %q, %v", data, err)
	}
	if _, err := ReadSmallFile(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

// Load leaves out a settings file that is a FIFO or a link to /dev/zero,
// naming it, at once, and loads the others.
func TestLoadSkipsSettingsThatAreNotRegularFiles(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(HomeEnv, filepath.Join(home, ".mini-claude"))
	if err := os.MkdirAll(filepath.Join(cwd, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(cwd, ".claude", "settings.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(cwd, ".claude", "settings.local.json")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(cwd, ".mini-claude", "settings.json"), `{"model":"haiku"}`)
	var files []File
	var errs []error
	done := make(chan struct{})
	go func() {
		defer close(done)
		files, errs = Load(cwd)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Load did not return within 5s")
	}
	if len(files) != 1 || files[0].Model != "haiku" {
		t.Errorf("files = %+v, want only .mini-claude/settings.json", files)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "settings.json: not a regular file but a named pipe") ||
		!strings.Contains(errs[1].Error(), "settings.local.json: not a regular file but a device") {
		t.Errorf("errors = %v, want the FIFO and the device named", errs)
	}
}
