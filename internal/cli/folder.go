package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/trust"
)

// folder is the working folder as a run sees it: the user's trust record and
// what it says of the folder, the gate the folder's definitions pass, and the
// settings files screened by it.
type folder struct {
	cwd        string
	store      *trust.Store
	trustState trust.State
	// gate rules on what the folder's own files define and remembers what it
	// held back, for the notice.
	gate  *trust.Gate
	files []config.File
}

// loadFolder reads the trust record and the settings of cwd; once trusts the
// folder for this run (--trust). Unreadable files are reported on errOut.
func loadFolder(cwd string, once bool, errOut io.Writer) *folder {
	fo := &folder{cwd: cwd, store: trust.Open(config.Home())}
	var err error
	if fo.trustState, err = fo.store.Folder(cwd); err != nil {
		fmt.Fprintf(errOut, "Warning: %v\n", err)
	}
	fo.gate = trust.NewGate(fo.trustState == trust.Trusted || once)
	raw, errs := config.Load(cwd)
	for _, err := range errs {
		fmt.Fprintf(errOut, "Warning: %v\n", err)
	}
	fo.files = config.Screen(raw, fo.gate)
	return fo
}

// screenServer rules on a project MCP server: none starts in an untrusted
// folder; in a trusted one, a server starts when the user approved it — this
// very configuration in the trust record, or by name in their own settings —
// and otherwise waits for approval. A server the
// settings disable is left out.
func (fo *folder) screenServer(c mcp.Candidate) mcp.Verdict {
	if !fo.gate.Admit(trust.Item{Kind: trust.KindMCPServer, Name: c.Name, Detail: c.Target, Source: c.Origin}) {
		return mcp.Drop
	}
	var enabled, disabled []string
	all := false
	for _, f := range fo.files {
		enabled = append(enabled, f.EnabledMCPJSONServers...)
		disabled = append(disabled, f.DisabledMCPJSONServers...)
		all = all || f.EnableAllProjectMCPServers
	}
	switch {
	case slices.Contains(disabled, c.Name):
		return mcp.Drop
	case all || slices.Contains(enabled, c.Name):
		return mcp.Admit
	}
	if a, _ := fo.store.ServerApproval(fo.cwd, c.Name, c.Fingerprint); a == trust.Approved {
		return mcp.Admit
	}
	return mcp.Hold
}

// heldServerNotice says, one line each, which project servers were not
// started for want of the user's approval, and how to give it.
func (fo *folder) heldServerNotice(held []mcp.Server) string {
	var b strings.Builder
	for _, s := range held {
		why := "is not approved yet"
		if a, _ := fo.store.ServerApproval(fo.cwd, s.Name, s.Fingerprint); a == trust.Changed {
			why = "has changed since you approved it"
		}
		fmt.Fprintf(&b, "The project MCP server %q (%s) %s, so it was not started; approve it with `mini-claude mcp approve %s`.\n",
			s.Name, oneLine(s.Describe()), why, oneLine(s.Name))
	}
	return b.String()
}

// notice is what a run tells the user once about the folder: what the gate
// held back and which servers await approval; "" when there is nothing to say.
func (fo *folder) notice(held []mcp.Server) string {
	return fo.gate.Notice(fo.cwd) + fo.heldServerNotice(held)
}

// ignoredServers counts the MCP servers of the folder the gate held back.
func (fo *folder) ignoredServers() int {
	n := 0
	for _, it := range fo.gate.Held() {
		if it.Kind == trust.KindMCPServer {
			n++
		}
	}
	return n
}
