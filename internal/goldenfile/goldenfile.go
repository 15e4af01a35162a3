// Package goldenfile checks test output against golden files under testdata/
// and rewrites them when the tests run with -update, for the formats a model
// or a user reads.
package goldenfile

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Updating reports whether the tests run with -update, for tests that write
// other expected files than through Check.
func Updating() bool { return *update }

// Check compares got with the golden file at path, or with -update writes got
// there, creating its folder.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run the test with -update if the change is intended):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
