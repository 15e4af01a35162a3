// Package mcp connects mini-claude to Model Context Protocol servers: it reads
// their configuration in Claude Code's format, starts them in parallel in the
// background (stdio processes and streamable HTTP endpoints), and offers each
// server tool as a tool.Tool named mcp__<server>__<tool>.
package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/trust"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The transports a server can be reached over.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
	TransportSSE   = "sse"
	// TransportSDK is an Agent SDK program's in-process server, reached
	// through the SDK's control protocol (Server.Transport).
	TransportSDK = "sdk"
)

// The sources a server's configuration comes from, as Claude Code names them.
const (
	SourceUser    = "user"
	SourceProject = "project"
	SourceLocal   = "local"
	SourceDynamic = "dynamic"
)

// ProjectFile is the project's MCP configuration file, in Claude Code's format.
const ProjectFile = ".mcp.json"

// minTimeout is the smallest per-server timeout honoured; Claude Code ignores
// smaller values too, which are most likely seconds written as milliseconds.
const minTimeout = time.Second

// Server is one configured MCP server, its ${VAR} references expanded.
type Server struct {
	Name string
	// Type is TransportStdio, TransportHTTP, TransportSSE or TransportSDK.
	Type    string
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
	// Timeout, when set, bounds both the start-up and each tool call of this
	// server, in place of the session-wide defaults.
	Timeout time.Duration
	// Source says where the configuration came from: user, project, local or dynamic.
	Source string
	// Problem, when set, says why the configuration cannot be used; the server
	// is reported as failed with it and never started.
	Problem string
	// Held says the server's Screen verdict was Hold: it is listed, never
	// started, and its ${VAR} references are left as written.
	Held bool
	// Fingerprint identifies the server's configuration as written (see
	// trust.Fingerprint), for approvals.
	Fingerprint string
	// Transport, when set, is how the server is reached in place of Command
	// or URL: an Agent SDK program's in-process server (Type "sdk").
	Transport mcp.Transport
	// dropped marks a server Screen left out.
	dropped bool
}

// Candidate is a server of the project, as written, before Screen rules on it.
type Candidate struct {
	Name string
	// Source is SourceProject or SourceLocal; Origin is the file.
	Source, Origin string
	// Target is what it runs or reaches and what it is given (Server.Describe),
	// its ${VAR} references unexpanded.
	Target string
	// Fingerprint identifies the configuration as written.
	Fingerprint string
}

// The verdicts of Sources.Screen.
const (
	// Admit: the server is configured as written and may start.
	Admit Verdict = iota
	// Hold: the server is listed but not started, its ${VAR} references unexpanded.
	Hold
	// Drop: the server is left out.
	Drop
)

// Verdict is what becomes of a project server.
type Verdict int

// Describe says everything a server's configuration makes it run or send:
// the command line or URL, then every environment variable it sets and every
// header it sends, sorted by name. For a held server the values are as
// written, so that the user approving it sees what it would receive.
func (s Server) Describe() string {
	d := s.URL
	if s.Command != "" {
		d = strings.Join(append([]string{s.Command}, s.Args...), " ")
	}
	if len(s.Env) > 0 {
		d += "; env " + pairs(s.Env, "=")
	}
	if len(s.Headers) > 0 {
		d += "; headers " + pairs(s.Headers, ": ")
	}
	return d
}

// pairs writes a map as "k<sep>v, …" in key order.
func pairs(m map[string]string, sep string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		keys[i] = k + sep + m[k]
	}
	return strings.Join(keys, ", ")
}

// rawServer is one entry of mcpServers as written.
type rawServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Timeout json.Number       `json:"timeout"`
}

// Sources are the places servers are configured, in order of precedence: a
// server named in a later place replaces one of the same name in an earlier one.
type Sources struct {
	// Settings are the mcpServers values of the settings files, lowest precedence first.
	Settings []SettingsServers
	// ProjectDir holds the project's .mcp.json; empty skips it.
	ProjectDir string
	// Flags are the --mcp-config values: file paths or JSON text.
	Flags []string
	// Strict uses only the servers of Flags, as --strict-mcp-config does.
	Strict bool
	// Getenv resolves ${VAR} references; nil reads the process environment.
	Getenv func(string) string
	// Screen, when set, rules on each server of the project (its .mcp.json
	// and its settings files) before any of its ${VAR} references is expanded.
	Screen func(Candidate) Verdict
}

