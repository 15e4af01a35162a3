package shell

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// configEntry is one entry of `git config --list --show-scope
// --show-origin`: where it comes from, its key (section and variable in
// lower case) and its value.
type configEntry struct {
	scope, origin, key, value string
}

// parseConfigList parses `git config --list --show-scope --show-origin -z`:
// for each entry its scope, a NUL, its origin ("file:<path>", "command
// line:"), a NUL, the key, then a newline and the value (absent for a key
// without "="), and a NUL.
func parseConfigList(out []byte) ([]configEntry, error) {
	fields := strings.Split(string(out), "\x00")
	if len(fields) > 0 && fields[len(fields)-1] == "" {
		fields = fields[:len(fields)-1]
	}
	if len(fields)%3 != 0 {
		return nil, fmt.Errorf("unexpected git config output: %d fields", len(fields))
	}
	entries := make([]configEntry, 0, len(fields)/3)
	for i := 0; i < len(fields); i += 3 {
		key, value, _ := strings.Cut(fields[i+2], "\n")
		entries = append(entries, configEntry{scope: fields[i], origin: fields[i+1], key: key, value: value})
	}
	return entries, nil
}

// fromUser reports whether an entry is the user's own: the system and global
// files, and the environment or command line (GIT_CONFIG_COUNT, git -c).
// Every other scope (local, worktree, and whatever they include) is the
// repository's.
func (e configEntry) fromUser() bool {
	return e.scope == "system" || e.scope == "global" || e.scope == "command"
}

// gitGuard is what neutralises the repositories of one command: git
// configuration given through the environment, and environment variables.
type gitGuard struct {
	// config is the key, value pairs in the order git is to read them.
	config [][2]string
	// env is NAME=value settings.
	env []string
	// refused is the repository keys no setting neutralises (see refuse):
	// the command is not to run.
	refused []string
}

// maxGuardKeys bounds the keys a guard sets: a repository that names more
// programs than this is refused rather than passed in a huge environment.
const maxGuardKeys = 4096

// planner builds a gitGuard from the listings of the repositories a command
// may use.
type planner struct {
	guard gitGuard
	// user is the user's own entries, in the order git reads them.
	user []configEntry
	env  []string
	done map[string]bool
}

// planGuard decides the guard for the listings of the repositories a command
// may use (the first also gives the user's own values): the rules marked
// always, and every rule a repository entry matches.
func planGuard(listings [][]configEntry, env []string) gitGuard {
	p := planner{env: env, done: map[string]bool{}}
	if len(listings) > 0 {
		for _, e := range listings[0] {
			if e.fromUser() {
				p.user = append(p.user, e)
			}
		}
	}
	for _, r := range gitRules {
		if r.always {
			p.add(r, r.pattern)
		}
	}
	for _, listing := range listings {
		for _, e := range listing {
			if e.fromUser() {
				continue
			}
			r, ok := ruleFor(e.key)
			if !ok {
				continue
			}
			_, sub, _, _ := splitKey(e.key)
			if r.when == nil || r.when(sub, e.value) {
				p.add(r, e.key)
			}
		}
	}
	return p.guard
}

// add applies rule r to key, once per key (once per list, protocol or variable).
func (p *planner) add(r gitRule, key string) {
	switch r.act {
	case replaceValue:
		p.set(key, p.value(r, key))
	case resetList:
		if p.done["credential helpers"] {
			return
		}
		p.done["credential helpers"] = true
		p.guard.config = append(p.guard.config, [2]string{"credential.helper", ""})
		for _, u := range p.user {
			if ur, ok := ruleFor(u.key); ok && ur.act == resetList {
				p.guard.config = append(p.guard.config, [2]string{u.key, u.value})
			}
		}
	case blockLocalAndSSH:
		p.set("protocol.ssh.allow", "never")
		p.set("protocol.file.allow", "never")
	case blockLocal:
		p.set("protocol.file.allow", "never")
	case clearProxy:
		if _, ok := lookup(p.env, "GIT_PROXY_COMMAND"); !ok && !p.done["proxy"] {
			p.done["proxy"] = true
			p.guard.env = append(p.guard.env, "GIT_PROXY_COMMAND=")
		}
	case refuse:
		if !slices.Contains(p.guard.refused, key) {
			p.guard.refused = append(p.guard.refused, key)
		}
	}
}

func (p *planner) set(key, value string) {
	if !p.done[key] {
		p.done[key] = true
		p.guard.config = append(p.guard.config, [2]string{key, value})
	}
}

// value is the user's own last value for key when the rule accepts it, else
// the rule's neutral value.
func (p *planner) value(r gitRule, key string) string {
	for i := len(p.user) - 1; i >= 0; i-- {
		if p.user[i].key == key {
			if r.userOK == nil || r.userOK(p.user[i].value) {
				return p.user[i].value
			}
			break
		}
	}
	if key == "core.sshcommand" {
		if program, ok := lookup(p.env, "GIT_SSH"); ok && program != "" {
			return shellQuote(program)
		}
	}
	return r.neutral
}

// shellQuote quotes s as one word for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// apply returns env with the guard added. Configuration goes after any
// GIT_CONFIG_COUNT entries env has (the user's own), so git reads it last.
func (g gitGuard) apply(env []string) ([]string, error) {
	if len(g.refused) > 0 {
		return nil, fmt.Errorf("the repository's git configuration sets %s, whose program git runs whatever is set after it; trust the folder to run git commands in it", strings.Join(g.refused, ", "))
	}
	if len(g.config) == 0 && len(g.env) == 0 {
		return env, nil
	}
	if len(g.config) > maxGuardKeys {
		return nil, fmt.Errorf("the repository's git configuration names %d programs, more than the %d that can be neutralised; trust the folder to run git commands in it", len(g.config), maxGuardKeys)
	}
	n, err := configCount(env)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(env)+2*len(g.config)+len(g.env)+1)
	for _, kv := range env {
		if !replacedBy(kv, n, g.env) {
			out = append(out, kv)
		}
	}
	for i, kv := range g.config {
		out = append(out, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", n+i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", n+i, kv[1]))
	}
	out = append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(n+len(g.config)))
	return append(out, g.env...), nil
}

// configCount is the number of GIT_CONFIG_KEY_n entries env already gives git.
func configCount(env []string) (int, error) {
	v, ok := lookup(env, "GIT_CONFIG_COUNT")
	if !ok || v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("GIT_CONFIG_COUNT in the environment is %q, not a count; git refuses it too", v)
	}
	return n, nil
}

// replacedBy reports whether the setting kv gives way to the guard: the
// count, the numbered entries from n on (which git ignores today), and the
// variables the guard sets.
func replacedBy(kv string, n int, env []string) bool {
	name, _, _ := strings.Cut(kv, "=")
	if name == "GIT_CONFIG_COUNT" {
		return true
	}
	for _, prefix := range []string{"GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			i, err := strconv.Atoi(rest)
			return err == nil && i >= n
		}
	}
	for _, set := range env {
		if strings.HasPrefix(set, name+"=") {
			return true
		}
	}
	return false
}
