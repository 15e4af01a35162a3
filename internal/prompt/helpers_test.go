package prompt

import (
	"os"
	"path/filepath"
	"testing"
)

// writeFile creates path, and its parent directories, holding content.
func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testHost is a fixed machine, so prompts do not depend on where tests run.
func testHost(home string) host {
	return host{platform: "linux", osVersion: "Linux 6.1.0-test", home: home}
}
