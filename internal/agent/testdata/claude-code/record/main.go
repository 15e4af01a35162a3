// Command record asks the real Claude Code 2.1.332 what it does when the
// model's response stops at max_tokens inside a tool call, and writes the
// answers as the golden files of internal/agent/testdata/claude-code (see the
// README there):
//
//	go run ./internal/agent/testdata/claude-code/record [-claude PATH] [-out DIR] [-keep]
//
// For each scenario it makes a scratch project and HOME, starts the scripted
// model server of internal/llm/llmtest, runs claude -p against it twice (stream-json,
// then text) and writes what the model was sent and what claude printed, with
// the values that change from run to run replaced by placeholders.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mini-claude/mini-claude/internal/goldenfile/recorder"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

const prompt = "Do the task."

// scenario is one scripted conversation: first answers the first request
// (the response cut by max_tokens; "<cwd>" in a tool input is the project;
// the cut inputs name a fixed path, so the lengths Claude Code reports do
// not depend on the scratch folder's),
// every later request gets the text "done".
type scenario struct {
	name  string
	about string
	files map[string]string
	first llmtest.Turn
}

func scenarios() []scenario {
	return []scenario{{
		name:  "max_tokens_tool_use",
		about: "a text, then a Write call whose input JSON is cut mid-string; stop_reason max_tokens",
		first: llmtest.Turn{StopReason: llm.StopMaxTokens, Blocks: []llm.ContentBlock{
			llmtest.Text("I will write the file."),
			llmtest.ToolUse("", "Write", `{"file_path":"/tmp/maxtok/out.txt","content":"first line\nsecond`),
		}},
	}, {
		name:  "max_tokens_long_tool_use",
		about: "a Write call cut after 566 UTF-16 units of input (886 bytes, 556 code points: 😀 is 4 bytes and 2 units, é 2 bytes and 1 unit): how much of it the error quotes, and how it counts",
		first: llmtest.Turn{StopReason: llm.StopMaxTokens, Blocks: []llm.ContentBlock{
			llmtest.ToolUse("", "Write", `{"file_path":"/tmp/maxtok/long.txt","content":"`+strings.Repeat("😀", 10)+strings.Repeat("é", 300)+strings.Repeat("0123456789", 20)),
		}},
	}, {
		name:  "max_tokens_complete_tool_use",
		about: "two Read calls whose inputs are complete JSON, yet stop_reason max_tokens",
		files: map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"},
		first: llmtest.Turn{StopReason: llm.StopMaxTokens, Blocks: []llm.ContentBlock{
			llmtest.ToolUse("", "Read", `{"file_path":"<cwd>/a.txt"}`),
			llmtest.ToolUse("", "Read", `{"file_path":"<cwd>/b.txt"}`),
		}},
	}}
}

