package permission

import (
	"strings"
	"testing"
)

func rules(t *testing.T, texts ...string) []Rule {
	t.Helper()
	rs, errs := ParseRuleList(texts, "test")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return rs
}

func TestParseRuleList(t *testing.T) {
	got, errs := ParseRuleList([]string{"Read,Bash(git log:*) Edit", "mcp__github", "Write(*)", "Bad(", "b@d"}, "--allowedTools")
	var names []string
	for _, r := range got {
		names = append(names, r.String())
	}
	if want := "Read Bash(git log:*) Edit mcp__github Write"; strings.Join(names, " ") != want {
		t.Errorf("rules = %q, want %q", strings.Join(names, " "), want)
	}
	if len(errs) != 2 {
		t.Fatalf("errors = %v, want 2 (Bad( and b@d)", errs)
	}
	if !strings.Contains(errs[0].Error(), "--allowedTools") || !strings.Contains(errs[0].Error(), "missing closing parenthesis") {
		t.Errorf("error %q does not name the source and the problem", errs[0])
	}
}

func TestDeniesToolByNameAndServerPrefix(t *testing.T) {
	c := Context{Deny: rules(t, "Bash", "mcp__github", "Read(./secret/**)")}
	for name, want := range map[string]bool{
		"Bash": true, "mcp__github__create_issue": true, "mcp__githubx__a": false,
		"Read": false, "Edit": false,
	} {
		if got := c.DeniesTool(name); got != want {
			t.Errorf("DeniesTool(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestDecide(t *testing.T) {
	proj := "/home/u/proj"
	base := func(rs []Rule) []Rule {
		for i := range rs {
			rs[i].Base = proj
		}
		return rs
	}
	ctx := func(mode Mode, allow, deny, ask []string) Context {
		return Context{Mode: mode, Allow: base(rules(t, allow...)), Deny: base(rules(t, deny...)), Ask: base(rules(t, ask...)),
			Dirs: []string{proj}, Home: "/home/u"}
	}
	cmd := func(args ...string) Command { return Command{Args: args, Text: strings.Join(args, " "), Plain: true} }
	ro := func(args ...string) Command { c := cmd(args...); c.ReadOnly = true; return c }
	tests := []struct {
		name string
		ctx  Context
		q    Query
		want Behavior
	}{
		{"read-only tool without parts", ctx(ModeDefault, nil, nil, nil), Query{Tool: "Sleep", ReadOnly: true}, Allow},
		{"writing tool without parts asks", ctx(ModeDefault, nil, nil, nil), Query{Tool: "Touch"}, Ask},
		{"whole-tool allow", ctx(ModeDefault, []string{"Touch"}, nil, nil), Query{Tool: "Touch"}, Allow},
		{"deny beats allow", ctx(ModeDefault, []string{"Touch"}, []string{"Touch"}, nil), Query{Tool: "Touch"}, Deny},
		{"ask beats allow", ctx(ModeDefault, []string{"Touch"}, nil, []string{"Touch"}), Query{Tool: "Touch"}, Ask},
		{"deny beats bypass", ctx(ModeBypassPermissions, nil, []string{"Touch"}, nil), Query{Tool: "Touch"}, Deny},
		{"bypass allows", ctx(ModeBypassPermissions, nil, nil, nil), Query{Tool: "Touch"}, Allow},
		{"bypass overrides a tool ask", ctx(ModeBypassPermissions, nil, nil, nil), Query{Tool: "Bash", ToolVerdict: Ask}, Allow},
		{"tool deny beats an allow rule", ctx(ModeDefault, []string{"Bash"}, nil, nil), Query{Tool: "Bash", ToolVerdict: Deny}, Deny},
		{"plan refuses writes", ctx(ModePlan, nil, nil, nil), Query{Tool: "Write", Writes: []string{proj + "/a"}}, Deny},
		{"plan allows reads", ctx(ModePlan, nil, nil, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{proj + "/a"}}, Allow},
		{"read-only MCP tool still asks", ctx(ModeDefault, nil, nil, nil), Query{Tool: "mcp__fs__read", ReadOnly: true}, Ask},
		{"server allow covers its tools", ctx(ModeDefault, []string{"mcp__fs"}, nil, nil), Query{Tool: "mcp__fs__write"}, Allow},
		{"tool allow covers only that tool", ctx(ModeDefault, []string{"mcp__fs__read"}, nil, nil), Query{Tool: "mcp__fs__write"}, Ask},
		{"plan allows a read-only MCP tool the rules allow", ctx(ModePlan, []string{"mcp__fs__read"}, nil, nil), Query{Tool: "mcp__fs__read", ReadOnly: true}, Allow},
		{"plan refuses a writing MCP tool", ctx(ModePlan, []string{"mcp__fs"}, nil, nil), Query{Tool: "mcp__fs__write"}, Deny},
		{"server deny covers its tools", ctx(ModeDefault, nil, []string{"mcp__fs"}, nil), Query{Tool: "mcp__fs__read", ReadOnly: true}, Deny},
		{"content rule of a tool without parts fails closed", ctx(ModeDefault, nil, []string{"Touch(x)"}, nil), Query{Tool: "Touch"}, Deny},
		{"content allow of a tool without parts allows nothing", ctx(ModeDefault, []string{"Touch(x)"}, nil, nil), Query{Tool: "Touch"}, Ask},

		{"read inside is free", ctx(ModeDefault, nil, nil, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{proj + "/src/a.go"}}, Allow},
		{"read outside asks", ctx(ModeDefault, nil, nil, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{"/etc/hosts"}}, Ask},
		{"read outside allowed by an absolute rule", ctx(ModeDefault, []string{"Read(//etc/**)"}, nil, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{"/etc/hosts"}}, Allow},
		{"read denied by a relative rule", ctx(ModeDefault, nil, []string{"Read(./secrets/**)"}, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{proj + "/secrets/k"}}, Deny},
		{"read deny matches any case", ctx(ModeDefault, nil, []string{"Read(./Secrets/**)"}, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{proj + "/secrets/k"}}, Deny},
		{"slashless rule matches at any depth", ctx(ModeDefault, nil, []string{"Read(*.log)"}, nil), Query{Tool: "Grep", ReadOnly: true, Reads: []string{proj + "/a/b/c.log"}}, Deny},
		{"read rules govern other tools' reads", ctx(ModeDefault, nil, []string{"Read(./private)"}, nil), Query{Tool: "Bash", ReadOnly: true, Commands: []Command{ro("cat", "private/x")}, Reads: []string{proj + "/private/x"}}, Deny},
		{"home rule", ctx(ModeDefault, nil, []string{"Read(~/notes/**)"}, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{"/home/u/notes/a.md"}}, Deny},

		{"env file denied by default", ctx(ModeDefault, nil, nil, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{proj + "/.env"}}, Deny},
		{"env variant denied by default", ctx(ModeDefault, nil, nil, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{proj + "/config/.env.production"}}, Deny},
		{"env in upper case denied", ctx(ModeDefault, nil, nil, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{proj + "/.ENV"}}, Deny},
		{"env example is not a secret", ctx(ModeDefault, nil, nil, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{proj + "/.env.example"}}, Allow},
		{"ssh key denied", ctx(ModeBypassPermissions, nil, nil, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{"/home/u/.ssh/id_ed25519"}}, Deny},
		{"pem write denied", ctx(ModeAcceptEdits, nil, nil, nil), Query{Tool: "Write", Writes: []string{proj + "/certs/server.pem"}}, Deny},
		{"explicit allow overrides the secret default", ctx(ModeDefault, []string{"Read(./.env)"}, nil, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{proj + "/.env"}}, Allow},
		{"whole-tool allow does not override the secret default", ctx(ModeDefault, []string{"Read"}, nil, nil), Query{Tool: "Read", ReadOnly: true, Reads: []string{proj + "/.env"}}, Deny},

		{"write inside asks by default", ctx(ModeDefault, nil, nil, nil), Query{Tool: "Edit", Writes: []string{proj + "/a.go"}}, Ask},
		{"write inside free in acceptEdits", ctx(ModeAcceptEdits, nil, nil, nil), Query{Tool: "Edit", Writes: []string{proj + "/a.go"}}, Allow},
		{"write outside asks in acceptEdits", ctx(ModeAcceptEdits, nil, nil, nil), Query{Tool: "Edit", Writes: []string{"/etc/hosts"}}, Ask},
		{"whole-tool Edit allows writes inside", ctx(ModeDefault, []string{"Edit"}, nil, nil), Query{Tool: "Edit", Writes: []string{proj + "/a.go"}}, Allow},
		{"whole-tool Edit does not allow writes outside", ctx(ModeDefault, []string{"Edit"}, nil, nil), Query{Tool: "Edit", Writes: []string{"/tmp/x"}}, Ask},
		{"write rule allows", ctx(ModeDefault, []string{"Write(*.md)"}, nil, nil), Query{Tool: "Write", Writes: []string{proj + "/docs/a.md"}}, Allow},
		{"edit deny covers Bash redirects", ctx(ModeBypassPermissions, nil, []string{"Edit(./src/**)"}, nil), Query{Tool: "Bash", Commands: []Command{ro("echo", "x")}, Writes: []string{proj + "/src/a"}}, Deny},

		{"read-only command inside is free", ctx(ModeDefault, nil, nil, nil), Query{Tool: "Bash", ReadOnly: true, Commands: []Command{ro("ls")}}, Allow},
		{"writing command asks", ctx(ModeDefault, nil, nil, nil), Query{Tool: "Bash", Commands: []Command{cmd("python", "x.py")}}, Ask},
		{"prefix allow", ctx(ModeDefault, []string{"Bash(npm run test:*)"}, nil, nil), Query{Tool: "Bash", Commands: []Command{cmd("npm", "run", "test", "--", "-x")}}, Allow},
		{"prefix allow is word based", ctx(ModeDefault, []string{"Bash(npm run test:*)"}, nil, nil), Query{Tool: "Bash", Commands: []Command{cmd("npm", "run", "testing")}}, Ask},
		{"exact allow", ctx(ModeDefault, []string{"Bash(git status)"}, nil, nil), Query{Tool: "Bash", Commands: []Command{cmd("git", "status", "-s")}}, Ask},
		{"every part must be allowed", ctx(ModeDefault, []string{"Bash(cd:*)"}, nil, nil), Query{Tool: "Bash", Commands: []Command{cmd("cd", "x"), cmd("python", "evil.py")}}, Ask},
		{"any denied part denies", ctx(ModeDefault, []string{"Bash"}, []string{"Bash(rm:*)"}, nil), Query{Tool: "Bash", Commands: []Command{ro("ls"), cmd("rm", "-rf", "x")}}, Deny},
		{"dynamic command fails closed under a deny", ctx(ModeDefault, []string{"Bash"}, []string{"Bash(rm:*)"}, nil), Query{Tool: "Bash", Commands: []Command{{Args: []string{"$x"}, Text: "$x", Dynamic: true}}}, Deny},
		{"dynamic command never allowed by a rule", ctx(ModeDefault, []string{"Bash(echo:*)"}, nil, nil), Query{Tool: "Bash", Commands: []Command{{Args: []string{"echo", "$x"}, Dynamic: true}}}, Ask},
		{"allowed command's redirect is still a write", ctx(ModeDefault, []string{"Bash(echo:*)"}, nil, nil), Query{Tool: "Bash", Commands: []Command{ro("echo", "hi")}, Writes: []string{proj + "/out"}}, Ask},
		{"destructive command asks despite acceptEdits", ctx(ModeAcceptEdits, nil, nil, nil), Query{Tool: "Bash", Commands: []Command{{Args: []string{"git", "push", "--force"}, Destructive: true}}}, Ask},
		{"destructive command allowed by an explicit rule", ctx(ModeDefault, []string{"Bash(git push:*)"}, nil, nil), Query{Tool: "Bash", Commands: []Command{{Args: []string{"git", "push", "--force"}, Plain: true, Destructive: true}}}, Allow},
		{"allow rule does not match a wrapped command", ctx(ModeDefault, []string{"Bash(npm run test:*)"}, nil, nil), Query{Tool: "Bash", Commands: []Command{{Args: []string{"npm", "run", "test"}, Text: "sudo npm run test"}}}, Ask},
		{"deny rule matches a wrapped command", ctx(ModeDefault, []string{"Bash"}, []string{"Bash(rm:*)"}, nil), Query{Tool: "Bash", Commands: []Command{{Args: []string{"rm", "x"}, Text: "xargs rm"}}}, Deny},

		{"domain allowed", ctx(ModeDefault, []string{"WebFetch(domain:example.com)"}, nil, nil), Query{Tool: "WebFetch", ReadOnly: true, Domains: []string{"example.com"}}, Allow},
		{"subdomain asks without a wildcard", ctx(ModeDefault, []string{"WebFetch(domain:example.com)"}, nil, nil), Query{Tool: "WebFetch", ReadOnly: true, Domains: []string{"docs.example.com"}}, Ask},
		{"wildcard allows subdomains", ctx(ModeDefault, []string{"WebFetch(domain:*.example.com)"}, nil, nil), Query{Tool: "WebFetch", ReadOnly: true, Domains: []string{"docs.example.com"}}, Allow},
		{"a read-only call off the machine asks", ctx(ModeDefault, nil, nil, nil), Query{Tool: "WebSearch", ReadOnly: true, Network: true}, Ask},
		{"a read-only call off the machine allowed by a rule", ctx(ModeDefault, []string{"WebSearch"}, nil, nil), Query{Tool: "WebSearch", ReadOnly: true, Network: true}, Allow},
		{"domain deny wins over a whole-tool allow", ctx(ModeDefault, []string{"WebFetch"}, []string{"WebFetch(domain:example.com)"}, nil), Query{Tool: "WebFetch", ReadOnly: true, Domains: []string{"EXAMPLE.com."}}, Deny},
		{"other domain asks", ctx(ModeDefault, []string{"WebFetch(domain:example.com)"}, nil, nil), Query{Tool: "WebFetch", ReadOnly: true, Domains: []string{"example.org"}}, Ask},
		{"lookalike domain asks", ctx(ModeDefault, []string{"WebFetch(domain:example.com)"}, nil, nil), Query{Tool: "WebFetch", ReadOnly: true, Domains: []string{"badexample.com"}}, Ask},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.ctx.Decide(tt.q); got.Behavior != tt.want {
				t.Errorf("Decide = %v (%s), want %v", got.Behavior, got.Reason, tt.want)
			}
		})
	}
}

// TestRulesMatchAProgramNamedByAPath proves how Bash rules treat a program
// written as a path: an allow rule matches only the word it names (Bash(ls:*)
// is not ./ls, a file of the folder), while deny and ask rules also match the
// base name (Bash(rm:*) denies /bin/rm).
func TestRulesMatchAProgramNamedByAPath(t *testing.T) {
	cmd := func(args ...string) Command { return Command{Args: args, Text: strings.Join(args, " "), Plain: true} }
	for _, tt := range []struct {
		name             string
		allow, deny, ask []string
		c                Command
		want             Behavior
	}{
		{"allow rule does not match a path-qualified name", []string{"Bash(ls:*)"}, nil, nil, cmd("./ls", "-la"), Ask},
		{"allow rule does not match an absolute path to its program", []string{"Bash(ls:*)"}, nil, nil, cmd("/usr/bin/ls"), Ask},
		{"exact allow does not match a path-qualified name", []string{"Bash(cat notes.txt)"}, nil, nil, cmd("bin/cat", "notes.txt"), Ask},
		{"allow rule naming the path matches it", []string{"Bash(./ls:*)"}, nil, nil, cmd("./ls", "-la"), Allow},
		{"deny rule matches the base name of a path", []string{"Bash"}, []string{"Bash(rm:*)"}, nil, cmd("/bin/rm", "x"), Deny},
		{"deny rule matches a relative path to its program", []string{"Bash"}, []string{"Bash(rm:*)"}, nil, cmd("./rm", "x"), Deny},
		{"ask rule matches the base name of a path", []string{"Bash"}, nil, []string{"Bash(ls:*)"}, cmd("./ls"), Ask},
	} {
		c := Context{Mode: ModeDefault, Allow: rules(t, tt.allow...), Deny: rules(t, tt.deny...), Ask: rules(t, tt.ask...), Dirs: []string{"/p"}}
		if got := c.Decide(Query{Tool: "Bash", Commands: []Command{tt.c}}); got.Behavior != tt.want {
			t.Errorf("%s: %v (%s), want %v", tt.name, got.Behavior, got.Reason, tt.want)
		}
	}
}

func TestAskNamesTheSubCommand(t *testing.T) {
	c := Context{Mode: ModeDefault, Allow: rules(t, "Bash(cd:*)"), Dirs: []string{"/p"}}
	d := c.Decide(Query{Tool: "Bash", Commands: []Command{{Args: []string{"cd", "x"}, Text: "cd x", Plain: true}, {Args: []string{"python", "evil.py"}, Text: "python evil.py"}}})
	if d.Behavior != Ask || d.Subject != "the command `python evil.py`" {
		t.Errorf("decision = %+v, want an ask naming python evil.py", d)
	}
}

func TestParseMode(t *testing.T) {
	if m, err := ParseMode("acceptEdits"); err != nil || m != ModeAcceptEdits {
		t.Errorf("ParseMode(acceptEdits) = %v, %v", m, err)
	}
	if _, err := ParseMode("yolo"); err == nil || !strings.Contains(err.Error(), "bypassPermissions") {
		t.Errorf("ParseMode(yolo) error = %v, want the list of modes", err)
	}
}

func TestReadDenied(t *testing.T) {
	c := Context{Deny: rules(t, "Read(./private/**)", "Bash(rm:*)"), Allow: rules(t, "Read(./.env.local)"), Dirs: []string{"/p"}, Home: "/home/u"}
	for i := range c.Deny {
		c.Deny[i].Base = "/p"
	}
	c.Allow[0].Base = "/p"
	for path, want := range map[string]bool{
		"/p/private/a.txt": true, "/p/src/a.go": false, "/p/.env": true, "/p/.env.local": false,
		"/home/u/.ssh/id_rsa": true, "/p/.env.example": false,
	} {
		if got := c.ReadDenied(path); got != want {
			t.Errorf("ReadDenied(%s) = %v, want %v", path, got, want)
		}
	}
}

func TestReadRefusalNamesTheRuleOrTheSecretDefault(t *testing.T) {
	c := Context{Deny: rules(t, "Read(./private/**)"), Dirs: []string{"/p"}, Home: "/home/u"}
	c.Deny[0].Base = "/p"
	tests := []struct {
		name, path string
		denied     bool
		rule       string
	}{
		{"a deny rule names its rule", "/p/private/notes.md", true, "Read(./private/**)"},
		{"a secret default has no rule", "/home/u/.ssh/id_rsa", true, ""},
		{"an ordinary file is not refused", "/p/CLAUDE.md", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, denied := c.ReadRefusal(tt.path)
			rule := ""
			if d.Rule != nil {
				rule = d.Rule.String()
			}
			if denied != tt.denied || rule != tt.rule || denied && (d.Behavior != Deny || d.Reason == "") {
				t.Errorf("ReadRefusal(%s) = %+v, %v; want denied %v by %q", tt.path, d, denied, tt.denied, tt.rule)
			}
		})
	}
}

