// Command record asks the real Claude Code 2.1.332 what it sends to the model
// for custom slash commands and skills, and writes its answers as the golden
// files of e2e/testdata/commands (see the README there):
//
//	go run ./e2e/testdata/commands/record [-claude PATH] [-out DIR] [-only NAME,…] [-keep]
//
// For each scenario it makes a scratch project and HOME holding the
// scenario's files, starts the scripted model server of internal/llm/llmtest,
// runs claude -p against it and keeps, normalized: the messages of every
// request (the standard reminders of the first user message cut to their
// opening words), the Skill tool's definition, stdout and stderr.
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
	"sort"
	"strings"

	"github.com/mini-claude/mini-claude/internal/goldenfile/recorder"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func run() error {
	var f recorder.Flags
	f.Register(flag.CommandLine)
	out := flag.String("out", filepath.Join("e2e", "testdata", "commands"), "folder the golden files are written to")
	flag.Parse()
	claude, err := recorder.Check(f.Claude)
	if err != nil {
		return err
	}
	for _, sc := range scenarios() {
		if !f.Wants(sc.name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "record: %s\n", sc.name)
		if err := record(claude, filepath.Join(*out, sc.name), sc, f.Keep); err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
	}
	return nil
}

// scenario is one run of claude -p and the files it runs among.
type scenario struct {
	name string
	// project and home are files of the scratch project and HOME, by
	// slash-separated path.
	project, home map[string]string
	prompt        string
	// turns are the model's answers, the i-th to a request whose history
	// holds i assistant messages (the last past the end).
	turns     []llmtest.Turn
	untrusted bool
	extra     []string
}

// record runs one scenario and writes its golden files into dir.
func record(claude, dir string, sc scenario, keep bool) error {
	s, err := recorder.NewScratch("cmdref-", sc.name, keep)
	if err != nil {
		return err
	}
	defer s.Remove()
	tmp, proj, home := s.Dir, s.Proj, s.Home
	for root, files := range map[string]map[string]string{proj: sc.project, home: sc.home} {
		for name, content := range files {
			if err := writeFile(filepath.Join(root, name), content); err != nil {
				return err
			}
		}
	}
	var trusted []string
	if !sc.untrusted {
		trusted = append(trusted, proj)
	}
	if err := recorder.WriteState(home, trusted...); err != nil {
		return err
	}

	srv, err := llmtest.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		if len(sc.turns) == 0 {
			return llmtest.Turn{Blocks: nil}
		}
		return sc.turns[min(req.AssistantTurns(), len(sc.turns)-1)]
	})

	args := append([]string{"-p", sc.prompt, "--output-format", "stream-json", "--verbose", "--model", recorder.Model}, sc.extra...)
	res, err := recorder.Command{Path: claude, Args: args, Dir: proj, Env: recorder.Env(home, srv.URL)}.Run(context.Background())
	if err != nil {
		return err
	}
	recorder.ReportViolations(sc.name, srv)
	if keep {
		var all bytes.Buffer
		for _, r := range srv.Requests() {
			all.Write(r.Body)
			all.WriteByte('\n')
		}
		os.WriteFile(filepath.Join(tmp, "requests.jsonl"), all.Bytes(), 0o644)
	}

	norm := newNormalizer(tmp, proj, home, srv.URL)
	os.RemoveAll(dir)
	var files []string
	for _, name := range sortedKeys(sc.project) {
		files = append(files, "proj/"+name+"\n"+sc.project[name])
	}
	for _, name := range sortedKeys(sc.home) {
		files = append(files, "home/"+name+"\n"+sc.home[name])
	}
	runJSON, _ := json.MarshalIndent(map[string]any{"args": args, "exit_code": res.ExitCode, "stderr": norm.text(stripRetirement(string(res.Stderr))),
		"untrusted": sc.untrusted}, "", "  ")
	requests, skillTool, err := requestsJSON(norm, srv.Requests())
	if err != nil {
		return err
	}
	for name, data := range map[string]string{
		"files.txt":     strings.Join(files, "\n=====\n"),
		"run.json":      string(runJSON) + "\n",
		"stream.jsonl":  norm.text(string(res.Stdout)),
		"requests.json": requests,
	} {
		if err := writeFile(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	if skillTool != "" {
		return writeFile(filepath.Join(dir, "..", "skill_tool.json"), skillTool)
	}
	return nil
}

// normalizer replaces what changes from one recording to the next: the
// scratch paths, the model server's URL, UUIDs and timestamps.
type normalizer struct {
	paths *strings.Replacer
	uuids map[string]string
}

var (
	uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	isoRe  = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)
	// timeRe are the numbers of stream-json's result that measure time.
	timeRe = regexp.MustCompile(`"(duration_ms|duration_api_ms|ttft_ms|ttftMs|durationMs|ttft_stream_ms|time_to_request_ms|first_content_frame_ms)":\d+`)
	// socketRe is Claude Code's messaging socket, named after its pid.
	socketRe = regexp.MustCompile(`/tmp/cc-socks/\d+\.sock`)
	// retirementRe is the warning claude prints for the model the recorder
	// asks for, whose wording depends on the date.
	retirementRe = regexp.MustCompile(`(?m)^⚠ Claude Sonnet 4\.5 (was|will be) retired on [^\n]*\n`)
)

