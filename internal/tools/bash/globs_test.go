package bash

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// TestExpanderResolvesGlobsFromEveryBase proves how a line's paths are
// resolved: a static path is joined to every base, a glob expanded from
// every base (an absolute or ~ one once), a word that expands otherwise is
// unknown, and a line that may change glob options leaves every glob
// undecided while still giving what it found.
func TestExpanderResolvesGlobsFromEveryBase(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, _ := filepath.EvalSymlinks(t.TempDir())
	t.Setenv("HOME", home)
	for _, f := range []string{"private/notes.txt", "sub/private/notes.txt", "sub/a.go"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(root, f), nil, 0o644)
	}
	os.WriteFile(filepath.Join(home, "key.pem"), nil, 0o644)
	sub := root + "/sub"
	x := &expander{bases: []string{root, sub}}
	for _, tc := range []struct {
		name string
		p    pathWord
		want []string
		ok   bool
	}{
		{"static path from each base", pathWord{text: "a.go"}, []string{root + "/a.go", sub + "/a.go"}, true},
		{"glob from each base", pathWord{"priv*/notes.txt", true, []string{"priv*/notes.txt"}},
			[]string{root + "/private/notes.txt", sub + "/private/notes.txt"}, true},
		{"glob matching nothing is the word", pathWord{"nomatch*", true, []string{"nomatch*"}},
			[]string{root + "/nomatch*", sub + "/nomatch*"}, true},
		{"absolute glob once", pathWord{root + "/priv*", true, []string{root + "/priv*"}}, []string{root + "/private"}, true},
		{"home glob once", pathWord{"~/*.pem", true, []string{"~/*.pem"}}, []string{home + "/key.pem"}, true},
		{"other user's home unknown", pathWord{"~bob/*", true, []string{"~bob/*"}}, nil, false},
		{"brace words each", pathWord{"{a,b}.go", true, []string{"a.go", "b.go"}},
			[]string{root + "/a.go", sub + "/a.go", root + "/b.go", sub + "/b.go"}, true},
		{"variable unknown", pathWord{text: "$f", dynamic: true}, nil, false},
		{"no path unknown", pathWord{}, nil, false},
	} {
		got, ok := x.paths(tc.p)
		if !slices.Equal(got, tc.want) || ok != tc.ok {
			t.Errorf("%s: %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	unsure := &expander{bases: []string{root}, unsure: true}
	if got, ok := unsure.paths(pathWord{"priv*", true, []string{"priv*"}}); ok || !slices.Equal(got, []string{root + "/private"}) {
		t.Errorf("glob options changed: %q, %v; want the match and undecided", got, ok)
	}
}

// TestGlobsAreResolvedBeforeTheRules proves, through the engine, that a glob
// reaches the rules as the paths it matches: a deny rule on a matched path
// denies, whether the glob is read, written, redirected to or merely an
// argument, and a glob that cannot be decided is never allowed.
func TestGlobsAreResolvedBeforeTheRules(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, f := range []string{"private/notes.txt", "config/a", "sub/x.txt", "README.md"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(root, f), nil, 0o644)
	}
	perm := permission.Context{Mode: permission.ModeAcceptEdits, Dirs: []string{root}, Home: "/home/nobody"}
	perm.Allow, _ = permission.ParseRuleList([]string{"Bash(rm:*)"}, "test")
	perm.Deny, _ = permission.ParseRuleList([]string{"Read(./private/**)", "Edit(./config/**)"}, "test")
	for i := range perm.Deny {
		perm.Deny[i].Base = root
	}
	env := &tool.Env{Cwd: root, Session: tool.NewSession(root), ReadDenied: perm.ReadDenied}
	for _, tt := range []struct {
		command string
		want    permission.Behavior
	}{
		{"cat priv*/notes.txt", permission.Deny},
		{"cat */notes.txt", permission.Deny},
		{"grep -r x p?ivate", permission.Deny},
		{"cd sub && cat ../[p]rivate/*", permission.Deny},
		{"less priv*/notes.txt", permission.Deny},
		{"echo x > conf*/a", permission.Deny},
		{"rm conf*/a", permission.Deny},
		{"cat sub/*.txt README*", permission.Allow},
		{"cat nomatch*/x", permission.Allow},
		{"rm sub/*.txt", permission.Allow},
		{"cat $D*/notes.txt", permission.Ask},
		{"shopt -s dotglob; cat sub/*", permission.Ask},
	} {
		if got := decide(t, env, perm, tt.command); got.Behavior != tt.want {
			t.Errorf("%q: %v (%s), want %v", tt.command, got.Behavior, got.Reason, tt.want)
		}
	}
}
