// Command record asks the real Claude Code what its WebFetch and WebSearch
// tools send and answer, and writes the answers as the golden files of
// e2e/testdata/web (see the README there):
//
//	go run ./e2e/testdata/web/record [-claude PATH] [-out DIR] [-only NAME,…] [-keep]
//
// It serves internal/tools/web/webtest's Site over HTTPS on 127.0.0.1 with a
// test CA, starts the scripted model server of internal/llm/llmtest, and for
// each scenario runs claude -p in a scratch project whose model loads the two
// tools with ToolSearch, then makes one call. The side requests the tools
// make reach the same model server and get scripted answers.
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
	"github.com/mini-claude/mini-claude/internal/tools/web/webtest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

type options struct {
	recorder.Flags
	out string
}

func run() error {
	var o options
	o.Register(flag.CommandLine)
	flag.StringVar(&o.out, "out", filepath.Join("e2e", "testdata", "web"), "folder the golden files are written to")
	flag.Parse()
	var err error
	if o.Claude, err = recorder.Check(o.Claude); err != nil {
		return err
	}
	caDir, err := os.MkdirTemp("", "webref-ca-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(caDir)
	site, err := webtest.Start(webtest.Site(), caDir)
	if err != nil {
		return err
	}
	defer site.Close()
	toolsWritten := false
	for _, sc := range scenarios() {
		if !o.Wants(sc.name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "record: %s/%s\n", sc.kind, sc.name)
		rec, err := record(o, site, sc)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
		if err := rec.write(o.out, site, sc); err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
		if !toolsWritten && !sc.noRule {
			if err := rec.writeTools(o.out); err != nil {
				return err
			}
			toolsWritten = true
		}
	}
	return nil
}

// recording is what one scenario's run gave.
type recording struct {
	stdout, stderr []byte
	requests       []llmtest.Request
	unscripted     []string
}

// prompt is the prompt of a scenario's session, which its script keys on.
func prompt(sc scenario) string { return "Run the web scenario " + sc.kind + "/" + sc.name + "." }

// respond answers one request of a scenario's session: the side requests of
// the tools, else the main conversation by its number of assistant turns.
func respond(sc scenario, host string, req llmtest.Request) (llmtest.Turn, bool) {
	first := ""
	if len(req.Messages) > 0 {
		first = req.Messages[0].Text()
	}
	switch {
	case len(req.ServerTools) > 0:
		return llmtest.Turn{Blocks: sc.search}, true
	case strings.Contains(first, "Web page content:"):
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(sideAnswer)}}, true
	case !strings.Contains(first, prompt(sc)):
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("(unscripted)")}}, false
	}
	switch req.AssistantTurns() {
	case 0:
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "ToolSearch", `{"query":"select:WebFetch,WebSearch"}`)}}, true
	case 1:
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", sc.tool, inputJSON(sc, host))}}, true
	}
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}}, true
}

// inputJSON is the scenario's tool input with <host> replaced by host.
func inputJSON(sc scenario, host string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sc.input); err != nil {
		panic(err)
	}
	return strings.ReplaceAll(strings.TrimSpace(buf.String()), "<host>", host)
}

// record runs one scenario in a scratch project.
func record(o options, site *webtest.Server, sc scenario) (*recording, error) {
	s, err := recorder.NewScratch("webref-", sc.name, o.Keep)
	if err != nil {
		return nil, err
	}
	defer s.Remove()
	dir, proj, home := s.Dir, s.Proj, s.Home
	if err := recorder.WriteState(home, proj); err != nil {
		return nil, err
	}
	settings := map[string]any{"skipWebFetchPreflight": true}
	if !sc.noRule {
		settings["permissions"] = map[string]any{"allow": []string{"WebFetch(domain:127.0.0.1)", "WebFetch(domain:localhost)", "WebSearch"}}
	}
	data, _ := json.MarshalIndent(settings, "", "  ")
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), data, 0o644); err != nil {
		return nil, err
	}
	srv, err := llmtest.Start()
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	rec := &recording{}
	srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		t, ok := respond(sc, site.Host, req)
		if !ok {
			rec.unscripted = append(rec.unscripted, req.Messages[len(req.Messages)-1].Text())
		}
		return t
	})
	out, err := recorder.Command{Path: o.Claude, Dir: proj,
		Args: []string{"-p", prompt(sc), "--output-format", "stream-json", "--verbose", "--model", recorder.Model},
		Env:  recorder.Env(home, srv.URL, "NODE_EXTRA_CA_CERTS="+site.CAFile, "SSL_CERT_FILE="+site.CAFile),
	}.Run(context.Background())
	if err != nil {
		return nil, err
	}
	rec.stdout, rec.stderr, rec.requests = out.Stdout, out.Stderr, srv.Requests()
	if o.Keep {
		os.WriteFile(filepath.Join(dir, "stdout.jsonl"), rec.stdout, 0o644)
		os.WriteFile(filepath.Join(dir, "stderr.txt"), rec.stderr, 0o644)
	}
	recorder.ReportViolations(sc.name, srv)
	for _, u := range rec.unscripted {
		fmt.Fprintf(os.Stderr, "record: %s: unscripted request ending %q\n", sc.name, u)
	}
	return rec, nil
}

// versionRe is the build suffix of the billing header Claude Code puts in its system prompt.
var versionRe = regexp.MustCompile(`cc_version=` + regexp.QuoteMeta(recorder.Version) + `\.[0-9a-f]+`)

// normalize replaces what changes from one recording to the next: the
// local server's host:port and the build suffix of the billing header.
func normalize(site *webtest.Server, data []byte) []byte {
	data = bytes.ReplaceAll(data, []byte(site.Host), []byte("<host>"))
	return versionRe.ReplaceAll(data, []byte("cc_version="+recorder.Version+".<build>"))
}