// SettingsServers is the raw mcpServers object of one settings file.
type SettingsServers struct {
	Path   string
	Source string
	Raw    json.RawMessage
}

// Load reads every configured server, sorted by name. A source that cannot be
// read or parsed is returned as an error naming it and skipped; the others load.
// A project server never displaces a server of the user's own of its name (a
// folder cannot switch off or stand in for the user's own), and one that
// Screen drops or holds displaces none at all.
func Load(src Sources) ([]Server, []error) {
	getenv := src.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	p := &parser{getenv: getenv, screen: src.Screen}
	byName := map[string]Server{}
	var errs []error
	add := func(servers []Server, err error) {
		if err != nil {
			errs = append(errs, err)
		}
		for _, s := range servers {
			held, taken := byName[s.Name]
			ofProject := s.Source == SourceProject || s.Source == SourceLocal
			switch {
			case s.dropped:
				continue
			case taken && ofProject && held.Source == SourceUser:
				errs = append(errs, fmt.Errorf("the project's MCP server %q is left out: a server of yours has its name", s.Name))
				continue
			case taken && s.Held:
				continue
			}
			byName[s.Name] = s
		}
	}
	if !src.Strict {
		settingsBefore, settingsAfter := splitSettings(src.Settings)
		for _, s := range settingsBefore {
			add(p.servers(s.Raw, s.Path, s.Source))
		}
		if src.ProjectDir != "" {
			add(p.projectFile(filepath.Join(src.ProjectDir, ProjectFile)))
		}
		for _, s := range settingsAfter {
			add(p.servers(s.Raw, s.Path, s.Source))
		}
	}
	for _, flag := range src.Flags {
		add(p.flag(flag))
	}
	servers := make([]Server, 0, len(byName))
	for _, s := range byName {
		servers = append(servers, s)
	}
	slices.SortFunc(servers, func(a, b Server) int { return strings.Compare(a.Name, b.Name) })
	return servers, errs
}

// splitSettings puts the user's settings before the project's .mcp.json and
// the project's own settings files after it.
func splitSettings(all []SettingsServers) (before, after []SettingsServers) {
	for _, s := range all {
		if s.Source == SourceUser {
			before = append(before, s)
		} else {
			after = append(after, s)
		}
	}
	return before, after
}

// parser reads server configurations, expanding their ${VAR} references
// with getenv and asking screen about the project's.
type parser struct {
	getenv func(string) string
	screen func(Candidate) Verdict
}

func (p *parser) projectFile(path string) ([]Server, error) {
	data, err := config.ReadSmallFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return p.file(data, path, SourceProject)
}

// flag reads one --mcp-config value: JSON text when it starts with "{",
// a file path otherwise, as Claude Code accepts both. The file must be a
// regular one (see config.ReadSmallFile), which <(…) is not.
func (p *parser) flag(value string) ([]Server, error) {
	if trimmed := strings.TrimSpace(value); strings.HasPrefix(trimmed, "{") {
		return p.file([]byte(trimmed), "--mcp-config", SourceDynamic)
	}
	data, err := os.ReadFile(value)
	if err != nil {
		return nil, fmt.Errorf("--mcp-config %s: %w", value, err)
	}
	return p.file(data, value, SourceDynamic)
}

// parseFile reads a file of the form {"mcpServers": {...}}.
func (p *parser) file(data []byte, origin, source string) ([]Server, error) {
	var file struct {
		MCPServers json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("MCP config %s is not valid JSON (%v); its servers are ignored", origin, err)
	}
	if len(file.MCPServers) == 0 {
		return nil, fmt.Errorf(`MCP config %s has no "mcpServers" object; write {"mcpServers": {"name": {"command": "..."}}}`, origin)
	}
	return p.servers(file.MCPServers, origin, source)
}

// parseServers reads an mcpServers object. A server whose entry is malformed
// is still returned, with its Problem set, so that it is reported.
func (p *parser) servers(raw json.RawMessage, origin, source string) ([]Server, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("mcpServers in %s is not an object of servers (%v); its servers are ignored", origin, err)
	}
	servers := make([]Server, 0, len(entries))
	for name, entry := range entries {
		servers = append(servers, p.server(name, entry, origin, source))
	}
	return servers, nil
}