func main() {
	var f recorder.Flags
	f.Register(flag.CommandLine)
	out := flag.String("out", filepath.Join("internal", "agent", "testdata", "claude-code"), "folder the golden files are written to")
	flag.Parse()
	if err := run(f, *out); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func run(f recorder.Flags, out string) error {
	claude, err := recorder.Check(f.Claude)
	if err != nil {
		return err
	}
	for _, sc := range scenarios() {
		if !f.Wants(sc.name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "record: %s\n", sc.name)
		golden, err := record(claude, sc, f.Keep)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
		if err := os.WriteFile(filepath.Join(out, sc.name+".json"), golden, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// run is one run of claude: its arguments, exit code and output.
type runOutput struct {
	Args     []string `json:"args"`
	ExitCode int      `json:"exit_code"`
	Stdout   any      `json:"stdout"` // the lines of stream-json, the text of text
	Stderr   string   `json:"stderr"`
}

// request is what one model request carried, after the first user message
// (Claude Code's standard reminders and the prompt).
type request struct {
	MaxTokens int           `json:"max_tokens"`
	Messages  []llm.Message `json:"messages"`
}

// block is a block of the scripted response; a tool_use's input as streamed,
// which may not be valid JSON.
type block struct {
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	Name      string `json:"name,omitempty"`
	InputJSON string `json:"input_json,omitempty"`
}

// golden is the file written for a scenario.
type golden struct {
	ClaudeCode string    `json:"claude_code"`
	About      string    `json:"about"`
	Prompt     string    `json:"prompt"`
	Response   []block   `json:"first_response"`
	StopReason string    `json:"first_stop_reason"`
	Requests   []request `json:"requests"`
	Stream     runOutput `json:"stream_json"`
	Text       runOutput `json:"text"`
}

func record(claude string, sc scenario, keep bool) ([]byte, error) {
	s, err := recorder.NewScratch("maxtokref-", sc.name, keep)
	if err != nil {
		return nil, err
	}
	defer s.Remove()
	proj, home := s.Proj, s.Home
	for name, content := range sc.files {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	if err := recorder.WriteState(home, proj); err != nil {
		return nil, err
	}
	first := sc.first
	first.Blocks = nil
	for _, b := range sc.first.Blocks {
		if b.Type == llm.BlockToolUse {
			b.Input = json.RawMessage(strings.ReplaceAll(string(b.Input), "<cwd>", proj))
		}
		first.Blocks = append(first.Blocks, b)
	}
	g := golden{ClaudeCode: recorder.Version, About: sc.about, Prompt: prompt, StopReason: string(sc.first.StopReason)}
	for _, b := range sc.first.Blocks {
		g.Response = append(g.Response, block{Type: string(b.Type), Text: b.Text, Name: b.Name, InputJSON: string(b.Input)})
	}
	srv, err := llmtest.Start()
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	for i, format := range []string{"stream-json", "text"} {
		before := len(srv.Requests())
		srv.Push(first, llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
		args := []string{"-p", prompt, "--output-format", format, "--model", recorder.Model}
		if format == "stream-json" {
			args = append(args, "--verbose")
		}
		res, err := recorder.Command{Path: claude, Args: args, Dir: proj, Env: recorder.Env(home, srv.URL)}.Run(context.Background())
		if err != nil {
			return nil, err
		}
		o := runOutput{Args: args, ExitCode: res.ExitCode}
		o.Stderr = retiredRe.ReplaceAllString(string(res.Stderr), "")
		if n := srv.Pending(); n != 0 {
			return nil, fmt.Errorf("%s run: %d scripted turns left unserved", format, n)
		}
		if i == 0 {
			var lines []json.RawMessage
			for _, l := range bytes.Split(bytes.TrimSpace(res.Stdout), []byte("\n")) {
				var v struct{ Type, Subtype string }
				if err := json.Unmarshal(l, &v); err != nil {
					return nil, fmt.Errorf("stream-json line %q: %w", l, err)
				}
				if v.Type == "system" && v.Subtype == "init" {
					continue // the tools, commands and plugins of this installation
				}
				lines = append(lines, l)
			}
			o.Stdout = lines
			for _, r := range srv.Requests()[before:] {
				g.Requests = append(g.Requests, request{MaxTokens: r.MaxTokens, Messages: r.Messages[1:]})
			}
			g.Stream = o
		} else {
			o.Stdout = string(res.Stdout)
			g.Text = o
		}
	}
	recorder.ReportViolations(sc.name, srv)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g); err != nil {
		return nil, err
	}
	return normalize(buf.Bytes(), proj), nil
}

var (
	uuidRe    = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	isoRe     = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)
	retiredRe = regexp.MustCompile(`(?m)^⚠ Claude Sonnet 4\.5 was retired.*\n`)
	// timeRe is a number that measures time.
	timeRe = regexp.MustCompile(`("(?:duration_ms|duration_api_ms|ttft_ms|ttft_stream_ms|time_to_request_ms|first_content_frame_ms)": )\d+`)
)

// normalize replaces, in a JSON text, the project's path by <cwd>, UUIDs by
// <uuid>, timestamps by <timestamp> and durations by 0, keeping key order.
func normalize(data []byte, proj string) []byte {
	data = bytes.ReplaceAll(data, []byte(proj), []byte("<cwd>"))
	data = uuidRe.ReplaceAll(data, []byte("<uuid>"))
	data = isoRe.ReplaceAll(data, []byte("<timestamp>"))
	return timeRe.ReplaceAll(data, []byte("${1}0"))
}
