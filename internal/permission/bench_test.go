package permission_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools"
)

// benchCommand is a 20-part compound command of the everyday kind: reads,
// searches, git queries, a build and a test run.
var benchCommand = strings.Join([]string{
	"cd src", "git status", "git diff --stat", "ls -la", "cat main.go", "grep -n func main.go",
	"head -n 20 util.go", "wc -l main.go", "go vet ./...", "go build ./...", "go test ./...",
	"npm run lint", "npm run test -- --ci", "make check", "echo done", "pwd", "git log --oneline -5",
	"tail -n 5 main.go", "sort main.go", "uniq main.go",
}, " && ")

// benchContext holds 200 rules: Bash prefixes, path rules of every kind, in
// the three lists.
func benchContext(proj, home string) *permission.Context {
	var allow, deny, ask []string
	for i := range 80 {
		allow = append(allow, fmt.Sprintf("Bash(tool%d run:*)", i))
	}
	allow = append(allow, "Bash(go vet:*)", "Bash(go build:*)", "Bash(go test:*)", "Bash(npm run lint)", "Bash(npm run test:*)", "Bash(make check)", "Bash(cd:*)")
	for i := range 33 {
		allow = append(allow, fmt.Sprintf("Read(./docs/part%d/**)", i))
	}
	for i := range 30 {
		deny = append(deny, fmt.Sprintf("Bash(danger%d:*)", i), fmt.Sprintf("Read(./private%d/**)", i))
	}
	ask = append(ask, "Bash(git push:*)", "Bash(npm publish:*)")
	for i := range 18 {
		ask = append(ask, fmt.Sprintf("Edit(./generated%d/**)", i))
	}
	parse := func(texts []string) []permission.Rule {
		rules, _ := permission.ParseRuleList(texts, "bench")
		for i := range rules {
			rules[i].Base = proj
		}
		return rules
	}
	return &permission.Context{Mode: permission.ModeDefault, Allow: parse(allow), Deny: parse(deny), Ask: parse(ask),
		Dirs: []string{proj}, Home: home}
}

type benchSetup struct {
	perm *permission.Context
	env  *tool.Env
	bash tool.Tool
	in   json.RawMessage
}

func newBenchSetup(b *testing.B) benchSetup {
	b.Helper()
	proj, _ := filepath.EvalSymlinks(b.TempDir())
	home, _ := filepath.EvalSymlinks(b.TempDir())
	b.Setenv("HOME", home)
	for _, f := range []string{"src/main.go", "src/util.go"} {
		os.MkdirAll(filepath.Join(proj, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(proj, f), []byte("package main\n"), 0o644)
	}
	perm := benchContext(proj, home)
	if n := len(perm.Allow) + len(perm.Deny) + len(perm.Ask); n != 200 {
		b.Fatalf("%d rules, want 200", n)
	}
	session := tool.NewSession(proj)
	b.Cleanup(session.Close)
	in, _ := json.Marshal(map[string]string{"command": benchCommand})
	return benchSetup{perm: perm, bash: tool.Find(tools.AllBase(), "Bash"), in: in,
		env: &tool.Env{Cwd: proj, Session: session, PermissionMode: "default", ReadDenied: perm.ReadDenied}}
}

// BenchmarkDecide measures the engine alone on the 20-part command's query.
func BenchmarkDecide(b *testing.B) {
	s := newBenchSetup(b)
	call, err := s.bash.Parse(s.in)
	if err != nil {
		b.Fatal(err)
	}
	q := agent.PermissionQuery(context.Background(), call, s.env)
	if len(q.Commands) != 20 {
		b.Fatalf("%d commands, want 20", len(q.Commands))
	}
	if d := s.perm.Decide(q); d.Behavior != permission.Allow {
		b.Fatalf("decision %v (%s), want allow", d.Behavior, d.Reason)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.perm.Decide(q)
	}
}

// BenchmarkDecideWhole measures what the executor does per call: parse the
// input, analyse the command line, map it to accesses, decide.
func BenchmarkDecideWhole(b *testing.B) {
	s := newBenchSetup(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		call, err := s.bash.Parse(s.in)
		if err != nil {
			b.Fatal(err)
		}
		if d := s.perm.Decide(agent.PermissionQuery(ctx, call, s.env)); d.Behavior != permission.Allow {
			b.Fatalf("decision %v (%s), want allow", d.Behavior, d.Reason)
		}
	}
}
