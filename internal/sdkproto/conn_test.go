package sdkproto

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
)

// lockedBuffer is a bytes.Buffer safe for the writer and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) lines() []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.b.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

func TestTheInputIsQueuedInOrderAndControlsAreAnsweredAtOnce(t *testing.T) {
	out := &lockedBuffer{}
	var controls []string
	c := New(out, func(subtype string, _ json.RawMessage) (any, func(), error) {
		controls = append(controls, subtype)
		return map[string]any{"ok": true}, nil, nil
	})
	in := strings.Join([]string{
		`{"type":"control_request","request_id":"a","request":{"subtype":"initialize","systemPrompt":"Be brief.","appendSystemPrompt":"More."}}`,
		`{"type":"user","message":{"role":"user","content":"first"},"parent_tool_use_id":null,"session_id":""}`,
		`{"type":"control_request","request_id":"b","request":{"subtype":"interrupt"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"second"},{"type":"image"}]}}`,
	}, "\n")
	if err := c.Read(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		next, ok := c.Next(context.Background())
		if !ok {
			break
		}
		switch {
		case next.Init != nil:
			got = append(got, "init "+next.ID+" "+next.Init.SystemPrompt.Text()+" "+next.Init.AppendSystemPrompt)
		case next.User != nil:
			got = append(got, "user "+next.User.Text())
		}
	}
	want := []string{"init a Be brief. More.", "user first", "user second"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("queued %q, want %q", got, want)
	}
	lines := out.lines()
	if len(controls) != 1 || controls[0] != "interrupt" || len(lines) != 1 {
		t.Fatalf("controls %v, output %v: want the interrupt answered at once", controls, lines)
	}
	if r := lines[0]["response"].(map[string]any); r["request_id"] != "b" || r["subtype"] != "success" {
		t.Errorf("answer %v, want success for b", r)
	}
}

func TestAPermissionQuestionIsAnsweredByTheProgram(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		want   permission.Answer
	}{
		{"allow with a rewritten input", `{"behavior":"allow","updatedInput":{"command":"ls"}}`,
			permission.Answer{Allow: true, UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{"deny with a message", `{"behavior":"deny","message":"not here"}`, permission.Answer{Message: "not here"}},
		{"deny that interrupts", `{"behavior":"deny","message":"stop","interrupt":true}`, permission.Answer{Message: "stop", Interrupt: true}},
		{"allow that sets the session's mode", `{"behavior":"allow","updatedInput":{},"updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]}`,
			permission.Answer{Allow: true, UpdatedInput: json.RawMessage(`{}`), Mode: permission.ModeAcceptEdits}},
		{"allow whose rule updates are not modes", `{"behavior":"allow","updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash"}],"behavior":"allow","destination":"session"}]}`,
			permission.Answer{Allow: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			out := &lockedBuffer{}
			c := New(out, nil)
			read := make(chan error, 1)
			go func() { read <- c.Read(pr) }()
			type result struct {
				a   permission.Answer
				err error
			}
			asked := make(chan result, 1)
			go func() {
				a, err := Prompter{Conn: c}.Ask(context.Background(), permission.Prompt{Tool: "Bash", ToolUseID: "toolu_1",
					Input: json.RawMessage(`{"command":"rm -rf x"}`), Rule: "Bash(rm:*)"})
				asked <- result{a, err}
			}()
			for len(out.lines()) == 0 {
				time.Sleep(time.Millisecond) // until the question is out
			}
			q := out.lines()[0]
			req := q["request"].(map[string]any)
			if req["subtype"] != "can_use_tool" || req["tool_name"] != "Bash" || req["tool_use_id"] != "toolu_1" {
				t.Errorf("question %v, want can_use_tool about the call", q)
			}
			io.WriteString(pw, `{"type":"control_response","response":{"subtype":"success","request_id":"`+q["request_id"].(string)+`","response":`+tt.answer+"}}\n")
			got := <-asked
			pw.Close()
			if err := <-read; err != nil || got.err != nil {
				t.Fatalf("read %v, ask %v", err, got.err)
			}
			if got.a.Allow != tt.want.Allow || got.a.Message != tt.want.Message || got.a.Interrupt != tt.want.Interrupt ||
				string(got.a.UpdatedInput) != string(tt.want.UpdatedInput) || got.a.Mode != tt.want.Mode {
				t.Errorf("answer %+v, want %+v", got.a, tt.want)
			}
		})
	}
}

func TestPartialMessagesFollowTheMessagesAPIsEvents(t *testing.T) {
	var types []string
	p := &Partial{Send: func(v any) {
		ev := v.(streamEvent).Event.(map[string]any)
		types = append(types, ev["type"].(string))
	}}
	for _, e := range []agent.Event{agent.TextDelta{Text: "a"}, agent.TextDelta{Text: "b"}, agent.ToolInputDelta{ID: "t", Name: "Read"},
		agent.ToolInputDelta{ID: "t", PartialJSON: "{}"}, agent.AssistantMessage{StopReason: llm.StopToolUse}} {
		p.Before(e)
		p.After(e)
	}
	want := "message_start content_block_start content_block_delta content_block_delta content_block_stop content_block_start content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("events\n%s\nwant\n%s", got, want)
	}
}

