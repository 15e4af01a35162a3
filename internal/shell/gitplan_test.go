package shell

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestSplitKeyAtFirstAndLastDot(t *testing.T) {
	for _, tc := range []struct {
		key, section, sub, variable string
		hasSub                      bool
	}{
		{"core.fsmonitor", "core", "", "fsmonitor", false},
		{"diff.evil.textconv", "diff", "evil", "textconv", true},
		{"credential.https://example.com.helper", "credential", "https://example.com", "helper", true},
		{"Diff.Evil.TextConv", "diff", "Evil", "textconv", true},
		{"alias.x.y", "alias", "x", "y", true},
	} {
		section, sub, hasSub, variable := splitKey(tc.key)
		if section != tc.section || sub != tc.sub || hasSub != tc.hasSub || variable != tc.variable {
			t.Errorf("splitKey(%q) = %q %q %v %q, want %q %q %v %q", tc.key, section, sub, hasSub, variable, tc.section, tc.sub, tc.hasSub, tc.variable)
		}
	}
}

func TestRuleForMatchesKeysAsGitListsThem(t *testing.T) {
	for _, tc := range []struct{ key, pattern string }{
		{"core.fsmonitor", "core.fsmonitor"},
		{"diff.external", "diff.external"},
		{"diff.evil.external", ""},
		{"diff.evil.command", "diff.*.command"},
		{"diff.evil.textconv", "diff.*.textconv"},
		{"diff.evil.xfuncname", ""},
		{"filter.lfs.process", "filter.*.process"},
		{"gpg.program", "gpg.program"},
		{"gpg.ssh.program", "gpg.ssh.program"},
		{"gpg.x509.program", "gpg.x509.program"},
		{"gpg.SSH.program", ""},
		{"credential.helper", "credential.helper"},
		{"credential.https://example.com.helper", "credential.*.helper"},
		{"credential.https://example.com.username", ""},
		{"alias.st", "alias.*"},
		{"alias.x.y", "alias.*"},
		{"pager.log", "pager.*"},
		{"remote.origin.url", "remote.*.url"},
		{"remote.origin.fetch", ""},
		{"user.name", ""},
		{"core", ""},
		{"hook.pwn.command", "hook.*.command"},
		{"hook.pwn.event", ""},
		{"gc.recentobjectshook", "gc.recentobjectshook"},
		{"trailer.sign.cmd", "trailer.*.cmd"},
		{"sendemail.tocmd", "sendemail.tocmd"},
		{"sendemail.work.tocmd", "sendemail.*.tocmd"},
		{"instaweb.httpd", "instaweb.httpd"},
	} {
		r, ok := ruleFor(tc.key)
		if got := map[bool]string{true: r.pattern}[ok]; got != tc.pattern {
			t.Errorf("ruleFor(%q) = %q, want %q", tc.key, got, tc.pattern)
		}
	}
}

// always is the configuration every guard starts with when the user has
// none of those keys.
var always = [][2]string{{"core.fsmonitor", "false"}, {"core.hookspath", "/dev/null"}, {"protocol.ext.allow", "never"}}

func entry(scope, key, value string) configEntry {
	return configEntry{scope: scope, key: key, value: value}
}

