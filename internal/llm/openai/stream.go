package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"net/http"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/retry"
)

// errIncomplete is a stream that ended before a finish_reason or [DONE].
var errIncomplete = errors.New("stream ended before the response finished")

// Stream sends req and yields the events of the response as they arrive,
// ending with MessageEnd. Failures are retried as by the Anthropic client: 408,
// 409, 429 and 5xx answers, connection errors and streams cut short are tried
// again after a Retry event (the consumer discards the abandoned attempt's
// deltas); the wait honours retry-after-ms, retry-after and x-should-retry.
// One exception: a refused connection to a loopback address fails at once.
// Other failures, and the last one, end the sequence with an *llm.APIError;
// cancelling ctx ends it promptly with ctx.Err().
//
// ToolUseEnd.Input is the arguments string as the model sent it ("{}" when
// empty): a model may send invalid JSON, which the agent must answer.
func (c *Client) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Event, error] {
	body, err := buildBody(req)
	if err != nil {
		return func(yield func(llm.Event, error) bool) { yield(nil, err) }
	}
	attempt := func(ctx context.Context, _ int, yield func(llm.Event, error) bool) error {
		return c.attempt(ctx, body, yield)
	}
	return retry.Stream(ctx, c.policy, attempt, c.classify)
}

// attempt sends one request and yields its events as they arrive, ending with
// MessageEnd. It returns nil on a complete message, retry.ErrStopped when the
// consumer stopped, or the error that cut the attempt short.
func (c *Client) attempt(ctx context.Context, body []byte, yield func(llm.Event, error) bool) error {
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	h := httpReq.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	if c.apiKey != "" {
		h.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.http.Do(httpReq)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return &statusError{status: resp.StatusCode, header: resp.Header, body: data}
	}
	a := newAssembler(yield)
	done, err := readEvents(resp.Body, a.handle)
	switch {
	case a.stopped:
		return retry.ErrStopped
	case err != nil:
		return err
	case !done && !a.finished:
		return errIncomplete
	}
	end := a.end()
	end.RequestID = resp.Header.Get("x-request-id")
	if a.stopped || !yield(end, nil) {
		return retry.ErrStopped
	}
	return nil
}

// readEvents reads server-sent events from r and hands the data of each to
// handle, until [DONE] (done is then true), the end of r, or an error. Comments
// and event names are ignored; a read error is returned as a broken stream.
func readEvents(r io.Reader, handle func(data []byte) error) (done bool, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var data []byte
	dispatch := func() error {
		if len(data) == 0 {
			return nil
		}
		if string(data) == "[DONE]" {
			done = true
			return nil
		}
		err := handle(data)
		data = data[:0]
		return err
	}
	for !done {
		line, readErr := br.ReadBytes('\n')
		line = bytes.TrimRight(line, "\r\n")
		if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(rest, []byte(" "))...)
		} else if len(line) == 0 || readErr != nil {
			if err := dispatch(); err != nil {
				return done, err
			}
		}
		switch {
		case errors.Is(readErr, io.EOF):
			return done, dispatch()
		case readErr != nil:
			return done, fmt.Errorf("stream broken: %w", readErr)
		}
	}
	return done, nil
}

type chunkJSON struct {
	ID      string       `json:"id"`
	Choices []choiceJSON `json:"choices"`
	Usage   *usageJSON   `json:"usage"`
	// Error is an error reported mid-stream: an object, or a plain message.
	Error json.RawMessage `json:"error"`
	// Object is "error" in vLLM's older error shape, whose fields are then
	// those of errorJSON at the top level.
	Object string `json:"object"`
	errorJSON
}

type choiceJSON struct {
	Index        int       `json:"index"`
	Delta        deltaJSON `json:"delta"`
	FinishReason string    `json:"finish_reason"`
}

type deltaJSON struct {
	Content string `json:"content"`
	Refusal string `json:"refusal"`
	// ReasoningContent (vLLM, llama.cpp, DeepSeek) and Reasoning (Ollama,
	// OpenRouter) carry the thinking of reasoning models.
	ReasoningContent string              `json:"reasoning_content"`
	Reasoning        string              `json:"reasoning"`
	ToolCalls        []toolCallDeltaJSON `json:"tool_calls"`
}

type toolCallDeltaJSON struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type usageJSON struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

// toolCall is a tool call being assembled from its deltas.
type toolCall struct {
	// index is the index the server gave the call, -1 for none.
	index    int
	id, name string
	args     strings.Builder
	started  bool
}

// assembler turns chunks into llm events and the final message.
type assembler struct {
	yield    func(llm.Event, error) bool
	stopped  bool
	finished bool
	id       string
	thinking strings.Builder
	text     strings.Builder
	refusal  bool
	calls    []*toolCall
	finish   string
	usage    llm.Usage
}

func newAssembler(yield func(llm.Event, error) bool) *assembler {
	return &assembler{yield: yield}
}

