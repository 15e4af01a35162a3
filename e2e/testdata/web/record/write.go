package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/tools/web/webtest"
)

// streamLine is the part of a stream-json line the recorder reads.
type streamLine struct {
	Type    string `json:"type"`
	Message struct {
		Content []struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
			IsError   bool            `json:"is_error"`
		} `json:"content"`
	} `json:"message"`
	ToolUseResult json.RawMessage `json:"tool_use_result"`
}

// result is the tool_result of the scenario's call and the stream's
// tool_use_result beside it.
type result struct {
	IsError       bool            `json:"is_error"`
	Content       json.RawMessage `json:"content"`
	toolUseResult json.RawMessage
}

// callResult finds the result of the scenario's call in the stream.
func (r *recording) callResult(tool string) (*result, error) {
	sc := bufio.NewScanner(bytes.NewReader(r.stdout))
	sc.Buffer(nil, 64<<20)
	id := ""
	for sc.Scan() {
		var line streamLine
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		for _, b := range line.Message.Content {
			switch {
			case line.Type == "assistant" && b.Type == "tool_use" && b.Name == tool:
				id = b.ID
			case line.Type == "user" && b.Type == "tool_result" && id != "" && b.ToolUseID == id:
				return &result{IsError: b.IsError, Content: b.Content, toolUseResult: line.ToolUseResult}, nil
			}
		}
	}
	return nil, fmt.Errorf("no result of the %s call in the stream (stderr: %s)", tool, r.stderr)
}

// sideRequests are the requests the tools made of the model themselves.
func (r *recording) sideRequests() []llmtest.Request {
	var side []llmtest.Request
	for _, req := range r.requests {
		if len(req.ServerTools) > 0 || (len(req.Messages) > 0 && strings.Contains(req.Messages[0].Text(), "Web page content:")) {
			side = append(side, req)
		}
	}
	return side
}

// sideRequestJSON is a side request as kept: its beta header and its body
// without metadata, which holds the device and session ids.
type sideRequestJSON struct {
	AnthropicBeta string                     `json:"anthropic-beta"`
	Body          map[string]json.RawMessage `json:"body"`
}

// write writes a scenario's files under out/<kind>/<name>.
func (r *recording) write(out string, site *webtest.Server, sc scenario) error {
	dir := filepath.Join(out, sc.kind, sc.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	res, err := r.callResult(sc.tool)
	if err != nil {
		return err
	}
	files := map[string]any{"input.json": sc.input, "result.json": res}
	if len(res.toolUseResult) > 0 && string(res.toolUseResult) != "null" {
		var tur map[string]json.RawMessage
		if json.Unmarshal(res.toolUseResult, &tur) == nil {
			for _, k := range []string{"durationMs", "durationSeconds"} {
				if _, ok := tur[k]; ok {
					tur[k] = json.RawMessage("0")
				}
			}
			files["tool_use_result.json"] = tur
		} else {
			files["tool_use_result.json"] = res.toolUseResult
		}
	}
	var side []sideRequestJSON
	for _, req := range r.sideRequests() {
		var body map[string]json.RawMessage
		if err := json.Unmarshal(req.Body, &body); err != nil {
			return err
		}
		delete(body, "metadata")
		side = append(side, sideRequestJSON{AnthropicBeta: req.Header.Get("anthropic-beta"), Body: body})
	}
	if len(side) > 0 {
		files["side_requests.json"] = side
	}
	for name, v := range files {
		if err := writeJSON(filepath.Join(dir, name), site, v); err != nil {
			return err
		}
	}
	return nil
}

// writeTools writes the WebFetch and WebSearch definitions Claude Code sent
// once ToolSearch had loaded them.
func (r *recording) writeTools(out string) error {
	for _, req := range r.requests {
		var specs []any
		for _, t := range req.Tools {
			if t.Name == "WebFetch" || t.Name == "WebSearch" {
				specs = append(specs, t)
			}
		}
		if len(specs) == 2 {
			return writeJSON(filepath.Join(out, "tools.json"), nil, specs)
		}
	}
	return fmt.Errorf("no request offered both WebFetch and WebSearch")
}

// writeJSON writes v indented, normalized for site when it is set.
func writeJSON(path string, site *webtest.Server, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	data := buf.Bytes()
	if site != nil {
		data = normalize(site, data)
	}
	return os.WriteFile(path, data, 0o644)
}
