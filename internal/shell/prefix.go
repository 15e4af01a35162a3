package shell

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// subcommandWord is what a subcommand looks like: lower-case letters and
// digits, joined by '-', '_' or ':' (commit, rev-parse, test:unit). Paths,
// file names with a dot, values with '=' and upper-case words are not.
var subcommandWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z][a-z0-9]*([-_:][a-z0-9]+)*$`)
})

// deeperSubcommands lists the subcommands that take a subcommand of their
// own: "npm run test", "docker compose up", "git stash pop".
var deeperSubcommands = map[string][]string{
	"git":     {"stash", "remote", "worktree", "submodule", "notes", "bisect", "lfs", "sparse-checkout"},
	"npm":     {"run", "run-script", "exec", "cache", "config"},
	"pnpm":    {"run", "exec", "dlx"},
	"yarn":    {"run", "workspace", "dlx"},
	"bun":     {"run", "x"},
	"docker":  {"compose", "buildx", "container", "image", "volume", "network", "system", "context", "builder"},
	"podman":  {"compose", "container", "image", "volume", "network", "system"},
	"go":      {"mod", "work", "tool", "env"},
	"cargo":   {"run"},
	"kubectl": {"config", "rollout", "auth", "certificate"},
	"gh":      {"pr", "issue", "repo", "run", "workflow", "release", "gist", "label", "secret", "variable", "codespace", "extension", "cache", "search", "auth", "project"},
	"aws":     nil,
	"gcloud":  nil,
	"uv":      {"pip", "tool", "python", "run"},
	"poetry":  {"run", "env", "self"},
	"make":    nil,
}

// alwaysDeep are programs whose first subcommand always takes another
// (aws s3 ls, gcloud compute instances).
var alwaysDeep = map[string]bool{"aws": true, "gcloud": true, "az": true}

// globalValueOptions are options given before the subcommand that take a
// separate value, which the prefix skips with the option (git -C dir log).
var globalValueOptions = map[string][]string{
	"git":     {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"},
	"gh":      {"-R", "--repo"},
	"docker":  {"-H", "--host", "--context", "-c", "--config", "-l", "--log-level"},
	"kubectl": {"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "-o", "--user", "-s", "--server"},
	"npm":     {"--prefix", "-w", "--workspace"},
	"pnpm":    {"-C", "--dir", "--filter", "-F"},
	"yarn":    {"--cwd"},
	"cargo":   {"--manifest-path", "--config", "-Z", "--color"},
	"go":      {"-C"},
	"uv":      {"--directory", "--project", "--python"},
	"make":    {"-C", "-f", "--file", "--directory", "-j", "--jobs", "-I", "-o", "-W"},
	"aws":     {"--profile", "--region", "--output", "--endpoint-url"},
}

// prefixStoppers are options before the subcommand that change what the
// program runs (git -c core.pager=…, --exec-path): the prefix ends before
// them, so a rule naming the subcommand does not cover them.
var prefixStoppers = map[string][]string{
	"git": {"-c", "--config-env", "--exec-path", "--git-dir", "--work-tree"},
}

// prefixTables are built on first use: noSubcommand are programs whose
// first operand is a file, pattern or value, never a subcommand (their
// prefix is the name alone); subcommandDepth is how many subcommand words a
// program takes (programs not listed take one, Claude Code's default: "pig
// tail", "make test").
type prefixTables struct {
	noSubcommand    map[string]bool
	subcommandDepth map[string]int
}

var prefixTablesOnce = sync.OnceValue(func() prefixTables {
	t := prefixTables{noSubcommand: map[string]bool{}, subcommandDepth: map[string]int{}}
	for _, name := range strings.Fields(`cat head tail less more ls grep egrep fgrep rg ag find wc
		nl tac rev cut paste column fold fmt expand unexpand comm join od hexdump xxd strings
		md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum diff cmp stat file
		du df realpath readlink base64 tree sort uniq sed awk gawk jq yq tr echo printf true
		false test [ pwd basename dirname seq expr which type whereis whoami id uname sleep
		date env printenv cd pushd popd rm rmdir cp mv ln mkdir touch chmod chown chgrp tee
		truncate dd install unlink shred curl wget python python2 python3 node deno ruby perl
		php lua pytest jest vitest mocha tsc eslint prettier black ruff mypy flake8 pylint
		gofmt rustc gcc g++ cc clang clang++ javac java sh bash zsh dash ksh fish source .
		eval exec xargs timeout nice nohup sudo doas time stdbuf ionice setsid watch kill
		killall pkill pgrep ps top htop open xdg-open vim vi nano emacs code tar zip unzip
		gzip gunzip bzip2 xz zstd ssh scp rsync patch set export unset alias read exit
		return shift trap wait true : hostname command builtin read let declare local shopt`) {
		t.noSubcommand[name] = true
	}
	for name, subs := range deeperSubcommands {
		depth := 1
		if len(subs) > 0 || alwaysDeep[name] {
			depth = 2
		}
		t.subcommandDepth[name] = depth
	}
	return t
})

// CommandPrefix returns the words a Claude Code prefix rule names a command
// by ("Bash(git commit:*)"): the program as written, then its subcommand
// words. Options before and between subcommands are skipped, with the value
// of a known global option (git -C dir log gives "git log"). The prefix
// stops at "--", at an option that changes what the program runs (git -c,
// so "git -c core.pager=x log" gives "git"), at a word that does not look
// like a subcommand (a path, a file name, an upper-case or dynamic word),
// and after the program's depth:
// none for programs that take files or values (cat, rm, python), two where
// a subcommand has its own (npm run test, docker compose up, git stash pop,
// gh pr view), one otherwise (git commit, make test). Environment
// assignments and wrappers are not part of it.
func CommandPrefix(args []string) string {
	if len(args) == 0 {
		return ""
	}
	name := path.Base(args[0])
	tables := prefixTablesOnce()
	if tables.noSubcommand[name] {
		return args[0]
	}
	depth, known := tables.subcommandDepth[name]
	if !known {
		depth = 1
	}
	prefix := []string{args[0]}
	valueOpts := globalValueOptions[name]
	for i := 1; i < len(args) && len(prefix) <= depth; i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") {
			opt, _, _ := strings.Cut(a, "=")
			if containsString(prefixStoppers[name], opt) {
				break
			}
			if containsString(valueOpts, a) {
				i++
			}
			continue
		}
		if !subcommandWord().MatchString(a) {
			break
		}
		prefix = append(prefix, a)
		if len(prefix) == 2 && !alwaysDeep[name] && !containsString(deeperSubcommands[name], a) {
			break
		}
	}
	return strings.Join(prefix, " ")
}
