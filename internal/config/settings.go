package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/mini-claude/mini-claude/internal/atomicfile"
)

// Permissions is the permissions section of a settings file, in Claude Code's format.
type Permissions struct {
	Allow                 []string `json:"allow"`
	Deny                  []string `json:"deny"`
	Ask                   []string `json:"ask"`
	DefaultMode           string   `json:"defaultMode"`
	AdditionalDirectories []string `json:"additionalDirectories"`
}

// The scopes a settings file belongs to: the user's own file, or one of the
// project folder's (shared or local). Only a user file is the user's own act;
// a project file takes effect as far as the folder is trusted (see internal/trust).
const (
	ScopeUser    = "user"
	ScopeProject = "project"
	ScopeLocal   = "local"
)

// File is one settings file as written, with where it was found. Path, Scope
// and Project are set by Load from where the file is, never from its content:
// a project file cannot claim to be the user's.
type File struct {
	// Path is the file's path.
	Path string `json:"-"`
	// Scope is ScopeUser, ScopeProject or ScopeLocal.
	Scope string `json:"-"`
	// Project is the directory the file's relative rule paths are relative to:
	// the project for project files, the working directory for the user's file.
	Project     string      `json:"-"`
	Permissions Permissions `json:"permissions"`
	// Model is the default model, when the file names one.
	Model string `json:"model"`
	// Provider is the default model provider (anthropic, openai, ollama,
	// llamacpp, vllm), when the file names one.
	Provider string `json:"provider"`
	// MCPServers is kept raw for the MCP client, which reads it in its own format.
	MCPServers json.RawMessage `json:"mcpServers"`
	// Tools is the list of command-backed tools the file defines, kept raw for
	// internal/tools/custom, which reads it entry by entry.
	Tools json.RawMessage `json:"tools"`
	// EnabledMCPJSONServers and DisabledMCPJSONServers approve or refuse
	// servers of a project's .mcp.json by name, and EnableAllProjectMCPServers
	// approves them all, as Claude Code's settings do; only the user's own
	// files may approve.
	EnabledMCPJSONServers      []string `json:"enabledMcpjsonServers"`
	DisabledMCPJSONServers     []string `json:"disabledMcpjsonServers"`
	EnableAllProjectMCPServers bool     `json:"enableAllProjectMcpServers"`
	// Hooks are the lifecycle hooks the file defines, kept raw for
	// internal/hooks, which reads them in Claude Code's format.
	Hooks json.RawMessage `json:"hooks"`
	// DisableAllHooks turns every hook off, as in Claude Code.
	DisableAllHooks bool `json:"disableAllHooks"`
	// PassEnv names credentials mini-claude uses (OPENAI_API_KEY, say) that
	// child processes may still see. Only a user file's list counts: see PassEnv.
	PassEnv []string `json:"passEnv"`
	// WebFetch and WebSearch are the settings of the web tools; see Web.
	WebFetch  WebFetchSettings  `json:"webFetch"`
	WebSearch WebSearchSettings `json:"webSearch"`
}

// WebFetchSettings is the "webFetch" object of a settings file.
type WebFetchSettings struct {
	// SkipSummary makes WebFetch return the page's text in place of a small
	// model's answer to the call's prompt.
	SkipSummary *bool `json:"skipSummary"`
}

// WebSearchSettings is the "webSearch" object of a settings file.
type WebSearchSettings struct {
	// SearXNG is the base URL of a SearXNG instance WebSearch queries.
	SearXNG string `json:"searxng"`
}

// Web returns the web tools' settings of the files, a later file's value
// winning over an earlier one's.
func Web(files []File) (skipSummary bool, searxng string) {
	for _, f := range files {
		if f.WebFetch.SkipSummary != nil {
			skipSummary = *f.WebFetch.SkipSummary
		}
		if f.WebSearch.SearXNG != "" {
			searxng = f.WebSearch.SearXNG
		}
	}
	return skipSummary, searxng
}

