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
