package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// envValue returns the value the run gives the variable name.
func (r *run) envValue(name string) string {
	for _, e := range r.env {
		if value, ok := strings.CutPrefix(e, name+"="); ok {
			return value
		}
	}
	return ""
}

func TestMemoryLinkToAKeyIsNotReadAndIsReported(t *testing.T) {
	r := newRun(t)
	key := filepath.Join(r.envValue("HOME"), ".ssh", "id_rsa")
	if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(key, filepath.Join(r.dir, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(r.dir, "AGENTS.md"), []byte("Always answer in French."), 0o644)
	r.srv.Push(text("ok"))
	out := r.exec("-p", "hello")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	warning := "Warning: memory file " + filepath.Join(r.dir, "CLAUDE.md") + " was not read: it is a link to " + key
	if strings.Count(out.stderr, warning) != 1 {
		t.Errorf("stderr %q, want one warning starting %q", out.stderr, warning)
	}
	system := r.srv.Requests()[0].System
	if strings.Contains(system, "PRIVATE KEY") || !strings.Contains(system, filepath.Join(r.dir, "CLAUDE.md")+" was not read") ||
		!strings.Contains(system, "Always answer in French.") {
		t.Errorf("the system prompt shows the key, or does not say CLAUDE.md was not read, or lacks AGENTS.md:\n%s", system)
	}
}
