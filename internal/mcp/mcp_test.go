package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
	"github.com/mini-claude/mini-claude/internal/tool"
)

var testLimits = Limits{StartupTimeout: 30 * time.Second, MaxResultSizeChars: DefaultMaxResultSizeChars}

// startSettled starts the servers and waits until each is connected or failed.
func startSettled(t *testing.T, limits Limits, servers ...Server) *Manager {
	t.Helper()
	m := Start(servers, limits)
	t.Cleanup(m.Close)
	if !m.Wait(context.Background(), 40*time.Second) {
		t.Fatalf("servers did not settle within 40s: %+v", m.Statuses())
	}
	return m
}

func everythingStdio(s mcptest.Servers) Server {
	return Server{Name: "everything", Type: TransportStdio, Command: s.Node, Args: []string{s.Everything, "stdio"}}
}

func mustConnect(t *testing.T, m *Manager) {
	t.Helper()
	for _, st := range m.Statuses() {
		if st.State != Connected {
			t.Fatalf("server %s is %s: %s", st.Name, st.State, st.Problem)
		}
	}
}

// run parses input for the named tool and runs the call.
func run(ctx context.Context, t *testing.T, m *Manager, name, input string, progress tool.Progress) ([]llm.ContentBlock, error) {
	t.Helper()
	tl := tool.Find(m.Tools(), name)
	if tl == nil {
		t.Fatalf("no tool %s among %v", name, tool.Names(m.Tools()))
	}
	res, err := tool.Exec(ctx, tl, &tool.Env{Session: tool.NewSession(t.TempDir())}, json.RawMessage(input), progress)
	return res.Content, err
}

// connNamed returns the connection to the named server, to call its tools
// without the schema check the model's calls go through.
func connNamed(t *testing.T, m *Manager, name string) *conn {
	t.Helper()
	for _, c := range m.conns {
		if c.cfg.Name == name {
			return c
		}
	}
	t.Fatalf("no server %s", name)
	return nil
}

func TestEverythingOverStdioHTTPAndSSE(t *testing.T) {
	s := mcptest.Find(t)
	url, sseURL := mcptest.StartEverythingHTTP(t, s), mcptest.StartEverythingSSE(t, s)
	start := time.Now()
	m := startSettled(t, testLimits, everythingStdio(s), Server{Name: "web", Type: TransportHTTP, URL: url},
		Server{Name: "sse", Type: TransportSSE, URL: sseURL})
	mustConnect(t, m)
	t.Logf("all connected in %s", time.Since(start))
	defer func(start time.Time) { t.Logf("closed in %s", time.Since(start)) }(time.Now())
	defer m.Close()
	for _, server := range []string{"everything", "web", "sse"} {
		t.Run(server, func(t *testing.T) {
			ctx := context.Background()
			got, err := run(ctx, t, m, "mcp__"+server+"__echo", `{"message":"hi there"}`, nil)
			if err != nil || len(got) != 1 || got[0].Text != "Echo: hi there" {
				t.Errorf("echo = %+v, %v; want one text block %q", got, err, "Echo: hi there")
			}
			got, err = run(ctx, t, m, "mcp__"+server+"__get-tiny-image", `{}`, nil)
			if err != nil {
				t.Fatal(err)
			}
			var image *llm.ContentBlock
			for i, b := range got {
				if b.Type == llm.BlockImage {
					image = &got[i]
				}
			}
			if image == nil || image.Source.MediaType != "image/png" {
				t.Fatalf("get-tiny-image = %+v, want a PNG image block", got)
			}
			png, err := base64.StdEncoding.DecodeString(image.Source.Data)
			if err != nil || !strings.HasPrefix(string(png), "\x89PNG") {
				t.Errorf("image data is not a base64 PNG: %v, % x", err, png[:min(8, len(png))])
			}
			sum := tool.Find(m.Tools(), "mcp__"+server+"__get-sum")
			if _, err := sum.Parse(json.RawMessage(`{"a":"one","b":2}`)); err == nil || !strings.Contains(err.Error(), "expected as `number`") {
				t.Errorf("get-sum with a string: parse error = %v, want the schema's type named before any call", err)
			}
			_, err = connNamed(t, m, server).call(ctx, "get-sum", json.RawMessage(`{"a":"one","b":2}`), nil)
			var isError *tool.OutputError
			if !errors.As(err, &isError) || !strings.Contains(isError.Text, "expected number") {
				t.Errorf("get-sum with a string, past the schema check: error = %#v, want the server's isError result as an OutputError", err)
			}
			got, err = run(ctx, t, m, "mcp__"+server+"__get-sum", `{"a":2,"b":40}`, nil)
			if err != nil || len(got) == 0 || !strings.Contains(got[0].Text, "42") {
				t.Errorf("get-sum = %+v, %v; want 42", got, err)
			}
		})
	}
}

