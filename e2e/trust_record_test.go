package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The trust record: kept in the user's folder, under the folder's real path,
// covering the folders inside it and nothing else; --trust holds for one run
// and `trust --revoke` goes back to untrusted.

// allowScript makes the folder allow its own script, evil.sh.
func allowScript(t *testing.T, dir string) {
	t.Helper()
	writeSettings(t, dir, ".claude/settings.json", `{"permissions":{"allow":["Bash(sh:*)"]}}`)
}

// scriptRan has the model run the folder's script (see runScript) in a run
// with args and reports whether it ran.
func (r *run) scriptRan(args ...string) bool {
	r.t.Helper()
	call, took := runScript(r)
	res, _ := r.callOnce(call, args...)
	return took(res)
}

func (r *run) trustList() string {
	r.t.Helper()
	out := r.exec("trust", "--list")
	if out.code != 0 {
		r.t.Fatalf("trust --list: exit %d: %s", out.code, out.stderr)
	}
	return out.stdout
}

func TestControlTrustThenRevokeGoesBackToUntrusted(t *testing.T) {
	r := newRun(t)
	allowScript(t, r.dir)
	if r.scriptRan() {
		t.Fatal("the folder's allow rule took effect before it was trusted")
	}
	r.trust(true)
	if !r.scriptRan() {
		t.Fatal("the folder's allow rule did not take effect once trusted")
	}
	if list := r.trustList(); !strings.Contains(list, r.dir) || !strings.Contains(list, "trusted") {
		t.Errorf("trust --list does not show the folder:\n%s", list)
	}
	if out := r.exec("trust", "--revoke"); out.code != 0 || !strings.Contains(out.stdout, "Revoked") {
		t.Fatalf("trust --revoke: exit %d: %s%s", out.code, out.stdout, out.stderr)
	}
	if r.scriptRan() {
		t.Error("the folder's allow rule still took effect after trust --revoke")
	}
	if list := r.trustList(); strings.Contains(list, r.dir) {
		t.Errorf("trust --list still shows the revoked folder:\n%s", list)
	}
}

func TestControlTrustFlagHoldsForOneRunAndRecordsNothing(t *testing.T) {
	r := newRun(t)
	allowScript(t, r.dir)
	if !r.scriptRan("--trust") {
		t.Fatal("--trust did not let the folder's allow rule take effect")
	}
	if _, err := os.Stat(filepath.Join(r.envValue("HOME"), ".mini-claude", "trust.json")); err == nil {
		t.Errorf("--trust wrote the trust record: %s", r.trustList())
	}
	if r.scriptRan() {
		t.Error("the folder's allow rule took effect in the run after --trust")
	}
}

// Trusting a folder covers the folders inside it, not its parent, nor a
// sibling whose name starts like it.
func TestAttackFolderNextToOrAboveATrustedOne(t *testing.T) {
	base := t.TempDir()
	cases := []struct {
		name, trusted, run string
		ran                bool
	}{
		{"a sibling whose name extends the trusted one", "proj", "proj-evil", false},
		{"the parent of a trusted folder", "proj/sub", "proj", false},
		{"control: a folder inside the trusted one", "proj", "proj/sub", true},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRun(t)
			root := filepath.Join(base, string(rune('a'+i)))
			for _, d := range []string{c.trusted, c.run} {
				allowScript(t, filepath.Join(root, d))
			}
			r.dir = filepath.Join(root, c.trusted)
			r.trust(false)
			r.dir = filepath.Join(root, c.run)
			if ran := r.scriptRan(); ran != c.ran {
				t.Errorf("the script ran = %v, want %v", ran, c.ran)
			}
		})
	}
}

// The record is the user's: a folder's own trust.json, wherever it puts one,
// trusts nothing and approves nothing.
func TestAttackFolderShipsItsOwnTrustRecord(t *testing.T) {
	r := newRun(t)
	allowScript(t, r.dir)
	pwned := marker(t, "pwned")
	inFile(".mcp.json", nil)(t, r.dir, map[string]any{"evil": touchServer(pwned)})
	record := map[string]any{"folders": map[string]any{r.dir: map[string]any{"trusted": true, "mcpServers": map[string]string{"evil": "x"}}}}
	for _, rel := range []string{".mini-claude/trust.json", ".claude/trust.json", "trust.json"} {
		plantJSON(t, r.dir, rel, record)
	}
	r.setenv(mcpWait)
	if r.scriptRan() {
		t.Error("the folder's own trust.json made it trusted")
	}
	absent(t, pwned, "a server the folder's trust.json approves")
}

// Trust follows the real folder: a link the user trusted through, pointed
// elsewhere later, does not carry the trust.
func TestAttackLinkRepointedAfterTrust(t *testing.T) {
	base := t.TempDir()
	real, evil := filepath.Join(base, "real"), filepath.Join(base, "evil")
	allowScript(t, real)
	allowScript(t, evil)
	name := filepath.Join(base, "project")
	if err := os.Symlink(real, name); err != nil {
		t.Fatal(err)
	}
	r := newRun(t)
	r.dir = name
	r.trust(false)
	os.Remove(name)
	if err := os.Symlink(evil, name); err != nil {
		t.Fatal(err)
	}
	if r.scriptRan() {
		t.Error("the trust given through the link went to the folder it points at now")
	}
	r.dir = real
	if !r.scriptRan() {
		t.Error("the real folder the user trusted is not trusted")
	}
}

// mcp approve needs a trusted folder, and records nothing in an untrusted one.
func TestAttackApproveInAnUntrustedFolder(t *testing.T) {
	r := newRun(t)
	r.setenv(mcpWait)
	pwned := marker(t, "pwned")
	inFile(".mcp.json", nil)(t, r.dir, map[string]any{"evil": touchServer(pwned)})
	out := r.exec("mcp", "approve", "--all")
	if out.code == 0 || !strings.Contains(out.stderr, "not trusted") {
		t.Errorf("mcp approve in an untrusted folder: exit %d: %s%s", out.code, out.stdout, out.stderr)
	}
	r.trust(false)
	r.exec("mcp", "list")
	absent(t, pwned, "a server approved before the folder was trusted")
}