// PassEnv returns the credentials the user's own settings files pass to child
// processes, each once. A project or local file's "passEnv" is ignored: a
// folder must not be able to ask for the user's keys.
func PassEnv(files []File) []string {
	var names []string
	for _, f := range files {
		if f.Scope != ScopeUser {
			continue
		}
		for _, name := range f.PassEnv {
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	return names
}

type location struct{ path, scope string }

// locations lists the settings files of a session in cwd with their scopes.
// A project path that is also a user path (a session in the home folder) is
// the user's file, listed once.
func locations(cwd string) []location {
	var user []location
	if home, err := os.UserHomeDir(); err == nil {
		user = append(user, location{filepath.Join(home, ".claude", "settings.json"), ScopeUser})
	}
	if dir := Home(); dir != "" {
		user = append(user, location{filepath.Join(dir, "settings.json"), ScopeUser})
	}
	all := user
	for _, name := range []string{"settings.json", "settings.local.json"} {
		scope := ScopeProject
		if name == "settings.local.json" {
			scope = ScopeLocal
		}
		for _, dir := range []string{".claude", ".mini-claude"} {
			path := filepath.Join(cwd, dir, name)
			if !slices.ContainsFunc(user, func(l location) bool { return l.path == path }) {
				all = append(all, location{path, scope})
			}
		}
	}
	return all
}

// Load reads the settings files of a session in cwd that exist, in order of
// precedence. A file that cannot be read or parsed is returned as an error
// naming it and left out; the others still load.
func Load(cwd string) ([]File, []error) {
	var files []File
	var errs []error
	for _, l := range locations(cwd) {
		path := l.path
		data, err := ReadSmallFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("read settings %s: %w", path, err))
			continue
		}
		file := File{Path: path, Scope: l.scope, Project: cwd}
		if err := json.Unmarshal(data, &file); err != nil {
			errs = append(errs, fmt.Errorf("settings %s is not valid JSON (%v); it is ignored", path, err))
			continue
		}
		files = append(files, file)
	}
	return files, errs
}

// LocalPath is the project's local settings file, where "always allow" answers go.
func LocalPath(cwd string) string {
	return filepath.Join(cwd, ".mini-claude", "settings.local.json")
}

// AddAllowRule appends rule to permissions.allow of the project's local
// settings file, keeping every other key of the file as it is, unless the rule
// is already there. The file is replaced atomically, under a lock, so two
// sessions answering at once both keep their rule.
func AddAllowRule(cwd, rule string) error {
	path := LocalPath(cwd)
	return atomicfile.Update(path, 0o644, func(old []byte) ([]byte, error) {
		return editRules(old, path, "allow", func(rules []string) []string {
			if slices.Contains(rules, rule) {
				return rules
			}
			return append(rules, rule)
		})
	})
}

// editRules returns the settings document data with permissions.<list>
// replaced by what edit makes of it, every other key kept; ErrUnchanged when
// edit changed nothing.
func editRules(data []byte, path, list string, edit func([]string) []string) ([]byte, error) {
	doc := map[string]json.RawMessage{}
	if data != nil {
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("settings %s is not valid JSON, so it was not changed: %w", path, err)
		}
	}
	perms := map[string]json.RawMessage{}
	if raw, ok := doc["permissions"]; ok {
		if err := json.Unmarshal(raw, &perms); err != nil {
			return nil, fmt.Errorf("settings %s: permissions is not an object: %w", path, err)
		}
	}
	var rules []string
	if raw, ok := perms[list]; ok {
		if err := json.Unmarshal(raw, &rules); err != nil {
			return nil, fmt.Errorf("settings %s: permissions.%s is not a list of strings: %w", path, list, err)
		}
	}
	edited := edit(slices.Clone(rules))
	if slices.Equal(edited, rules) {
		return nil, atomicfile.ErrUnchanged
	}
	var err error
	if perms[list], err = json.Marshal(edited); err != nil {
		return nil, err
	}
	if doc["permissions"], err = json.Marshal(perms); err != nil {
		return nil, err
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
