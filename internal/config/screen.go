package config

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/trust"
)

// Screen returns the files with what their folder may not decide taken out,
// asking gate about each project-defined item: allow rules, permission modes
// that widen access, additional directories, the provider and model, the web
// search service (where the queries go), custom tools, hooks; MCP server approvals and passEnv are never taken from a folder. Deny and ask rules always stay (they only
// narrow); the user's own files are returned as they are. MCP servers are
// screened where they are started (internal/cli), together with .mcp.json's.
func Screen(files []File, gate *trust.Gate) []File {
	out := make([]File, len(files))
	for i, f := range files {
		if f.Scope != ScopeUser {
			screenFile(&f, gate)
		}
		out[i] = f
	}
	return out
}

func screenFile(f *File, gate *trust.Gate) {
	item := func(kind, name, detail string) trust.Item {
		return trust.Item{Kind: kind, Name: name, Detail: detail, Source: f.Path}
	}
	admit := func(kind, name, detail string) bool { return gate.Admit(item(kind, name, detail)) }
	f.Permissions.Allow = slices.DeleteFunc(slices.Clone(f.Permissions.Allow), func(rule string) bool {
		return !admit(trust.KindAllowRule, rule, "")
	})
	switch mode := f.Permissions.DefaultMode; mode {
	case "", "default", "plan":
	case "bypassPermissions":
		never := item(trust.KindMode, mode, "")
		never.Never = true
		gate.Admit(never)
		f.Permissions.DefaultMode = ""
	default:
		if !admit(trust.KindMode, mode, "") {
			f.Permissions.DefaultMode = ""
		}
	}
	f.Permissions.AdditionalDirectories = slices.DeleteFunc(slices.Clone(f.Permissions.AdditionalDirectories), func(dir string) bool {
		return !admit(trust.KindDirectory, dir, "")
	})
	if f.Provider != "" && !admit(trust.KindProvider, f.Provider, "") {
		f.Provider = ""
	}
	if f.Model != "" && !admit(trust.KindModel, f.Model, "") {
		f.Model = ""
	}
	if f.WebSearch.SearXNG != "" && !admit(trust.KindSearchService, "searxng", f.WebSearch.SearXNG) {
		f.WebSearch.SearXNG = ""
	}
	f.Tools = screenTools(f.Tools, func(name, command string) bool { return admit(trust.KindTool, name, command) })
	f.Hooks = screenHooks(f.Hooks, func(event, command string) bool { return admit(trust.KindHook, event, command) })
	screenApprovals(f, gate, item)
	if len(f.PassEnv) > 0 {
		never := item(trust.KindPassEnv, strings.Join(f.PassEnv, ", "), "")
		never.Never = true
		gate.Admit(never)
		f.PassEnv = nil
	}
}

// screenTools keeps the entries of a "tools" list that admit accepts; a list
// that is not one is kept for internal/tools/custom to report.
func screenTools(raw json.RawMessage, admit func(name, command string) bool) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return raw
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return raw
	}
	kept := slices.DeleteFunc(entries, func(entry json.RawMessage) bool {
		var t struct {
			Name    string `json:"name"`
			Command string `json:"command"`
		}
		json.Unmarshal(entry, &t)
		return !admit(t.Name, t.Command)
	})
	if len(kept) == 0 {
		return nil
	}
	out, _ := json.Marshal(kept)
	return out
}

// screenHooks keeps the hooks of a "hooks" object that admit accepts, asking
// about each command; an object that is not one is kept for internal/hooks to report.
func screenHooks(raw json.RawMessage, admit func(event, command string) bool) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return raw
	}
	var events map[string][]struct {
		Matcher string            `json:"matcher"`
		Hooks   []json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(raw, &events); err != nil {
		return raw
	}
	kept := map[string]any{}
	for _, event := range slices.Sorted(maps.Keys(events)) {
		matchers := events[event]
		var keptMatchers []any
		for _, m := range matchers {
			hooks := slices.DeleteFunc(m.Hooks, func(h json.RawMessage) bool {
				var c struct {
					Command string `json:"command"`
				}
				json.Unmarshal(h, &c)
				return !admit(event, c.Command)
			})
			if len(hooks) > 0 {
				keptMatchers = append(keptMatchers, map[string]any{"matcher": m.Matcher, "hooks": hooks})
			}
		}
		if len(keptMatchers) > 0 {
			kept[event] = keptMatchers
		}
	}
	if len(kept) == 0 {
		return nil
	}
	out, _ := json.Marshal(kept)
	return out
}

// screenApprovals takes out a project file's MCP server approvals: a folder
// may never approve its own servers, not even from its local file, which
// Claude Code writes approvals to but which a clone can ship as well. The
// user approves in the trust record or in their own settings.
func screenApprovals(f *File, gate *trust.Gate, item func(kind, name, detail string) trust.Item) {
	var names []string
	if f.EnableAllProjectMCPServers {
		names = append(names, "enableAllProjectMcpServers")
	}
	if len(f.EnabledMCPJSONServers) > 0 {
		names = append(names, "enabledMcpjsonServers: "+strings.Join(f.EnabledMCPJSONServers, ", "))
	}
	if len(names) == 0 {
		return
	}
	it := item(trust.KindServerApproval, strings.Join(names, "; "), "")
	it.Never = true
	gate.Admit(it)
	f.EnableAllProjectMCPServers = false
	f.EnabledMCPJSONServers = nil
}