func TestPlanGuard(t *testing.T) {
	for _, tc := range []struct {
		name     string
		listings [][]configEntry
		env      []string
		want     [][2]string // after the always keys
		wantEnv  []string
		hooks    string // core.hooksPath, when not /dev/null
	}{
		{name: "a repository that names no program gets the always keys only",
			listings: [][]configEntry{{entry("local", "core.bare", "false"), entry("local", "user.name", "x")}}},
		{name: "the repository's program keys get neutral values",
			listings: [][]configEntry{{entry("local", "diff.evil.textconv", "x"), entry("local", "filter.f.clean", "x"), entry("local", "diff.external", "x"), entry("worktree", "alias.st", "!x")}},
			want:     [][2]string{{"diff.evil.textconv", "cat"}, {"filter.f.clean", ""}, {"diff.external", diffProgram}, {"alias.st", ""}}},
		{name: "the user's own value of a key wins over the neutral one",
			listings: [][]configEntry{{entry("global", "diff.evil.textconv", "mine"), entry("local", "diff.evil.textconv", "x")}},
			want:     [][2]string{{"diff.evil.textconv", "mine"}}},
		{name: "the user's last value is kept",
			listings: [][]configEntry{{entry("system", "core.pager", "less"), entry("command", "core.pager", "most"), entry("local", "core.pager", "x")}},
			want:     [][2]string{{"core.pager", "most"}}},
		{name: "the user's hooks directory under home is kept",
			listings: [][]configEntry{{entry("global", "core.hookspath", "~/hooks"), entry("local", "core.hookspath", ".git/evil")}},
			hooks:    "~/hooks"},
		{name: "the user's absolute hooks directory is kept",
			listings: [][]configEntry{{entry("global", "core.hookspath", "/etc/githooks")}},
			hooks:    "/etc/githooks"},
		{name: "the user's relative hooks directory would be the repository's",
			listings: [][]configEntry{{entry("global", "core.hookspath", ".githooks")}}},
		{name: "credential helpers are reset, then the user's added back in order",
			listings: [][]configEntry{{entry("system", "credential.helper", "cache"), entry("global", "credential.https://a.example.helper", "store"), entry("local", "credential.helper", "!x"), entry("local", "credential.https://b.example.helper", "!y")}},
			want:     [][2]string{{"credential.helper", ""}, {"credential.helper", "cache"}, {"credential.https://a.example.helper", "store"}}},
		{name: "uploadpack refuses the file and ssh transports",
			listings: [][]configEntry{{entry("local", "remote.origin.uploadpack", "x")}},
			want:     [][2]string{{"protocol.ssh.allow", "never"}, {"protocol.file.allow", "never"}}},
		{name: "a remote that is a path refuses the file transport, a URL does not",
			listings: [][]configEntry{{entry("local", "remote.a.url", "https://example.com/x"), entry("local", "remote.b.url", "git@example.com:x"), entry("local", "remote.c.pushurl", "../up.git")}},
			want:     [][2]string{{"protocol.file.allow", "never"}}},
		{name: "insteadOf a path refuses the file transport",
			listings: [][]configEntry{{entry("local", "url.file:///tmp/up.git.insteadof", "https://example.com/")}},
			want:     [][2]string{{"protocol.file.allow", "never"}}},
		{name: "a user's remote that is a path is the user's",
			listings: [][]configEntry{{entry("global", "remote.a.url", "/srv/up.git")}}},
		{name: "core.gitProxy is cleared through the environment",
			listings: [][]configEntry{{entry("local", "core.gitproxy", "x")}},
			wantEnv:  []string{"GIT_PROXY_COMMAND="}},
		{name: "the user's own GIT_PROXY_COMMAND already beats it",
			listings: [][]configEntry{{entry("local", "core.gitproxy", "x")}},
			env:      []string{"GIT_PROXY_COMMAND=mine"}},
		{name: "core.sshCommand gives way to the user's GIT_SSH, quoted",
			listings: [][]configEntry{{entry("local", "core.sshcommand", "x")}},
			env:      []string{"GIT_SSH=/opt/my ssh's"},
			want:     [][2]string{{"core.sshcommand", `'/opt/my ssh'\''s'`}}},
		{name: "submodule update is neutralised only when it runs a command",
			listings: [][]configEntry{{entry("local", "submodule.a.update", "rebase"), entry("local", "submodule.b.update", "!x")}},
			want:     [][2]string{{"submodule.b.update", "none"}}},
		{name: "a hook the configuration names runs true, or the user's command of that name",
			listings: [][]configEntry{{entry("global", "hook.lint.command", "mine"), entry("local", "hook.lint.command", "x"), entry("local", "hook.pwn.command", "y"), entry("local", "hook.pwn.event", "pre-commit")}},
			want:     [][2]string{{"hook.lint.command", "mine"}, {"hook.pwn.command", "true"}}},
		{name: "an smtpServer that is a program is neutralised, a host is not",
			listings: [][]configEntry{{entry("local", "sendemail.smtpserver", "/x/sendmail"), entry("local", "sendemail.work.smtpserver", "smtp.example.com")}},
			want:     [][2]string{{"sendemail.smtpserver", "localhost"}}},
		{name: "keys of nested repositories count, each once",
			listings: [][]configEntry{{entry("local", "filter.f.clean", "x")}, {entry("local", "filter.f.clean", "y"), entry("local", "filter.g.smudge", "z")}},
			want:     [][2]string{{"filter.f.clean", ""}, {"filter.g.smudge", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := planGuard(tc.listings, tc.env)
			want := append(slices.Clone(always), tc.want...)
			if tc.hooks != "" {
				want[1][1] = tc.hooks
			}
			if !reflect.DeepEqual(g.config, want) {
				t.Errorf("config\n got %q\nwant %q", g.config, want)
			}
			if !slices.Equal(g.env, tc.wantEnv) {
				t.Errorf("env %q, want %q", g.env, tc.wantEnv)
			}
		})
	}
}

func TestGuardApplyAddsAfterTheUsersEntries(t *testing.T) {
	g := gitGuard{config: [][2]string{{"core.fsmonitor", "false"}, {"diff.x.textconv", "cat"}}, env: []string{"GIT_PROXY_COMMAND="}}
	for _, tc := range []struct {
		name string
		env  []string
		want []string
	}{
		{"no configuration in the environment",
			[]string{"HOME=/h"},
			[]string{"HOME=/h", "GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_VALUE_0=false", "GIT_CONFIG_KEY_1=diff.x.textconv", "GIT_CONFIG_VALUE_1=cat", "GIT_CONFIG_COUNT=2", "GIT_PROXY_COMMAND="}},
		{"the user's entries stay first; stale ones beyond the count and the replaced variable go",
			[]string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=a.b", "GIT_CONFIG_VALUE_0=c", "GIT_CONFIG_KEY_1=stale", "GIT_PROXY_COMMAND=x"},
			[]string{"GIT_CONFIG_KEY_0=a.b", "GIT_CONFIG_VALUE_0=c", "GIT_CONFIG_KEY_1=core.fsmonitor", "GIT_CONFIG_VALUE_1=false", "GIT_CONFIG_KEY_2=diff.x.textconv", "GIT_CONFIG_VALUE_2=cat", "GIT_CONFIG_COUNT=3", "GIT_PROXY_COMMAND="}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := g.apply(tc.env)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("\n got %q\nwant %q", got, tc.want)
			}
		})
	}
	if _, err := g.apply([]string{"GIT_CONFIG_COUNT=two"}); err == nil || !strings.Contains(err.Error(), "not a count") {
		t.Errorf("a GIT_CONFIG_COUNT git refuses: err %v, want one saying it is not a count", err)
	}
	refused := planGuard([][]configEntry{{entry("local", "gc.recentobjectshook", "x"), entry("worktree", "gc.recentobjectshook", "y")}}, nil)
	if _, err := refused.apply([]string{"A=1"}); err == nil || !strings.Contains(err.Error(), "sets gc.recentobjectshook, whose") {
		t.Errorf("a key no value neutralises: err %v, want one naming it once", err)
	}
	if got, _ := (gitGuard{}).apply([]string{"A=1"}); !slices.Equal(got, []string{"A=1"}) {
		t.Errorf("an empty guard changed the environment: %q", got)
	}
}

