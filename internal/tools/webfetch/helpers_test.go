package webfetch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/anthropic"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/web"
	"github.com/mini-claude/mini-claude/internal/tools/web/webtest"
)

// TestMain makes every test's client trust the webtest servers: Go reads
// SSL_CERT_FILE once, at the first TLS connection of the process.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "webfetch-ca-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ca, err := webtest.WriteCA(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("SSL_CERT_FILE", ca)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sideAnswer is the scripted small model's answer, the recordings' too.
const sideAnswer = "Side answer: the page says what it says."

// clientModel is the session's side model as the agent gives it: requests
// through a real client to the scripted model server.
type clientModel struct{ client llm.Client }

func (m clientModel) Ask(ctx context.Context, req llm.Request) (llm.Message, error) {
	end, err := llm.Complete(ctx, m.client, req)
	return end.Message, err
}

// fixture is a session whose WebFetch calls reach a webtest site, with a
// scripted small model behind them.
type fixture struct {
	site  *webtest.Server
	model *llmtest.Server
	env   *tool.Env
}

// newFixture serves handler (webtest.Site() when nil) and lets the calls
// reach 127.0.0.1 as a rule naming it would.
func newFixture(t *testing.T, settings web.Settings) *fixture {
	t.Helper()
	f := &fixture{site: webtest.New(t, webtest.Site()), model: llmtest.New(t)}
	f.model.ServeFunc(func(llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(sideAnswer)}}
	})
	client, err := anthropic.New(anthropic.Config{APIKey: "test", BaseURL: f.model.URL})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f.env = &tool.Env{Cwd: dir, Session: tool.NewSession(dir), HostNamed: func(h string) bool { return h == "127.0.0.1" }}
	web.Attach(f.env.Session, web.Config{SmallModel: "claude-haiku-4-5", Settings: settings}, clientModel{client})
	return f
}

// call runs one WebFetch call as the executor does once it is allowed; a
// failure comes back as its text.
func (f *fixture) call(t *testing.T, input string) (out Output, errText string) {
	t.Helper()
	input = strings.ReplaceAll(input, "<host>", f.site.Host)
	res, err := tool.Exec(context.Background(), Tool, f.env, json.RawMessage(input), nil)
	if err != nil {
		return Output{}, err.Error()
	}
	return res.Output.(Output), ""
}

// sidePrompts are the user texts of the side requests the model server got.
func (f *fixture) sidePrompts() []string {
	var out []string
	for _, r := range f.model.Requests() {
		out = append(out, r.Messages[0].Text())
	}
	return out
}

// recorded is one of Claude Code's recorded WebFetch scenarios (see
// e2e/testdata/web/README.md).
type recorded struct {
	Input  map[string]any
	Result struct {
		IsError bool            `json:"is_error"`
		Content json.RawMessage `json:"content"`
	}
	Side []struct {
		Body struct {
			Messages []llm.Message `json:"messages"`
		} `json:"body"`
	}
}

// loadRecorded reads the recording of a scenario, with <host> replaced by host.
func loadRecorded(t *testing.T, name, host string) recorded {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "e2e", "testdata", "web", "fetch", name)
	var r recorded
	for file, v := range map[string]any{"input.json": &r.Input, "result.json": &r.Result, "side_requests.json": &r.Side} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if os.IsNotExist(err) && file == "side_requests.json" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(strings.ReplaceAll(string(data), "<host>", host)), v); err != nil {
			t.Fatalf("%s/%s: %v", name, file, err)
		}
	}
	return r
}

// text is a recorded tool_result's content, a string in every WebFetch recording.
func (r recorded) text(t *testing.T) string {
	var s string
	if err := json.Unmarshal(r.Result.Content, &s); err != nil {
		t.Fatalf("content %s is not a string", r.Result.Content)
	}
	return s
}

func mustAddr(t *testing.T, s string) netip.Addr {
	t.Helper()
	a, err := netip.ParseAddr(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
