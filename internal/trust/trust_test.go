package trust

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTrustingAFolderTrustsWhatIsInsideIt(t *testing.T) {
	s := Open(t.TempDir())
	root := t.TempDir()
	inner := filepath.Join(root, "a", "b")
	os.MkdirAll(inner, 0o755)
	if st, err := s.Folder(inner); st != Unknown || err != nil {
		t.Fatalf("before any answer: %v, %v; want Unknown", st, err)
	}
	if err := s.Decide(root, true); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Folder(inner); st != Trusted {
		t.Errorf("a folder inside a trusted one: %v, want Trusted", st)
	}
	if err := s.Decide(inner, false); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Folder(filepath.Join(inner, "c")); st != Refused {
		t.Errorf("below a refused folder inside a trusted one: %v, want the nearer answer, Refused", st)
	}
	if st, _ := s.Folder(filepath.Dir(root)); st != Unknown {
		t.Errorf("the parent of a trusted folder: %v, want Unknown", st)
	}
}

func TestTheRecordKeysFoldersByTheirRealPath(t *testing.T) {
	s := Open(t.TempDir())
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	s.Decide(link, true)
	if st, _ := s.Folder(real); st != Trusted {
		t.Errorf("trusted through a link, the real folder is %v; want Trusted", st)
	}
	entries, _ := s.List()
	if len(entries) != 1 || entries[0].Dir != Canonical(real) {
		t.Errorf("entries = %+v, want the real path once", entries)
	}
}

func TestRevokeForgetsTrustAndApprovals(t *testing.T) {
	s := Open(t.TempDir())
	dir := t.TempDir()
	s.Decide(dir, true)
	s.ApproveServer(dir, "db", "f1")
	if found, err := s.Revoke(dir); !found || err != nil {
		t.Fatalf("Revoke = %v, %v", found, err)
	}
	if st, _ := s.Folder(dir); st != Unknown {
		t.Errorf("after revoking: %v, want Unknown", st)
	}
	if a, _ := s.ServerApproval(dir, "db", "f1"); a != Unapproved {
		t.Errorf("approval after revoking: %v, want Unapproved", a)
	}
	if found, _ := s.Revoke(dir); found {
		t.Error("revoking twice found the folder again")
	}
}

func TestAnApprovalHoldsForTheConfigurationTheUserSaw(t *testing.T) {
	s := Open(t.TempDir())
	dir := t.TempDir()
	seen := Fingerprint(json.RawMessage(`{"command": "node", "args": ["server.js"]}`))
	s.ApproveServer(dir, "db", seen)
	tests := []struct {
		name, server string
		config       string
		want         Approval
	}{
		{"same configuration, other spacing and key order", "db", `{"args":["server.js"],"command":"node"}`, Approved},
		{"another command", "db", `{"command": "sh", "args": ["server.js"]}`, Changed},
		{"another argument", "db", `{"command": "node", "args": ["evil.js"]}`, Changed},
		{"another server", "web", `{"command": "node", "args": ["server.js"]}`, Unapproved},
	}
	for _, tt := range tests {
		if got, _ := s.ServerApproval(dir, tt.server, Fingerprint(json.RawMessage(tt.config))); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	if a, _ := s.ServerApproval(t.TempDir(), "db", seen); a != Unapproved {
		t.Errorf("the same server in another folder: %v, want Unapproved", a)
	}
}

func TestABrokenRecordTrustsNothingAndIsNotOverwritten(t *testing.T) {
	home := t.TempDir()
	s := Open(home)
	os.WriteFile(s.Path(), []byte("{broken"), 0o600)
	st, err := s.Folder(t.TempDir())
	if st != Unknown || err == nil || !strings.Contains(err.Error(), "no folder is trusted") {
		t.Errorf("Folder = %v, %v; want Unknown and an error saying nothing is trusted", st, err)
	}
	if err := s.Decide(t.TempDir(), true); err == nil {
		t.Error("a broken record was overwritten")
	}
	if data, _ := os.ReadFile(s.Path()); string(data) != "{broken" {
		t.Errorf("record = %q", data)
	}
}

func TestTheRecordIsPrivateToTheUser(t *testing.T) {
	s := Open(t.TempDir())
	s.Decide(t.TempDir(), true)
	info, err := os.Stat(s.Path())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("record mode = %v, %v; want 0600", info, err)
	}
}