func TestStdioServersGetNoCredentialsButPassedAndConfiguredOnes(t *testing.T) {
	s := mcptest.Find(t)
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
	t.Setenv("OPENAI_API_KEY", "sk-oai-passed")
	t.Setenv("GITHUB_TOKEN", "gh-user")
	server := everythingStdio(s)
	server.Env = map[string]string{"CONFIGURED_TOKEN": "from-config"}
	limits := testLimits
	limits.PassEnv = []string{"OPENAI_API_KEY"}
	m := startSettled(t, limits, server)
	mustConnect(t, m)
	got, err := run(context.Background(), t, m, "mcp__everything__get-env", `{}`, nil)
	if err != nil || len(got) == 0 {
		t.Fatalf("get-env = %+v, %v", got, err)
	}
	text := got[0].Text
	tests := []struct {
		name, text string
		want       bool
	}{
		{"a credential mini-claude uses is kept from the server", "sk-ant-secret", false},
		{"a credential the user's settings pass reaches it", "sk-oai-passed", true},
		{"the user's other tokens reach it", "gh-user", true},
		{"the server's configured env reaches it", "from-config", true},
	}
	for _, tt := range tests {
		if strings.Contains(text, tt.text) != tt.want {
			t.Errorf("%s: %q in the server's environment is %v, want %v", tt.name, tt.text, !tt.want, tt.want)
		}
	}
}

