package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestParseServerFormats(t *testing.T) {
	getenv := env(map[string]string{"HOME_DIR": "/home/u", "TOKEN": "s3cret"})
	tests := []struct {
		name  string
		entry string
		want  Server
	}{
		{"stdio without type", `{"command":"npx","args":["-y","pkg","${HOME_DIR}/x"],"env":{"KEY":"${TOKEN}"}}`,
			Server{Type: TransportStdio, Command: "npx", Args: []string{"-y", "pkg", "/home/u/x"}, Env: map[string]string{"KEY": "s3cret"}}},
		{"explicit stdio", `{"type":"stdio","command":"srv"}`, Server{Type: TransportStdio, Command: "srv", Args: []string{}}},
		{"http", `{"type":"http","url":"https://h/mcp","headers":{"Authorization":"Bearer ${TOKEN}"}}`,
			Server{Type: TransportHTTP, URL: "https://h/mcp", Args: []string{}, Headers: map[string]string{"Authorization": "Bearer s3cret"}}},
		{"url without type is http", `{"url":"https://h/mcp"}`, Server{Type: TransportHTTP, URL: "https://h/mcp", Args: []string{}}},
		{"default value", `{"command":"${BIN:-my-server}","args":["${PORT:-8080}"]}`,
			Server{Type: TransportStdio, Command: "my-server", Args: []string{"8080"}}},
		{"timeout in ms", `{"command":"srv","timeout":45000}`, Server{Type: TransportStdio, Command: "srv", Args: []string{}, Timeout: 45 * time.Second}},
		{"timeout below a second ignored", `{"command":"srv","timeout":30}`, Server{Type: TransportStdio, Command: "srv", Args: []string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseServer("s", json.RawMessage(tt.entry), "x.json", SourceProject, getenv)
			tt.want.Name, tt.want.Source = "s", SourceProject
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseServerProblems(t *testing.T) {
	tests := []struct{ name, entry, want string }{
		{"missing variable", `{"command":"srv","env":{"A":"${NOPE}","B":"${ALSO_NOPE}"}}`, "not set: ALSO_NOPE, NOPE"},
		{"no command", `{"args":["x"]}`, `no "command"`},
		{"http without url", `{"type":"http"}`, `no "url"`},
		{"unknown type", `{"type":"websocket","url":"ws://x"}`, `"websocket"`},
		{"bad timeout", `{"command":"srv","timeout":-5}`, "positive number of milliseconds"},
		{"malformed", `{"command":["srv"]}`, "malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseServer("s", json.RawMessage(tt.entry), "x.json", SourceProject, env(nil))
			if !strings.Contains(got.Problem, tt.want) {
				t.Errorf("Problem = %q, want it to mention %q", got.Problem, tt.want)
			}
		})
	}
}

func TestLoadLayersSourcesByName(t *testing.T) {
	dir := t.TempDir()
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, ProjectFile), `{"mcpServers":{"shared":{"command":"from-project"},"proj":{"command":"p"}}}`)
	flagFile := filepath.Join(dir, "extra.json")
	write(flagFile, `{"mcpServers":{"flagged":{"type":"http","url":"http://x/mcp"}}}`)
	src := Sources{
		Settings: []SettingsServers{
			{Path: "user.json", Source: SourceUser, Raw: json.RawMessage(`{"shared":{"command":"from-user"},"mine":{"command":"m"}}`)},
			{Path: "local.json", Source: SourceLocal, Raw: json.RawMessage(`{"shared":{"command":"from-local"}}`)},
		},
		ProjectDir: dir,
		Flags:      []string{flagFile, `{"mcpServers":{"inline":{"command":"i"}}}`},
		Getenv:     env(nil),
	}
	servers, errs := Load(src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := map[string]string{}
	var names []string
	for _, s := range servers {
		names = append(names, s.Name)
		got[s.Name] = s.Source + ":" + s.Command + s.URL
	}
	want := map[string]string{"flagged": "dynamic:http://x/mcp", "inline": "dynamic:i", "mine": "user:m", "proj": "project:p", "shared": "local:from-local"}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(names, []string{"flagged", "inline", "mine", "proj", "shared"}) {
		t.Errorf("servers = %v (order %v), want %v sorted by name", got, names, want)
	}
	src.Strict = true
	servers, _ = Load(src)
	if len(servers) != 2 || servers[0].Name != "flagged" || servers[1].Name != "inline" {
		t.Errorf("strict: %+v, want only the --mcp-config servers", servers)
	}
}

func TestLoadReportsBrokenSources(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ProjectFile), []byte(`{"mcpServers":`), 0o644); err != nil {
		t.Fatal(err)
	}
	servers, errs := Load(Sources{ProjectDir: dir, Flags: []string{filepath.Join(dir, "missing.json"), `{"servers":{}}`,
		`{"mcpServers":{"ok":{"command":"x"}}}`}, Getenv: env(nil)})
	if len(servers) != 1 || servers[0].Name != "ok" {
		t.Errorf("servers = %+v, want the one good server", servers)
	}
	joined := ""
	for _, err := range errs {
		joined += err.Error() + "\n"
	}
	for _, want := range []string{ProjectFile + " is not valid JSON", "missing.json", `no "mcpServers"`} {
		if !strings.Contains(joined, want) {
			t.Errorf("errors %q do not mention %q", joined, want)
		}
	}
}

func TestLimitsFromEnv(t *testing.T) {
	got := LimitsFromEnv(env(map[string]string{"MCP_TIMEOUT": "5000", "MCP_TOOL_TIMEOUT": "60000", "MAX_MCP_OUTPUT_TOKENS": "1000"}))
	want := Limits{StartupTimeout: 5 * time.Second, CallTimeout: time.Minute, MaxResultSizeChars: 4000}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LimitsFromEnv = %+v, want %+v", got, want)
	}
	if got := LimitsFromEnv(env(map[string]string{"MCP_TIMEOUT": "soon"})); got.StartupTimeout != DefaultStartupTimeout || got.CallTimeout != 0 {
		t.Errorf("defaults = %+v", got)
	}
}
