package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestServeExampleScript(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "requests.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdoutR, stdoutW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-script", "testdata/example.json", "-log", logPath}, stdoutW, &stderr)
	}()
	url, err := bufio.NewReader(stdoutR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url = strings.TrimSpace(url)
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("first line = %q", url)
	}

	const user = `{"role":"user","content":"go"}`
	const asst = `{"role":"assistant","content":[{"type":"text","text":"ok"}]}`
	tests := []struct {
		history []string
		want    string
	}{
		{[]string{user}, `"name":"Read"`},
		{[]string{user, asst, user}, `"name":"Grep"`},
		{[]string{user, asst, user, asst, user}, `"text":"All tests pass; "`},
		{[]string{user, asst, user, asst, user, asst, user}, `"text":"All tests pass; "`},
		{[]string{user}, `"name":"Read"`}, // a second run of the agent starts over
	}
	for _, tt := range tests {
		body := `{"model":"m","max_tokens":100,"stream":true,"messages":[` + strings.Join(tt.history, ",") + `]}`
		resp, err := http.Post(url+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(data), tt.want) || !strings.HasSuffix(string(data), "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n") {
			t.Errorf("%d messages: response lacks %s:\n%s", len(tt.history), tt.want, data)
		}
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not return after cancel")
	}
	checkLog(t, logPath, []int{1, 3, 5, 7, 1})
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// checkLog checks the log has one line per request with these message counts.
func checkLog(t *testing.T, path string, messages []int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != len(messages) {
		t.Fatalf("log has %d lines, want %d:\n%s", len(lines), len(messages), data)
	}
	var prev int64
	for i, l := range lines {
		var got logLine
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if got.Path != "/v1/messages" || got.Messages != messages[i] || got.BodyBytes < 60 || got.TimeUnixNano < prev {
			t.Errorf("line %d = %s", i, l)
		}
		prev = got.TimeUnixNano
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want error
	}{
		{nil, errUsage},
		{[]string{"-script"}, errUsage},
		{[]string{"-script", "x.json", "extra"}, errUsage},
		{[]string{"-bogus"}, errUsage},
		{[]string{"-h"}, flag.ErrHelp},
	}
	for _, tt := range tests {
		err := run(context.Background(), tt.args, io.Discard, io.Discard)
		if !errors.Is(err, tt.want) {
			t.Errorf("%q: err = %v, want %v", tt.args, err, tt.want)
		}
	}
	err := run(context.Background(), []string{"-script", "testdata/missing.json"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing script: err = %v", err)
	}
}