// server reads one entry. A project server is screened first: one held is
// kept as written, one dropped is marked so and left out by Load.
func (p *parser) server(name string, entry json.RawMessage, origin, source string) Server {
	s := Server{Name: name, Source: source, Fingerprint: trust.Fingerprint(entry)}
	var r rawServer
	dec := json.NewDecoder(bytes.NewReader(entry))
	dec.UseNumber()
	decodeErr := dec.Decode(&r)
	if p.screen != nil && (source == SourceProject || source == SourceLocal) {
		switch p.screen(Candidate{Name: name, Source: source, Origin: origin, Target: Server{Command: r.Command, Args: r.Args, URL: r.URL, Env: r.Env, Headers: r.Headers}.Describe(), Fingerprint: s.Fingerprint}) {
		case Drop:
			s.dropped = true
			return s
		case Hold:
			s.Held = true
		}
	}
	if decodeErr != nil {
		s.Problem = fmt.Sprintf("its entry in %s is malformed: %v", origin, decodeErr)
		return s
	}
	ex := &expander{getenv: p.getenv, keep: s.Held}
	s.Type = r.Type
	s.Command = ex.expand(r.Command)
	s.Args = ex.expandAll(r.Args)
	s.Env = ex.expandMap(r.Env)
	s.URL = ex.expand(r.URL)
	s.Headers = ex.expandMap(r.Headers)
	switch {
	case s.Type == "" && s.URL != "":
		s.Type = TransportHTTP
	case s.Type == "":
		s.Type = TransportStdio
	}
	if r.Timeout != "" {
		ms, err := strconv.ParseInt(string(r.Timeout), 10, 64)
		switch {
		case err != nil || ms <= 0:
			s.Problem = fmt.Sprintf("its timeout %s in %s must be a positive number of milliseconds", r.Timeout, origin)
		case time.Duration(ms)*time.Millisecond >= minTimeout:
			s.Timeout = time.Duration(ms) * time.Millisecond
		}
	}
	switch {
	case s.Problem != "":
	case len(ex.missing) > 0:
		slices.Sort(ex.missing)
		s.Problem = fmt.Sprintf("its configuration in %s uses environment variables that are not set: %s (set them, or write ${VAR:-default})",
			origin, strings.Join(ex.missing, ", "))
	case s.Type == TransportStdio && s.Command == "":
		s.Problem = fmt.Sprintf(`its entry in %s has no "command"`, origin)
	case (s.Type == TransportHTTP || s.Type == TransportSSE) && s.URL == "":
		s.Problem = fmt.Sprintf(`its entry in %s has no "url"`, origin)
	case s.Type != TransportStdio && s.Type != TransportHTTP && s.Type != TransportSSE:
		s.Problem = fmt.Sprintf(`its type %q in %s is not supported; use "stdio", "http" or "sse"`, s.Type, origin)
	}
	return s
}

// References returns the names of the environment variables a held server's
// configuration refers to with ${VAR}, sorted, so that the user sees which of
// theirs it would receive before approving it. A server that is not held has
// its references expanded already, and returns none.
func (s Server) References() []string {
	values := slices.Concat([]string{s.Command, s.URL}, s.Args)
	for _, m := range []map[string]string{s.Env, s.Headers} {
		for k, v := range m {
			values = append(values, k, v)
		}
	}
	var names []string
	for _, v := range values {
		for _, m := range variable().FindAllStringSubmatch(v, -1) {
			names = append(names, m[1])
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

var variable = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`) })

// expander replaces ${VAR} and ${VAR:-default} in configuration values and
// remembers the variables that were neither set nor given a default.
type expander struct {
	getenv  func(string) string
	missing []string
	// keep leaves every reference as written.
	keep bool
}

func (e *expander) expand(s string) string {
	if e.keep {
		return s
	}
	return variable().ReplaceAllStringFunc(s, func(ref string) string {
		m := variable().FindStringSubmatch(ref)
		if value := e.getenv(m[1]); value != "" {
			return value
		}
		if m[2] != "" {
			return m[3]
		}
		if !slices.Contains(e.missing, m[1]) {
			e.missing = append(e.missing, m[1])
		}
		return ""
	})
}

func (e *expander) expandAll(values []string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = e.expand(v)
	}
	return out
}

func (e *expander) expandMap(values map[string]string) map[string]string {
	if values == nil {
		return nil
	}
	out := make(map[string]string, len(values))
	for k, v := range values {
		out[k] = e.expand(v)
	}
	return out
}
