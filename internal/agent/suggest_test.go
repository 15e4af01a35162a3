package agent

import (
	"testing"

	"github.com/mini-claude/mini-claude/internal/permission"
)

func TestSuggestRule(t *testing.T) {
	cmd := func(text string, args ...string) permission.Command {
		return permission.Command{Text: text, Args: args, Plain: true}
	}
	cases := []struct {
		name string
		q    permission.Query
		d    permission.Decision
		want string
	}{
		{"command prefix", permission.Query{Tool: "Bash", Commands: []permission.Command{cmd("ls", "ls"), cmd("npm run test -- -x", "npm", "run", "test", "--", "-x")}},
			permission.Decision{Subject: "the command `npm run test -- -x`"}, "Bash(npm run test:*)"},
		{"whole command", permission.Query{Tool: "Bash", Commands: []permission.Command{cmd("make", "make")}},
			permission.Decision{Subject: "the command `make`"}, "Bash(make)"},
		{"destructive", permission.Query{Tool: "Bash", Commands: []permission.Command{{Text: "rm -rf build", Args: []string{"rm", "-rf", "build"}, Destructive: true}}},
			permission.Decision{Subject: "the command `rm -rf build`"}, "Bash(rm -rf build)"},
		{"write", permission.Query{Tool: "Write", Writes: []string{"/srv/app/main.go"}},
			permission.Decision{Subject: "writing /srv/app/main.go"}, "Edit(//srv/app/**)"},
		{"read", permission.Query{Tool: "Read", Reads: []string{"/etc/hosts"}},
			permission.Decision{Subject: "reading /etc/hosts"}, "Read(//etc/**)"},
		{"domain", permission.Query{Tool: "WebFetch", Domains: []string{"go.dev"}},
			permission.Decision{Subject: "fetching from go.dev"}, "WebFetch(domain:go.dev)"},
		{"no subject", permission.Query{Tool: "Sleep"}, permission.Decision{}, "Sleep"},
	}
	for _, c := range cases {
		if got := SuggestRule(c.q, c.d); got != c.want {
			t.Errorf("%s: SuggestRule = %q, want %q", c.name, got, c.want)
		}
	}
}