// emit yields e unless the consumer has stopped.
func (a *assembler) emit(e llm.Event) {
	if !a.stopped && !a.yield(e, nil) {
		a.stopped = true
	}
}

// handle processes the data of one event.
func (a *assembler) handle(data []byte) error {
	var c chunkJSON
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("malformed stream event: %w", err)
	}
	if err := chunkError(c); err != nil {
		return err
	}
	if a.id == "" {
		a.id = c.ID
	}
	if c.Usage != nil {
		a.usage = usageOf(*c.Usage)
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		a.delta(ch.Delta)
		if ch.FinishReason != "" {
			a.finish, a.finished = ch.FinishReason, true
		}
	}
	if a.stopped {
		return retry.ErrStopped
	}
	return nil
}

// delta applies the delta of the first choice.
func (a *assembler) delta(d deltaJSON) {
	if r := d.ReasoningContent + d.Reasoning; r != "" {
		a.thinking.WriteString(r)
		a.emit(llm.ThinkingDelta{Thinking: r})
	}
	if text := d.Content + d.Refusal; text != "" {
		a.text.WriteString(text)
		a.refusal = a.refusal || d.Refusal != ""
		a.emit(llm.TextDelta{Text: text})
	}
	for _, tc := range d.ToolCalls {
		call := a.call(tc)
		if call.name == "" {
			call.name = tc.Function.Name
		}
		call.args.WriteString(tc.Function.Arguments)
		switch {
		case !call.started && call.name != "":
			call.started = true
			a.emit(llm.ToolUseStart{ID: call.id, Name: call.name})
			if call.args.Len() > 0 {
				a.emit(llm.ToolUseDelta{ID: call.id, PartialJSON: call.args.String()})
			}
		case call.started && tc.Function.Arguments != "":
			a.emit(llm.ToolUseDelta{ID: call.id, PartialJSON: tc.Function.Arguments})
		}
	}
}

// call finds the tool call a delta continues, or opens a new one. A delta
// continues the latest call opened at its index (the latest call when it has
// no index) unless it brings a new id: some servers send every call at index 0.
func (a *assembler) call(tc toolCallDeltaJSON) *toolCall {
	var cur *toolCall
	for i := len(a.calls) - 1; i >= 0 && cur == nil; i-- {
		if tc.Index == nil || a.calls[i].index == *tc.Index {
			cur = a.calls[i]
		}
	}
	if cur != nil && (tc.ID == "" || tc.ID == cur.id) {
		return cur
	}
	c := &toolCall{index: -1, id: tc.ID}
	if tc.Index != nil {
		c.index = *tc.Index
	}
	if c.id == "" {
		base := strings.TrimPrefix(a.id, "chatcmpl-")
		if base == "" {
			base = fmt.Sprintf("%08x", rand.Uint32())
		}
		c.id = fmt.Sprintf("call_%s_%d", base, len(a.calls)+1)
	}
	a.calls = append(a.calls, c)
	return c
}

// usageOf converts usage; OpenAI counts cached tokens inside prompt_tokens.
func usageOf(u usageJSON) llm.Usage {
	cached := 0
	if u.PromptTokensDetails != nil {
		cached = min(u.PromptTokensDetails.CachedTokens, u.PromptTokens)
	}
	return llm.Usage{InputTokens: u.PromptTokens - cached, OutputTokens: u.CompletionTokens, CacheReadInputTokens: cached}
}

// stopReason maps finish_reason to our stop reasons; a response with tool
// calls stopped for them whatever the server says (some say "stop").
func (a *assembler) stopReason() llm.StopReason {
	switch {
	case a.finish == "length":
		return llm.StopMaxTokens
	case len(a.calls) > 0:
		return llm.StopToolUse
	case a.finish == "content_filter" || a.refusal:
		return llm.StopRefusal
	}
	return llm.StopEndTurn
}

// end closes the open tool calls and returns the MessageEnd: thinking, text,
// then the tool calls in order.
func (a *assembler) end() llm.MessageEnd {
	msg := llm.Message{Role: llm.RoleAssistant}
	if a.thinking.Len() > 0 {
		msg.Content = append(msg.Content, llm.ContentBlock{Type: llm.BlockThinking, Thinking: a.thinking.String()})
	}
	if a.text.Len() > 0 {
		msg.Content = append(msg.Content, llm.TextBlock(a.text.String()))
	}
	for _, c := range a.calls {
		if !c.started {
			c.started = true
			a.emit(llm.ToolUseStart{ID: c.id, Name: c.name})
		}
		input := json.RawMessage("{}")
		if c.args.Len() > 0 {
			input = json.RawMessage(c.args.String())
		}
		a.emit(llm.ToolUseEnd{ID: c.id, Input: input})
		msg.Content = append(msg.Content, llm.ContentBlock{Type: llm.BlockToolUse, ID: c.id, Name: c.name, Input: input})
	}
	return llm.MessageEnd{Message: msg, StopReason: a.stopReason(), Usage: a.usage, MessageID: a.id}
}