func TestToolsKeepSchemasAndAnnotations(t *testing.T) {
	s := mcptest.Find(t)
	m := startSettled(t, testLimits, everythingStdio(s))
	mustConnect(t, m)
	sum := tool.Find(m.Tools(), "mcp__everything__get-sum")
	if sum == nil {
		t.Fatalf("no get-sum among %v", tool.Names(m.Tools()))
	}
	var schema map[string]any
	if err := json.Unmarshal(sum.InputSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	props, _ := schema["properties"].(map[string]any)
	if schema["type"] != "object" || props["a"] == nil || props["b"] == nil || schema["$schema"] == nil {
		t.Errorf("get-sum schema = %s, want the server's schema with a, b and $schema intact", sum.InputSchema())
	}
	echo := tool.Find(m.Tools(), "mcp__everything__echo").ZeroCall()
	if !echo.IsReadOnly() || !echo.IsConcurrencySafe() || echo.IsDestructive() {
		t.Errorf("echo (readOnlyHint true) flags: read-only %v, concurrency-safe %v, destructive %v",
			echo.IsReadOnly(), echo.IsConcurrencySafe(), echo.IsDestructive())
	}
	for _, tl := range m.Tools() {
		if tl.MaxResultSizeChars() != DefaultMaxResultSizeChars || !strings.HasPrefix(tl.Name(), "mcp__everything__") {
			t.Errorf("%s: MaxResultSizeChars %d", tl.Name(), tl.MaxResultSizeChars())
		}
	}
}

func TestFilesystemOverStdio(t *testing.T) {
	s := mcptest.Find(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("line one\nline two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := startSettled(t, testLimits, Server{Name: "fs", Type: TransportStdio, Command: s.Node, Args: []string{s.Filesystem, dir}})
	mustConnect(t, m)
	ctx := context.Background()
	got, err := run(ctx, t, m, "mcp__fs__read_text_file", `{"path":"`+filepath.Join(dir, "notes.txt")+`"}`, nil)
	if err != nil || len(got) == 0 || got[0].Text != "line one\nline two\n" {
		t.Errorf("read_text_file = %+v, %v; want the file's text", got, err)
	}
	_, err = run(ctx, t, m, "mcp__fs__read_text_file", `{"path":"/etc/passwd"}`, nil)
	var isError *tool.OutputError
	if !errors.As(err, &isError) || !strings.Contains(isError.Text, "Access denied") {
		t.Errorf("reading outside the allowed directory: error = %#v, want the server's isError text", err)
	}
	write := tool.Find(m.Tools(), "mcp__fs__write_file").ZeroCall()
	if write.IsReadOnly() || write.IsConcurrencySafe() {
		t.Errorf("write_file is read-only %v, concurrency-safe %v; want neither", write.IsReadOnly(), write.IsConcurrencySafe())
	}
}

func TestLongRunningCallTimesOutAndCancels(t *testing.T) {
	s := mcptest.Find(t)
	limits := testLimits
	limits.CallTimeout = 1500 * time.Millisecond
	m := startSettled(t, limits, everythingStdio(s))
	mustConnect(t, m)
	var mu sync.Mutex
	var events []string
	got, err := run(context.Background(), t, m, "mcp__everything__trigger-long-running-operation", `{"duration":0.6,"steps":3}`,
		func(ev tool.ProgressEvent) {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, ev.Message)
		})
	if err != nil || len(got) == 0 || !strings.Contains(got[0].Text, "completed") {
		t.Fatalf("short operation = %+v, %v", got, err)
	}
	mu.Lock()
	// The last notification may arrive after the result, when the call is over.
	if len(events) < 2 || events[0] != "1/3" || events[1] != "2/3" {
		t.Errorf("progress events = %q, want 1/3, 2/3 (and maybe 3/3)", events)
	}
	mu.Unlock()
	start := time.Now()
	_, err = run(context.Background(), t, m, "mcp__everything__trigger-long-running-operation", `{"duration":20,"steps":2}`, nil)
	if err == nil || !strings.Contains(err.Error(), "did not answer within 1.5s") || time.Since(start) > 5*time.Second {
		t.Errorf("after %s: error = %v, want a timeout after 1.5s", time.Since(start), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start = time.Now()
	_, err = run(ctx, t, m, "mcp__everything__trigger-long-running-operation", `{"duration":20,"steps":2}`, nil)
	if err == nil || !strings.Contains(err.Error(), "cancelled") || time.Since(start) > 3*time.Second {
		t.Errorf("after %s: error = %v, want a cancelled call", time.Since(start), err)
	}
	got, err = run(context.Background(), t, m, "mcp__everything__echo", `{"message":"still here"}`, nil)
	if err != nil || len(got) == 0 || got[0].Text != "Echo: still here" {
		t.Errorf("echo after the cancelled calls = %+v, %v; want the server still usable", got, err)
	}
}

func TestToolListChangedRefreshesTools(t *testing.T) {
	s := mcptest.Find(t)
	// server-everything registers get-roots-list once it knows the client
	// supports roots, after initialization, and announces it with
	// notifications/tools/list_changed.
	m := startSettled(t, testLimits, everythingStdio(s))
	mustConnect(t, m)
	deadline := time.Now().Add(10 * time.Second)
	for m.conns[0].changes.Load() == 0 || tool.Find(m.Tools(), "mcp__everything__get-roots-list") == nil {
		if time.Now().After(deadline) {
			t.Fatalf("after 10s, %d refreshes on tools/list_changed; tools %v, want get-roots-list among them",
				m.conns[0].changes.Load(), tool.Names(m.Tools()))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st := m.Statuses()[0]; st.Tools != len(m.Tools()) {
		t.Errorf("status counts %d tools, Tools returns %d", st.Tools, len(m.Tools()))
	}
}
