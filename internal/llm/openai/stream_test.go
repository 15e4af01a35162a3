package openai

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func TestTextTurn(t *testing.T) {
	srv := llmtest.New(t)
	const text = "Hello there, this answer is streamed in several chunks."
	srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(text)},
		Usage: llm.Usage{InputTokens: 11, OutputTokens: 22, CacheReadInputTokens: 44}})
	events, err := llmtest.Collect(context.Background(), newClient(t, srv), simpleRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	deltas := 0
	for _, ev := range events[:len(events)-1] {
		d, ok := ev.(llm.TextDelta)
		if !ok {
			t.Fatalf("unexpected event %#v", ev)
		}
		got.WriteString(d.Text)
		deltas++
	}
	if got.String() != text || deltas < 3 {
		t.Errorf("text %q in %d deltas", got.String(), deltas)
	}
	want := llm.MessageEnd{
		Message:    llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock(text)}},
		StopReason: llm.StopEndTurn,
		Usage:      llm.Usage{InputTokens: 11, OutputTokens: 22, CacheReadInputTokens: 44},
		MessageID:  "chatcmpl-llmtest-001",
		RequestID:  "req_llmtest_001",
	}
	if end := llmtest.LastEnd(t, events); !reflect.DeepEqual(end, want) {
		t.Errorf("end = %+v\nwant %+v", end, want)
	}
	req := srv.Requests()[0]
	if req.Path != "/v1/chat/completions" || req.Header.Get("Authorization") != "Bearer test-key" || req.Header.Get("Accept") != "text/event-stream" {
		t.Errorf("path %q, headers %v", req.Path, req.Header)
	}
	if req.Model != "gpt-test" || req.MaxTokens != 0 || !req.Stream || !req.IncludeUsage {
		t.Errorf("request: model %q max %d stream %v include_usage %v", req.Model, req.MaxTokens, req.Stream, req.IncludeUsage)
	}
}

func TestToolCallsTurn(t *testing.T) {
	const input = `{"command":"go test ./... -run TestToolCallsTurn","timeout":120000}`
	srv := llmtest.New(t)
	srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{
		llmtest.Thinking("Run the tests, then list.", ""),
		llmtest.Text("Running."),
		llmtest.ToolUse("call_7", "Bash", input),
		llmtest.ToolUse("call_8", "Glob", ""),
	}})
	events, err := llmtest.Collect(context.Background(), newClient(t, srv), simpleRequest("test it"))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	partial := map[string]string{}
	var thinking strings.Builder
	for _, ev := range events {
		switch e := ev.(type) {
		case llm.ToolUseStart:
			kinds = append(kinds, "start:"+e.ID+":"+e.Name)
		case llm.ToolUseDelta:
			partial[e.ID] += e.PartialJSON
		case llm.ToolUseEnd:
			kinds = append(kinds, "end:"+e.ID+":"+string(e.Input))
		case llm.ThinkingDelta:
			thinking.WriteString(e.Thinking)
		}
	}
	wantKinds := []string{"start:call_7:Bash", "start:call_8:Glob", "end:call_7:" + input, "end:call_8:{}"}
	if !reflect.DeepEqual(kinds, wantKinds) || partial["call_7"] != input || partial["call_8"] != "" {
		t.Errorf("tool events %q, partial %q", kinds, partial)
	}
	end := llmtest.LastEnd(t, events)
	want := llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
		{Type: llm.BlockThinking, Thinking: "Run the tests, then list."},
		llm.TextBlock("Running."),
		llmtest.ToolUse("call_7", "Bash", input),
		llmtest.ToolUse("call_8", "Glob", "{}"),
	}}
	if end.StopReason != llm.StopToolUse || !reflect.DeepEqual(end.Message, want) || thinking.String() != "Run the tests, then list." {
		t.Errorf("end = %+v", end)
	}
}

