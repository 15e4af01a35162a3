package permission_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools"
)

// corpusCase is one line of testdata/permission-corpus.jsonl. In rules, input
// and symlink targets, {{proj}} is the project directory, {{home}} the home
// directory and {{out}} a directory outside both; the decisions' golden file
// writes {{root}} for the directory that holds the three.
type corpusCase struct {
	Rules struct {
		Allow []string `json:"allow"`
		Deny  []string `json:"deny"`
		Ask   []string `json:"ask"`
	} `json:"rules"`
	Mode   string          `json:"mode"`
	Tool   string          `json:"tool"`
	Input  json.RawMessage `json:"input"`
	Files  []corpusFile    `json:"files"`
	Expect string          `json:"expect"`
	Bypass bool            `json:"bypass"`
	Note   string          `json:"note"`
}

// corpusFile is a file or directory (path ending in /) to create, or a symlink.
type corpusFile struct {
	Path    string `json:"path"`
	Symlink string `json:"symlink"`
}

type corpusDirs struct{ proj, home, out string }

func (d corpusDirs) expand(s string) string {
	return strings.NewReplacer("{{proj}}", d.proj, "{{home}}", d.home, "{{out}}", d.out).Replace(s)
}

func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	f, err := os.Open("testdata/permission-corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c corpusCase
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("corpus line %d: %v", line, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

func newCorpusDirs(t *testing.T) corpusDirs {
	t.Helper()
	real := func(dir string) string {
		r, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Fresh directories with plain names: a subtest's TempDir carries its name,
	// whose parentheses would change how the command lines parse.
	root, err := os.MkdirTemp("", "corpus")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	mk := func(name string) string {
		dir := filepath.Join(root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return real(dir)
	}
	d := corpusDirs{proj: mk("proj"), home: mk("home"), out: mk("out")}
	t.Setenv("HOME", d.home)
	t.Setenv(config.HomeEnv, filepath.Join(d.home, ".mini-claude"))
	return d
}

func (d corpusDirs) create(t *testing.T, files []corpusFile) {
	t.Helper()
	for _, f := range files {
		path := d.expand(f.Path)
		if !filepath.IsAbs(path) {
			path = filepath.Join(d.proj, path)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case f.Symlink != "":
			if err := os.Symlink(d.expand(f.Symlink), path); err != nil {
				t.Fatal(err)
			}
		case strings.HasSuffix(f.Path, "/"):
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.WriteFile(path, []byte("content\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func (d corpusDirs) context(t *testing.T, c corpusCase) *permission.Context {
	t.Helper()
	parse := func(texts []string) []permission.Rule {
		for i := range texts {
			texts[i] = d.expand(texts[i])
		}
		rules, errs := permission.ParseRuleList(texts, "corpus")
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		for i := range rules {
			rules[i].Base = d.proj
		}
		return rules
	}
	mode := permission.ModeDefault
	if c.Mode != "" {
		var err error
		if mode, err = permission.ParseMode(c.Mode); err != nil {
			t.Fatal(err)
		}
	}
	return &permission.Context{Mode: mode, Allow: parse(c.Rules.Allow), Deny: parse(c.Rules.Deny), Ask: parse(c.Rules.Ask),
		Dirs: []string{d.proj}, Home: d.home}
}

// decideThroughTool takes the case's input through the real tool as the
// executor does: parse, then the tool's verdict and accesses, then the rules.
func decideThroughTool(t *testing.T, d corpusDirs, c corpusCase) permission.Decision {
	t.Helper()
	tl := tool.Find(tools.AllBase(), c.Tool)
	if tl == nil {
		t.Fatalf("no tool %s", c.Tool)
	}
	call, err := tl.Parse(json.RawMessage(d.expand(string(c.Input))))
	if err != nil {
		t.Fatalf("parse %s: %v", c.Input, err)
	}
	session := tool.NewSession(d.proj)
	t.Cleanup(session.Close)
	perm := d.context(t, c)
	env := &tool.Env{Cwd: d.proj, SessionID: "corpus", ToolUseID: "toolu_1", PermissionMode: string(perm.Mode),
		Session: session, ReadDenied: perm.ReadDenied}
	return perm.Decide(agent.PermissionQuery(context.Background(), call, env))
}

var behaviorNames = map[permission.Behavior]string{permission.Allow: "allow", permission.Ask: "ask", permission.Deny: "deny"}

func TestPermissionCorpus(t *testing.T) {
	cases := loadCorpus(t)
	counts := map[string]int{}
	bypasses := 0
	for i, c := range cases {
		counts[c.Expect]++
		if c.Bypass {
			bypasses++
		}
		t.Run(c.Note, func(t *testing.T) {
			d := newCorpusDirs(t)
			d.create(t, c.Files)
			got := decideThroughTool(t, d, c)
			if name := behaviorNames[got.Behavior]; name != c.Expect {
				t.Errorf("line %d %s %s: got %s (%s), want %s", i+1, c.Tool, c.Input, name, got.Reason, c.Expect)
			}
		})
	}
	t.Logf("corpus: %d cases, %d bypass attempts, expected %v", len(cases), bypasses, counts)
	if len(cases) < 150 || bypasses < 80 {
		t.Errorf("corpus has %d cases and %d bypass attempts; the issue asks for at least 150 and 80", len(cases), bypasses)
	}
}

// TestPermissionCorpusHasNoWrongAllows decides every case that must be asked
// or denied and fails on each one allowed: a wrong ask is a nuisance, a wrong
// allow a hole. It also holds the families of issue 15 to their size: names
// written as paths (./ls, bin/cat) and globs under deny rules.
func TestPermissionCorpusHasNoWrongAllows(t *testing.T) {
	families := map[string]int{"path-qualified": 30, "glob": 60}
	found := map[string]int{}
	var wrong []string
	for i, c := range loadCorpus(t) {
		for family := range families {
			if strings.HasPrefix(c.Note, family) {
				found[family]++
			}
		}
		if c.Expect == "allow" {
			continue
		}
		d := newCorpusDirs(t)
		d.create(t, c.Files)
		if got := decideThroughTool(t, d, c); got.Behavior == permission.Allow {
			wrong = append(wrong, fmt.Sprintf("line %d %s %s (%s)", i+1, c.Tool, c.Input, c.Note))
		}
	}
	if len(wrong) > 0 {
		t.Errorf("%d wrong allows:\n%s", len(wrong), strings.Join(wrong, "\n"))
	}
	for family, least := range families {
		if found[family] < least {
			t.Errorf("the corpus has %d %s cases, want at least %d", found[family], family, least)
		}
	}
}

// TestPermissionCorpusDecisionsGolden pins the whole decision on every case
// of the corpus, its reason and rule too, so that a change below the rules
// (how a command line is read, how a path is resolved) shows each decision
// it would change, not only a changed behaviour.
func TestPermissionCorpusDecisionsGolden(t *testing.T) {
	var sb strings.Builder
	for i, c := range loadCorpus(t) {
		d := newCorpusDirs(t)
		d.create(t, c.Files)
		got := decideThroughTool(t, d, c)
		entry := fmt.Sprintf("line %d %s %s\n  %s", i+1, c.Tool, c.Input, behaviorNames[got.Behavior])
		if got.Rule != nil {
			entry += " by " + got.Rule.String()
		}
		entry += ": " + got.Reason + "\n"
		if got.Subject != "" {
			entry += "  subject: " + got.Subject + "\n"
		}
		sb.WriteString(strings.NewReplacer(d.proj, "{{proj}}", d.home, "{{home}}", d.out, "{{out}}",
			filepath.Dir(d.proj), "{{root}}").Replace(entry))
	}
	goldenfile.Check(t, filepath.Join("testdata", "permission-corpus-decisions.golden"), sb.String())
}