// pendingRequest starts a request of ours on c and waits until it is out,
// returning its id and where its outcome arrives.
func pendingRequest(t *testing.T, ctx context.Context, c *Conn, out *lockedBuffer) (string, <-chan error) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := c.Request(ctx, map[string]string{"subtype": "can_use_tool"})
		done <- err
	}()
	for len(out.lines()) == 0 {
		time.Sleep(time.Millisecond)
	}
	return out.lines()[0]["request_id"].(string), done
}

func TestAQuestionGivenUpIsWithdrawnOnceWithAControlCancelRequest(t *testing.T) {
	tests := []struct {
		name    string
		giveUp  func(c *Conn, cancel context.CancelFunc)
		wantErr error
	}{
		// The program interrupted the turn: withdrawn before the interrupt is answered.
		{"withdrawn", func(c *Conn, _ context.CancelFunc) { c.WithdrawAll()() }, ErrWithdrawn},
		{"its context ended", func(_ *Conn, cancel context.CancelFunc) { cancel() }, context.Canceled},
		{"both", func(c *Conn, cancel context.CancelFunc) { release := c.WithdrawAll(); cancel(); release() }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := &lockedBuffer{}
			c := New(out, nil)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			id, done := pendingRequest(t, ctx, c, out)
			tt.giveUp(c, cancel)
			err := <-done
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) || err == nil {
				t.Errorf("the request returned %v, want %v", err, tt.wantErr)
			}
			// A late answer is dropped.
			if err := c.Read(strings.NewReader(`{"type":"control_response","response":{"subtype":"success","request_id":"` + id + `","response":{}}}` + "\n")); err != nil {
				t.Fatal(err)
			}
			var cancels []string
			for _, l := range out.lines()[1:] {
				cancels = append(cancels, fmt.Sprint(l["type"], " ", l["request_id"]))
			}
			if want := "control_cancel_request " + id; len(cancels) != 1 || cancels[0] != want {
				t.Errorf("wrote %q after the question, want one %q", cancels, want)
			}
		})
	}
}

// Claude Code aborts, on the program's control_cancel_request, its handling
// of the program's own long requests (a side question, an MCP call through
// the CLI); mini-claude answers each of the program's requests at once, so
// there is never one to abort, and one naming a question of ours does not
// end it: the program answers that.
func TestTheProgramsControlCancelRequestLeavesOurQuestionWaitingForItsAnswer(t *testing.T) {
	pr, pw := io.Pipe()
	out := &lockedBuffer{}
	c := New(out, nil)
	read := make(chan error, 1)
	go func() { read <- c.Read(pr) }()
	id, done := pendingRequest(t, context.Background(), c, out)
	io.WriteString(pw, `{"type":"control_cancel_request","request_id":"`+id+`"}`+"\n")
	io.WriteString(pw, `{"type":"control_cancel_request","request_id":"unknown"}`+"\n")
	io.WriteString(pw, `{"type":"control_response","response":{"subtype":"success","request_id":"`+id+`","response":{"behavior":"allow"}}}`+"\n")
	if err := <-done; err != nil {
		t.Errorf("the question ended with %v, want the program's answer", err)
	}
	pw.Close()
	if err := <-read; err != nil {
		t.Fatal(err)
	}
	if n := len(out.lines()); n != 1 {
		t.Errorf("wrote %d lines, want only the question", n)
	}
}

func TestAUserMessagesImagesGoToTheModelBesideItsText(t *testing.T) {
	tests := []struct {
		name, content string
		wantText      string
		wantImages    []string
	}{
		{"a string", `"hello"`, "hello", nil},
		{"text and images", `[{"type":"text","text":"what is this?"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAA"}},` +
			`{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"BBB"}}]`, "what is this?", []string{"image/png AAA", "image/jpeg BBB"}},
		{"an image without its source", `[{"type":"image"}]`, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m UserMessage
			if err := json.Unmarshal([]byte(`{"type":"user","message":{"role":"user","content":`+tt.content+`}}`), &m); err != nil {
				t.Fatal(err)
			}
			var images []string
			for _, b := range m.Images() {
				if b.Type != llm.BlockImage || b.Source.Type != "base64" {
					t.Errorf("block %+v, want a base64 image", b)
				}
				images = append(images, b.Source.MediaType+" "+b.Source.Data)
			}
			if m.Text() != tt.wantText || strings.Join(images, "|") != strings.Join(tt.wantImages, "|") {
				t.Errorf("text %q, images %q; want %q, %q", m.Text(), images, tt.wantText, tt.wantImages)
			}
		})
	}
}
