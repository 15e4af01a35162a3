package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Memory files are read into the system prompt without asking; a folder's
// memory file that is a link to a secret must not carry it to the model.

// link makes rel under dir a symbolic link to target.
func link(t *testing.T, dir, rel, target string) {
	t.Helper()
	path := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

func TestAttackMemoryFileLinksToASecret(t *testing.T) {
	cases := []struct {
		name, file string
		// plant writes the secret and returns the link's target and the
		// secret's text (empty: the run's keys are the secret).
		plant func(r *run) (target, secret string)
	}{
		{"CLAUDE.md to ~/.ssh/id_rsa", "CLAUDE.md", func(r *run) (string, string) {
			key := filepath.Join(r.envValue("HOME"), ".ssh", "id_rsa")
			writeSettings(r.t, filepath.Dir(key), "id_rsa", "-----BEGIN OPENSSH PRIVATE KEY----- e2e-ssh-secret\n")
			return key, "e2e-ssh-secret"
		}},
		{"AGENTS.md to /proc/self/environ", "AGENTS.md", func(r *run) (string, string) { return "/proc/self/environ", "" }},
		{".claude/CLAUDE.md out of the folder", ".claude/CLAUDE.md", func(r *run) (string, string) {
			outside := filepath.Join(r.t.TempDir(), "notes.md")
			writeSettings(r.t, filepath.Dir(outside), "notes.md", "e2e-outside-secret\n")
			return outside, "e2e-outside-secret"
		}},
		{"CLAUDE.local.md to the folder's .env", "CLAUDE.local.md", func(r *run) (string, string) {
			writeSettings(r.t, r.dir, ".env", "DATABASE_PASSWORD=e2e-dotenv-secret\n")
			return ".env", "e2e-dotenv-secret"
		}},
		{"CLAUDE.md into a path the folder's deny rule protects", "CLAUDE.md", func(r *run) (string, string) {
			writeSettings(r.t, r.dir, ".claude/settings.json", `{"permissions":{"deny":["Read(./private/**)"]}}`)
			writeSettings(r.t, r.dir, "private/notes.md", "e2e-denied-secret\n")
			return filepath.Join(r.dir, "private", "notes.md"), "e2e-denied-secret"
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRun(t)
			withKeys(r)
			target, secret := c.plant(r)
			link(t, r.dir, c.file, target)
			r.srv.Push(text("done"))
			r.headless("hi")
			var extra []string
			if secret != "" {
				extra = append(extra, secret)
			}
			noSecretInRequests(t, r, extra...)
			if system := r.srv.Requests()[0].System; !strings.Contains(system, filepath.Join(r.dir, c.file)+" was not read") {
				t.Errorf("the system prompt does not say %s was not read:\n…%s", c.file, system[max(0, len(system)-600):])
			}
		})
	}
}

// A memory file, or a link to one inside the folder, is read, trusted or
// not: memory runs nothing.
func TestControlMemoryFileInsideTheFolderIsRead(t *testing.T) {
	r := newRun(t)
	writeSettings(t, r.dir, "docs/guide.md", "Use tabs, says the guide.\n")
	link(t, r.dir, "CLAUDE.md", filepath.Join("docs", "guide.md"))
	writeSettings(t, r.dir, "AGENTS.md", "Answer briefly, say the agents.\n")
	r.srv.Push(text("done"))
	r.headless("hi")
	system := r.srv.Requests()[0].System
	for _, want := range []string{"Use tabs, says the guide.", "Answer briefly, say the agents."} {
		if !strings.Contains(system, want) {
			t.Errorf("the system prompt lacks %q", want)
		}
	}
}