func TestWithoutAHomeNothingIsTrustedOrSaved(t *testing.T) {
	s := Open("")
	if st, err := s.Folder(t.TempDir()); st != Unknown || err != nil {
		t.Errorf("Folder = %v, %v", st, err)
	}
	if err := s.Decide(t.TempDir(), true); err == nil {
		t.Error("Decide without a home succeeded")
	}
}

func TestGateHoldsBackEverythingOfAnUntrustedFolderOnce(t *testing.T) {
	g := NewGate(false)
	server := Item{Kind: KindMCPServer, Name: "db", Detail: "node server.js", Source: ".mcp.json"}
	first, second := g.Admit(server), g.Admit(server)
	if first || second {
		t.Error("an untrusted folder's server was admitted")
	}
	if held := g.Held(); len(held) != 1 || held[0] != server {
		t.Errorf("held = %+v, want the server once", held)
	}
	notice := g.Notice("/tmp/their repo")
	for _, want := range []string{"not trusted", "MCP server db (node server.js) from .mcp.json", "mini-claude trust '/tmp/their repo'", "--trust"} {
		if !strings.Contains(notice, want) {
			t.Errorf("notice lacks %q:\n%s", want, notice)
		}
	}
}

func TestGateNeverAdmitsWhatNoProjectMaySet(t *testing.T) {
	g := NewGate(true)
	if !g.Admit(Item{Kind: KindAllowRule, Name: "Bash"}) {
		t.Error("a trusted folder's allow rule was held back")
	}
	bypass := Item{Kind: KindMode, Name: "bypassPermissions", Never: true}
	if g.Admit(bypass) {
		t.Error("bypassPermissions from a project file was admitted in a trusted folder")
	}
	notice := g.Notice("/p")
	if strings.Contains(notice, "not trusted") || !strings.Contains(notice, "may never set") {
		t.Errorf("notice = %q, want only the never-part", notice)
	}
	if NewGate(true).Notice("/p") != "" {
		t.Error("a gate that held nothing has a notice")
	}
}

func TestVisibleKeepsAFolderFromRedrawingTheScreen(t *testing.T) {
	tests := []struct{ in, want string }{
		{"node server.js --port 8080", "node server.js --port 8080"},
		{"sh -c touch x \x1b[2K\x1b[1A\r  • nothing else", `sh -c touch x \x1b[2K\x1b[1A\x0d  • nothing else`},
		{"a\nb\tc", `a\x0ab\x09c`},
		{"evil\u202egnp.exe", `evil\u202egnp.exe`},
		{"caf\u00e9 ✓", "caf\u00e9 ✓"},
		{"\x9b2J", `\x9b2J`},
		{"\u009b2J", `\x9b2J`},
	}
	for _, tt := range tests {
		if got := Visible(tt.in); got != tt.want {
			t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	it := Item{Kind: KindMCPServer, Name: "fmt", Detail: "touch x\x1b[1A\n", Source: ".mcp.json"}
	if s := it.String(); strings.ContainsAny(s, "\x1b\n") {
		t.Errorf("an item shows raw control characters: %q", s)
	}
}

func TestBroadFoldersAreTheRootHomeAndAboveIt(t *testing.T) {
	home := filepath.Join(t.TempDir(), "u")
	os.MkdirAll(filepath.Join(home, "src", "proj"), 0o755)
	for dir, want := range map[string]bool{"/": true, home: true, filepath.Dir(home): true,
		filepath.Join(home, "src"): false, filepath.Join(home, "src", "proj"): false, t.TempDir(): false} {
		if got := Broad(dir, home); got != want {
			t.Errorf("Broad(%s) = %v, want %v", dir, got, want)
		}
	}
}