// TestDomainRulesMatchAsClaudeCodeDoes proves the WebFetch rule syntax of
// Claude Code's settings: an exact host, "*." for subdomains at any depth,
// "*" for every host, "*" inside a label, case and trailing dots ignored.
func TestDomainRulesMatchAsClaudeCodeDoes(t *testing.T) {
	tests := []struct {
		rule, host string
		want       bool
	}{
		{"domain:example.com", "example.com", true},
		{"domain:example.com", "Example.COM.", true},
		{"domain:example.com", "docs.example.com", false},
		{"domain:example.com", "badexample.com", false},
		{"domain:*.example.com", "docs.example.com", true},
		{"domain:*.example.com", "a.b.example.com", true},
		{"domain:*.example.com", "example.com", false},
		{"domain:*.example.com", "badexample.com", false},
		{"domain:*", "anything.org", true},
		{"domain:docs.*.com", "docs.python.com", true},
		{"domain:docs.*.com", "docs.a.b.com", false},
		{"domain:127.0.0.1", "127.0.0.1", true},
		{"domain:[::1]", "::1", true},
		{"example.com", "example.com", false},
	}
	for _, tt := range tests {
		if got := matchDomain(tt.rule, tt.host); got != tt.want {
			t.Errorf("matchDomain(%q, %q) = %v, want %v", tt.rule, tt.host, got, tt.want)
		}
	}
}

