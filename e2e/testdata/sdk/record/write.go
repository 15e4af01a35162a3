package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// modelFile is a scenario's model script: turns served by history, and
// routes whose own turns serve the conversations a prompt starts.
type modelFile struct {
	Turns  json.RawMessage `json:"turns"`
	Routes []struct {
		Prompt string          `json:"prompt"`
		Turns  json.RawMessage `json:"turns"`
	} `json:"routes"`
}

// serveScenario makes srv serve the model script at path, "<cwd>" in it
// standing for the project.
func serveScenario(srv *llmtest.Server, path, cwd string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	data = bytes.ReplaceAll(data, []byte("<cwd>"), []byte(cwd))
	var f modelFile
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	parse := func(turns json.RawMessage) ([]llmtest.Turn, error) {
		return llmtest.ParseScript([]byte(`{"turns":`+string(turns)+`}`), path)
	}
	for _, r := range f.Routes {
		turns, err := parse(r.Turns)
		if err != nil {
			return err
		}
		srv.Route(llmtest.FirstUserText(r.Prompt), turns...)
	}
	if f.Turns != nil {
		turns, err := parse(f.Turns)
		if err != nil {
			return err
		}
		if planned(data) {
			servePlanned(srv, turns)
			return nil
		}
		srv.ServeByHistory(turns...)
	}
	return nil
}

// normalizer replaces what changes from one recording to the next:
// the scratch folders (<cwd>, <home>, <tmp>, and the project's folder name
// under ~/.claude/projects, <cwd_slug>), the model server (<base_url>),
// UUIDs and other ids (<KEY_N>, numbered per key in order of appearance, so
// equal ids stay equal), timestamps, and numbers that measure time (0).
type normalizer struct {
	paths *strings.Replacer
	ids   map[string]string
	count map[string]int
}

var (
	uuidRe   = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	isoRe    = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)
	socketRe = regexp.MustCompile(`/tmp/cc-socks/\d+\.sock`)
	// idKeys hold ids that are not UUIDs.
	idKeys = map[string]bool{"request_id": true, "tool_use_id": true, "toolUseID": true, "callback_id": true}
	// timeKeys hold numbers that measure time.
	timeKeys = map[string]bool{"duration_ms": true, "duration_api_ms": true, "ttft_ms": true, "ttft_stream_ms": true,
		"time_to_request_ms": true, "first_content_frame_ms": true, "durationMs": true, "total_duration_ms": true}
)

func newNormalizer(tmp, cwd, home, baseURL string) *normalizer {
	slug := regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(cwd, "-")
	pairs := [][2]string{{slug, "<cwd_slug>"}, {cwd, "<cwd>"}, {home, "<home>"}, {tmp, "<tmp>"}, {baseURL, "<base_url>"}}
	sort.SliceStable(pairs, func(i, j int) bool { return len(pairs[i][0]) > len(pairs[j][0]) })
	var flat []string
	for _, p := range pairs {
		flat = append(flat, p[0], p[1])
	}
	return &normalizer{paths: strings.NewReplacer(flat...), ids: map[string]string{}, count: map[string]int{}}
}

// id returns the placeholder of an id found under key.
func (n *normalizer) id(key, v string) string {
	if p, ok := n.ids[v]; ok {
		return p
	}
	n.count[key]++
	p := fmt.Sprintf("<%s_%d>", key, n.count[key])
	n.ids[v] = p
	return p
}

func (n *normalizer) value(key string, v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = n.value(k, x)
		}
		return v
	case []any:
		for i, x := range v {
			v[i] = n.value(key, x)
		}
		return v
	case string:
		if key == "" {
			key = "uuid"
		}
		if idKeys[key] && v != "" && !strings.HasPrefix(v, "toolu_llmtest") {
			return n.id(key, v)
		}
		if m := uuidRe.FindString(v); m == v && v != "" {
			return n.id(key, v)
		}
		v = uuidRe.ReplaceAllStringFunc(v, func(u string) string { return n.id("uuid", u) })
		v = isoRe.ReplaceAllString(v, "<timestamp>")
		v = socketRe.ReplaceAllString(v, "/tmp/cc-socks/<pid>.sock")
		v = planSlugRe.ReplaceAllString(v, "/plans/<plan>.md")
		return n.paths.Replace(v)
	case json.Number:
		if timeKeys[key] {
			return json.Number("0")
		}
	}
	return v
}

// line normalizes one JSON line; a line that is not JSON is kept as a string.
func (n *normalizer) line(data []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		v = string(data)
	}
	out, err := marshal(n.value("", v))
	if err != nil {
		panic(err)
	}
	return out
}

// marshal writes v as JSON without escaping <, > and &.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeLines writes the normalized non-empty lines of data to path.
func writeLines(path string, data []byte, n *normalizer) error {
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			out.Write(n.line(sc.Bytes()))
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// writeProcesses writes, for the i-th process the SDK started, its command
// line (cli-i.args), the lines it read (cli-i.stdin.jsonl) and wrote
// (cli-i.stdout.jsonl).
func writeProcesses(out, tapDir string, n *normalizer) error {
	entries, err := os.ReadDir(tapDir)
	if err != nil {
		return err
	}
	for i, e := range entries {
		src := filepath.Join(tapDir, e.Name())
		prefix := filepath.Join(out, fmt.Sprintf("cli-%d", i+1))
		args, err := os.ReadFile(filepath.Join(src, "args"))
		if err != nil {
			return err
		}
		var lines []string
		for _, a := range strings.Split(strings.TrimSuffix(string(args), "\n"), "\n") {
			k, v, ok := strings.Cut(a, "=")
			if ok {
				a = k + "=" + n.value(strings.TrimLeft(k, "-"), v).(string)
			}
			lines = append(lines, a)
		}
		if err := os.WriteFile(prefix+".args", []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			return err
		}
		for _, stream := range []string{"stdin", "stdout"} {
			data, err := os.ReadFile(filepath.Join(src, stream))
			if err != nil {
				return err
			}
			if err := writeLines(prefix+"."+stream+".jsonl", data, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// request is what a golden file keeps of a model request: the model, the system
// prompt's text blocks, the tools' names and the messages.
type request struct {
	Model    string            `json:"model"`
	System   []string          `json:"system"`
	Tools    []string          `json:"tools"`
	Messages []json.RawMessage `json:"messages"`
}

// writeRequests writes one line per model request.
func writeRequests(path string, reqs []llmtest.Request, n *normalizer) error {
	var out bytes.Buffer
	for _, r := range reqs {
		var body struct {
			System   json.RawMessage         `json:"system"`
			Tools    []struct{ Name string } `json:"tools"`
			Messages []json.RawMessage       `json:"messages"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			return err
		}
		req := request{Model: r.Model, Tools: []string{}, Messages: body.Messages}
		var blocks []struct{ Text string }
		if json.Unmarshal(body.System, &blocks) != nil {
			var s string
			json.Unmarshal(body.System, &s)
			blocks = append(blocks, struct{ Text string }{s})
		}
		for _, b := range blocks {
			req.System = append(req.System, b.Text)
		}
		for _, t := range body.Tools {
			req.Tools = append(req.Tools, t.Name)
		}
		line, err := json.Marshal(req)
		if err != nil {
			return err
		}
		out.Write(n.line(line))
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}