func TestHistoryGoesBackPaired(t *testing.T) {
	srv := llmtest.New(t)
	srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("c1", "Read", `{"file_path":"a"}`), llmtest.ToolUse("c2", "Read", `{"file_path":"b"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}},
	)
	c := newClient(t, srv)
	req := simpleRequest("read both")
	events, err := llmtest.Collect(context.Background(), c, req)
	if err != nil {
		t.Fatal(err)
	}
	results := llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{
		llm.ToolResultBlock("c1", []llm.ContentBlock{llm.TextBlock("A")}, false),
		llm.ToolResultBlock("c2", []llm.ContentBlock{llm.TextBlock("no such file")}, true),
		llm.TextBlock("<system-reminder>a notice</system-reminder>"),
	}}
	req.Messages = append(req.Messages, llmtest.LastEnd(t, events).Message, results)
	if _, err := llmtest.Collect(context.Background(), c, req); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[1].Messages
	if len(got) != 3 || !reflect.DeepEqual(got[1], req.Messages[1]) {
		t.Fatalf("history sent back as %+v", got)
	}
	wantResults := results
	wantResults.Content = slicesClone(results.Content)
	wantResults.Content[1].IsError = false // chat completions has no error flag; the text says it
	if !reflect.DeepEqual(got[2], wantResults) {
		t.Errorf("results sent back as %+v", got[2])
	}
}

func slicesClone(b []llm.ContentBlock) []llm.ContentBlock {
	return append([]llm.ContentBlock(nil), b...)
}

// Chunk shapes seen from other servers than llmtest, written out by hand.
func TestOtherServersChunks(t *testing.T) {
	const head = `data: {"id":"chatcmpl-x","choices":[{"index":0,"delta":`
	tests := []struct {
		name  string
		body  string
		want  llm.Message
		stop  llm.StopReason
		usage llm.Usage
	}{{
		name: "whole call in one chunk, finish stop, CRLF, comments, no [DONE]",
		body: ": keep-alive\r\n\r\n" + head + `{"role":"assistant","content":"","tool_calls":[{"id":"call_a","index":0,"type":"function","function":{"name":"Bash","arguments":"{\"command\":\"ls\"}"}}]},"finish_reason":null}]}` + "\r\n\r\n" +
			head + `{"content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":3}}` + "\r\n\r\n",
		want: llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llmtest.ToolUse("call_a", "Bash", `{"command":"ls"}`)}},
		stop: llm.StopToolUse, usage: llm.Usage{InputTokens: 5, OutputTokens: 3},
	}, {
		name: "every call at index 0 with its own id",
		body: head + `{"tool_calls":[{"id":"a","index":0,"function":{"name":"Read","arguments":"{}"}}]},"finish_reason":null}]}` + "\n\n" +
			head + `{"tool_calls":[{"id":"b","index":0,"function":{"name":"Glob","arguments":"{\"pattern\":"}}]},"finish_reason":null}]}` + "\n\n" +
			head + `{"tool_calls":[{"index":0,"function":{"arguments":"\"*\"}"}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n",
		want: llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llmtest.ToolUse("a", "Read", `{}`), llmtest.ToolUse("b", "Glob", `{"pattern":"*"}`)}},
		stop: llm.StopToolUse,
	}, {
		name: "no ids, no index, reasoning field",
		body: head + `{"reasoning":"think"},"finish_reason":null}]}` + "\n\n" +
			head + `{"tool_calls":[{"function":{"name":"Read","arguments":"{\"file_path\""}}]},"finish_reason":null}]}` + "\n\n" +
			head + `{"tool_calls":[{"function":{"arguments":":\"x\"}"}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n",
		want: llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockThinking, Thinking: "think"}, llmtest.ToolUse("call_x_1", "Read", `{"file_path":"x"}`)}},
		stop: llm.StopToolUse,
	}, {
		name: "refusal, cached tokens, multi-line data",
		body: "data: {\"id\":\"chatcmpl-x\",\ndata: \"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"I can't help with that.\"},\"finish_reason\":\"stop\"}]}\n\n" +
			`data: {"id":"chatcmpl-x","choices":[],"usage":{"prompt_tokens":100,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":60}}}` + "\n\ndata: [DONE]\n\n",
		want:  llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("I can't help with that.")}},
		stop:  llm.StopRefusal,
		usage: llm.Usage{InputTokens: 40, OutputTokens: 7, CacheReadInputTokens: 60},
	}, {
		name: "length",
		body: head + `{"content":"abc"},"finish_reason":"length"}]}` + "\n\ndata: [DONE]\n\n",
		want: llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("abc")}},
		stop: llm.StopMaxTokens,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := rawServer(t, 200, http.Header{"Content-Type": {"text/event-stream"}, "X-Request-Id": {"req_raw"}}, tt.body)
			events, err := llmtest.Collect(context.Background(), newClientAt(t, url), simpleRequest("hi"))
			if err != nil {
				t.Fatal(err)
			}
			end := llmtest.LastEnd(t, events)
			if !reflect.DeepEqual(end.Message, tt.want) || end.StopReason != tt.stop || end.Usage != tt.usage || end.RequestID != "req_raw" || end.MessageID != "chatcmpl-x" {
				t.Errorf("end = %+v\nwant message %+v, stop %s, usage %+v", end, tt.want, tt.stop, tt.usage)
			}
		})
	}
}

func TestConsumerStopsEarly(t *testing.T) {
	srv := llmtest.New(t)
	srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("a long answer in many chunks to stop in the middle of")}})
	n := 0
	for ev, err := range newClient(t, srv).Stream(context.Background(), simpleRequest("hi")) {
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := ev.(llm.TextDelta); ok {
			n++
			break
		}
	}
	if n != 1 || len(srv.Requests()) != 1 {
		t.Errorf("got %d deltas, %d requests", n, len(srv.Requests()))
	}
}