// TestNamesHostWantsTheHostItself proves that only an allow rule naming the
// host exactly counts as the user's decision to reach a private address.
func TestNamesHostWantsTheHostItself(t *testing.T) {
	c := Context{Allow: rules(t, "WebFetch(domain:127.0.0.1)", "WebFetch(domain:*.lan)", "WebFetch", "Read(domain:10.0.0.1)"),
		Deny: rules(t, "WebFetch(domain:192.168.1.1)")}
	tests := []struct {
		host string
		want bool
	}{
		{"127.0.0.1", true},
		{"127.0.0.1.", true},
		{"printer.lan", false},
		{"10.0.0.1", false},
		{"192.168.1.1", false},
		{"localhost", false},
	}
	for _, tt := range tests {
		if got := c.NamesHost(tt.host); got != tt.want {
			t.Errorf("NamesHost(%q) = %v, want %v", tt.host, got, tt.want)
		}
	}
}

func TestRulesNameTheTargetOfATool(t *testing.T) {
	q := Query{Tool: "Skill", Target: "team:deploy", ReadOnly: true, ToolVerdict: Ask, ToolReason: "Execute skill: team:deploy"}
	for _, tc := range []struct {
		name             string
		allow, deny, ask []string
		want             Behavior
	}{
		{"no rule asks as the tool says", nil, nil, nil, Ask},
		{"a rule naming it allows", []string{"Skill(team:deploy)"}, nil, nil, Allow},
		{"a prefix rule allows the names below it", []string{"Skill(team:*)"}, nil, nil, Allow},
		{"a rule naming another does not", []string{"Skill(pdf)"}, nil, nil, Ask},
		{"a whole-tool rule allows", []string{"Skill"}, nil, nil, Allow},
		{"a deny naming it wins", []string{"Skill"}, []string{"Skill(team:deploy)"}, nil, Deny},
		{"a deny naming another does not", []string{"Skill"}, []string{"Skill(pdf)"}, nil, Allow},
		{"an ask naming it asks", []string{"Skill"}, nil, []string{"Skill(team:deploy)"}, Ask},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Context{Mode: ModeDefault, Allow: rules(t, tc.allow...), Deny: rules(t, tc.deny...), Ask: rules(t, tc.ask...)}
			if got := c.Decide(q).Behavior; got != tc.want {
				t.Errorf("Decide = %v, want %v", got, tc.want)
			}
		})
	}
}