func TestParseConfigList(t *testing.T) {
	out := "system\x00file:/etc/gitconfig\x00credential.helper\ncache\x00local\x00file:.git/config\x00core.bare\x00" +
		"command\x00command line:\x00alias.x\n!a\nb\x00"
	got, err := parseConfigList([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []configEntry{{"system", "file:/etc/gitconfig", "credential.helper", "cache"}, {"local", "file:.git/config", "core.bare", ""}, {"command", "command line:", "alias.x", "!a\nb"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := parseConfigList([]byte("local\x00file:.git/config\x00")); err == nil {
		t.Error("a scope without its entry parsed")
	}
}

func TestIsLocalURLAsGitDecides(t *testing.T) {
	for u, local := range map[string]bool{
		"/srv/up.git": true, "../up.git": true, "up.git": true, "file:///srv/up.git": true, "./a:b": true,
		"https://example.com/x": false, "ssh://host/x": false, "git@host:x": false, "host:x": false, "ext::sh -c x": false,
	} {
		if got := isLocalURL(u); got != local {
			t.Errorf("isLocalURL(%q) = %v, want %v", u, got, local)
		}
	}
}

func TestKnownKeys(t *testing.T) {
	for _, tc := range []struct {
		key   string
		known bool
	}{
		{"core.repositoryformatversion", true},
		{"remote.origin.fetch", true},
		{"remote.origin.url", true},
		{"branch.main.merge", true},
		{"submodule.lib.url", true},
		{"http.https://example.com.extraheader", true},
		{"color.diff.meta", true},
		{"fetch.fsck.missingemail", true},
		{"lfs.https://example.com/x.git/info/lfs.access", true},
		{"hook.pwn.event", true},
		{"diff.evil.textconv", true}, // a rule's
		{"core.fsmonitorwhatever", false},
		{"lfs.customtransfer.x.path", false},
		{"lfs.extension.x.clean", false},
		{"guitool.x.cmd", false},
		{"gitflow.branch.master", false},
		{"svn-remote.svn.url", false},
		{"gpg.SSH.allowedsignersfile", false}, // the subsection is case-sensitive
	} {
		if got := knownKey(tc.key); got != tc.known {
			t.Errorf("knownKey(%q) = %v, want %v", tc.key, got, tc.known)
		}
	}
}

func TestUnknownKeysAreTheRepositoriesOwn(t *testing.T) {
	listings := [][]configEntry{
		{entry("global", "gitflow.branch.master", "main"), entry("local", "core.bare", "false"), entry("local", "lfs.customtransfer.x.path", "x"), entry("local", "foo.bar", "1")},
		{entry("local", "foo.bar", "2"), entry("worktree", "x.y", "z")},
	}
	if got, want := unknownKeys(listings), []string{"lfs.customtransfer.x.path", "foo.bar", "x.y"}; !slices.Equal(got, want) {
		t.Errorf("unknownKeys = %q, want %q", got, want)
	}
}
