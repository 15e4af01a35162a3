package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

func TestUpdateCreatesTheFileAndItsFolderWithItsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "record.json")
	err := Update(path, 0o600, func(old []byte) ([]byte, error) {
		if old != nil {
			t.Errorf("old = %q, want nil for a missing file", old)
		}
		return []byte("first"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("stat = %v, %v; want a file of mode 0600", info, err)
	}
}

func TestUpdateLeavesTheFileAloneOnErrUnchanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte("kept"), 0o644)
	if err := Update(path, 0o644, func([]byte) ([]byte, error) { return nil, ErrUnchanged }); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "kept" {
		t.Errorf("file = %q, want it unchanged", data)
	}
}

func TestUpdateSerialisesConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "counter")
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			Update(path, 0o644, func(old []byte) ([]byte, error) {
				n, _ := strconv.Atoi(string(old))
				return []byte(strconv.Itoa(n + 1)), nil
			})
		})
	}
	wg.Wait()
	if data, _ := os.ReadFile(path); string(data) != "20" {
		t.Errorf("counter = %s after 20 increments, want 20", data)
	}
}
