package llmtest

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

func TestStatusFaults(t *testing.T) {
	tests := []struct {
		fault   Fault
		headers map[string]string
		body    string
	}{
		{Fault{Status: 429, RetryAfterMs: 50, RetryAfter: 1}, map[string]string{"retry-after-ms": "50", "retry-after": "1"},
			`{"type":"error","error":{"type":"rate_limit_error","message":"llmtest: scripted fault: status 429"},"request_id":"req_llmtest_001"}`},
		{Fault{Status: 529, Message: "Overloaded"}, nil,
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_llmtest_001"}`},
		{Fault{Status: 500}, nil,
			`{"type":"error","error":{"type":"api_error","message":"llmtest: scripted fault: status 500"},"request_id":"req_llmtest_001"}`},
		{Fault{Status: 401, ShouldRetry: "false"}, map[string]string{"x-should-retry": "false"},
			`{"type":"error","error":{"type":"authentication_error","message":"llmtest: scripted fault: status 401"},"request_id":"req_llmtest_001"}`},
	}
	for _, tt := range tests {
		t.Run(tt.fault.describe(), func(t *testing.T) {
			srv := New(t)
			srv.Push(Turn{Faults: []Fault{tt.fault}, Blocks: []llm.ContentBlock{Text("after")}})
			resp := post(t, context.Background(), srv.URL, "/v1/messages", body(t, llm.UserText("hi")))
			data, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.fault.Status || string(data) != tt.body {
				t.Errorf("got %d %s", resp.StatusCode, data)
			}
			if resp.Header.Get("Content-Type") != "application/json" {
				t.Errorf("content-type %q", resp.Header.Get("Content-Type"))
			}
			for k, v := range tt.headers {
				if got := resp.Header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
			resp = post(t, context.Background(), srv.URL, "/v1/messages", body(t, llm.UserText("hi")))
			events, err := readSSE(resp.Body)
			if err != nil || resp.StatusCode != 200 || events[len(events)-1].Name != "message_stop" {
				t.Errorf("retry: status %d, events %v, err %v", resp.StatusCode, names(events), err)
			}
		})
	}
}

func TestStreamFaults(t *testing.T) {
	turn := Turn{Blocks: []llm.ContentBlock{Text("some words to split"), ToolUse("toolu_1", "Bash", `{"command":"ls -la /tmp"}`)}}
	total := len(turnEvents(turn.resolved(0, "m", "toolu"), "msg"))
	tests := []struct {
		fault     Fault
		wantNames int  // events received before the fault's own event
		wantErr   bool // the body read fails (connection reset)
		last      string
	}{
		{Fault{DropAfterEvents: 3}, 3, true, "ping"},
		{Fault{Malformed: true}, total / 2, false, "content_block_delta"},
		{Fault{StreamError: "overloaded_error"}, total / 2, false, "error"},
	}
	for _, tt := range tests {
		t.Run(tt.fault.describe(), func(t *testing.T) {
			srv := New(t)
			srv.Push(Turn{Faults: []Fault{tt.fault}, Blocks: turn.Blocks})
			resp := post(t, context.Background(), srv.URL, "/v1/messages", body(t, llm.UserText("hi")))
			events, err := readSSE(resp.Body)
			if (err != nil) != tt.wantErr {
				t.Errorf("read error = %v, want error %v", err, tt.wantErr)
			}
			n := tt.wantNames
			if !tt.wantErr {
				n++
			}
			if len(events) != n || events[len(events)-1].Name != tt.last {
				t.Fatalf("got events %v, want %d ending with %s", names(events), n, tt.last)
			}
			last := events[len(events)-1].Data
			switch {
			case tt.fault.Malformed && !strings.HasSuffix(last, `"text":"unterminated`):
				t.Errorf("malformed event data = %s", last)
			case tt.fault.StreamError != "" && last != `{"type":"error","error":{"type":"overloaded_error","message":"llmtest: scripted stream error"}}`:
				t.Errorf("error event data = %s", last)
			}
		})
	}
}

func TestHangUntilClientLeaves(t *testing.T) {
	srv := New(t)
	srv.Push(Turn{Faults: []Fault{{Hang: true}}, Blocks: []llm.ContentBlock{Text("never")}})
	ctx, cancel := context.WithCancel(context.Background())
	resp := post(t, ctx, srv.URL, "/v1/messages", body(t, llm.UserText("hi")))
	buf := make([]byte, 4096)
	n, err := resp.Body.Read(buf)
	if err != nil || !strings.HasPrefix(string(buf[:n]), "event: message_start") {
		t.Fatalf("first read: %q, %v", buf[:n], err)
	}
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err = io.ReadAll(resp.Body)
	if err == nil || time.Since(start) > 2*time.Second {
		t.Errorf("read after cancel: err %v after %v", err, time.Since(start))
	}
}

func TestScriptExhausted(t *testing.T) {
	srv, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	resp := post(t, context.Background(), srv.URL, "/v1/messages", body(t, llm.UserText("hi")))
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 500 || !strings.Contains(string(data), `"message":"llmtest: script exhausted"`) || resp.Header.Get("x-should-retry") != "false" {
		t.Errorf("got %d %s (x-should-retry %q)", resp.StatusCode, data, resp.Header.Get("x-should-retry"))
	}
	if v := srv.Violations(); len(v) != 1 || !strings.Contains(v[0], "script exhausted") {
		t.Errorf("violations = %q", v)
	}
}

// recordingTB captures what New's cleanup reports.
type recordingTB struct {
	testing.TB
	errors   []string
	cleanups []func()
}

func (r *recordingTB) Helper()          {}
func (r *recordingTB) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recordingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func TestNewFailsTheTestOnViolations(t *testing.T) {
	rec := &recordingTB{TB: t}
	srv := New(rec)
	bad := body(t, llm.UserText("hi"), assistant(ToolUse("toolu_9", "Read", `{}`)), llm.UserText("no result"))
	resp := post(t, context.Background(), srv.URL, "/v1/messages", bad)
	io.Copy(io.Discard, resp.Body)
	resp = post(t, context.Background(), srv.URL, "/v1/messages", body(t, llm.UserText("hi")))
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != 500 {
		t.Errorf("exhausted script answered %d", resp.StatusCode)
	}
	for _, f := range rec.cleanups {
		f()
	}
	if len(rec.errors) != 2 || !strings.Contains(rec.errors[0], `"toolu_9" has 0 tool_result`) || !strings.Contains(rec.errors[1], "script exhausted") {
		t.Errorf("cleanup reported %q", rec.errors)
	}
}