func newNormalizer(tmp, proj, home, url string) *normalizer {
	slug := regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(proj, "-")
	return &normalizer{paths: strings.NewReplacer(slug, "<cwd_slug>", proj, "<cwd>", home, "<home>", tmp, "<tmp>", url, "<base_url>"),
		uuids: map[string]string{}}
}

func (n *normalizer) text(s string) string {
	s = n.paths.Replace(s)
	s = uuidRe.ReplaceAllStringFunc(s, func(u string) string {
		if p, ok := n.uuids[u]; ok {
			return p
		}
		p := fmt.Sprintf("<uuid_%d>", len(n.uuids)+1)
		n.uuids[u] = p
		return p
	})
	s = isoRe.ReplaceAllString(s, "<timestamp>")
	s = socketRe.ReplaceAllString(s, "/tmp/cc-socks/<pid>.sock")
	return timeRe.ReplaceAllString(s, `"$1":0`)
}

func stripRetirement(s string) string { return retirementRe.ReplaceAllString(s, "") }

// standardReminders begin the reminders Claude Code puts in the first user
// message of every session, whatever it holds; requests.json shortens them.
// The skills' listing is kept whole: it is what the skills produce.
var standardReminders = []string{
	"<system-reminder>\n# Environment\n",
	"<system-reminder>\nYou are powered by the model",
	"<system-reminder>\nThe following deferred tools",
	"<system-reminder>\nAvailable agent types",
	"<system-reminder>\n<total_tokens>",
	"<system-reminder>\nCodebase and user instructions",
	"<system-reminder>\nToday's date",
	"<system-reminder>\nAttribution for git commits",
}

// requestsJSON is the messages of each request, indented, with their
// standard reminders shortened, and the Skill tool's definition as sent.
func requestsJSON(n *normalizer, reqs []llmtest.Request) (string, string, error) {
	type message struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}
	type entry struct {
		Model    string    `json:"model"`
		Messages []message `json:"messages"`
	}
	var out []entry
	skillTool := ""
	for _, req := range reqs {
		var body struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(req.Body, &body); err != nil {
			return "", "", err
		}
		for _, t := range body.Tools {
			var named struct{ Name string }
			json.Unmarshal(t, &named)
			if named.Name == "Skill" {
				var b bytes.Buffer
				json.Indent(&b, t, "", "  ")
				skillTool = n.text(b.String()) + "\n"
			}
		}
		e := entry{Model: req.Model}
		for _, m := range body.Messages {
			var blocks []json.RawMessage
			if err := json.Unmarshal(m.Content, &blocks); err != nil {
				var s string
				json.Unmarshal(m.Content, &s)
				blocks = []json.RawMessage{textBlock(s)}
			}
			for i, b := range blocks {
				var t struct {
					Type, Text string
				}
				json.Unmarshal(b, &t)
				for _, p := range standardReminders {
					if t.Type == "text" && strings.HasPrefix(t.Text, p) {
						blocks[i] = textBlock(strings.TrimRight(p, "\n") + "… [elided by the recorder]")
					}
				}
			}
			e.Messages = append(e.Messages, message{Role: m.Role, Content: blocks})
		}
		out = append(out, e)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return "", "", err
	}
	return n.text(b.String()), skillTool, nil
}

// textBlock is a text content block as the API takes it.
func textBlock(text string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{"text", text})
	return bytes.TrimSpace(b.Bytes())
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
