package shell

import (
	"path"
	"strings"
)

// A gitRule says how one kind of git configuration key that names a program
// is made harmless for a repository the user has not trusted. Every neutral
// value below was found by experiment with git 2.39.5 and, for the keys git
// 2.39 does not have, git 2.55.0, which the vector tests in
// gitguard_*_test.go repeat: the repository's value runs a marker program,
// the neutral one does not, and the command still does its normal work
// where it can.
type gitRule struct {
	// pattern is "section.variable" or "section.subsection.variable",
	// lower case but for the subsection; "*" stands for any subsection (or
	// variable). A two-part pattern ending in ".*" takes the whole section
	// (alias.x.y is the alias "x.y" to git).
	pattern string
	// neutral is the value set when the user's own configuration has none.
	neutral string
	// act is what the key's presence in a repository calls for.
	act gitAct
	// always applies the rule whether or not a repository sets the key:
	// repositories run some programs without naming them (.git/hooks).
	always bool
	// when, if set, is given the subsection and value of a repository's
	// entry and says whether the rule applies to it.
	when func(sub, value string) bool
	// userOK, if set, says whether a value from the user's own
	// configuration may be kept; a refused one is replaced by neutral.
	userOK func(value string) bool
}

// gitAct is how a rule neutralises its key.
type gitAct int

const (
	// replaceValue sets the key to the user's own value or the neutral one.
	// The environment's configuration comes after every file, so it wins
	// for the keys where git keeps the last value.
	replaceValue gitAct = iota
	// resetList empties a list-valued key (an empty value clears the
	// helpers collected so far) and adds the user's own entries back.
	resetList
	// blockLocal refuses the file transport: a remote that is a local path
	// runs that repository's hooks on push, in a process that clears the
	// environment's configuration.
	blockLocal
	// blockLocalAndSSH also refuses ssh: git keeps the first
	// remote.<name>.uploadpack or receivepack it reads (a later one is an
	// error), so the repository's command cannot be overridden, and it runs
	// in a local shell for a path remote or on the server for ssh.
	blockLocalAndSSH
	// clearProxy sets GIT_PROXY_COMMAND to empty: git uses the first
	// core.gitProxy that matches the host, so a later value cannot override
	// the repository's, while the variable, even empty, takes precedence
	// over every one and empty means no proxy.
	clearProxy
	// refuse keeps the command from running: git runs every value of the
	// key, the repository's included, and no variable turns it off.
	refuse
)

// diffProgram stands in for diff.external and diff.<driver>.command. No
// value switches an external diff off (an empty one is run and fails:
// "cannot run : No such file or directory", "external diff died"), so the
// neutral value is a unified diff by diff(1) of the two files git passes
// ($1 path, $2 old file, $5 new file), with git's header line: the change
// is shown and nothing of the repository runs. git runs it as
// sh -c '<value> "$@"'; diff's status 1 (files differ) must become 0, or git
// stops at the file.
const diffProgram = `d() { printf 'diff --git a/%s b/%s\n' "$1" "$1"; diff -u --label "a/$1" --label "b/$1" -- "$2" "$5"; [ $? -le 1 ]; }; d`

// mergeProgram stands in for merge.<driver>.driver: git's own three-way
// merge of the files git names (%A ours, written in place; %O base; %B
// theirs), with conflict markers, instead of the repository's program.
// "false" would also run nothing, but leaves our side in place without
// markers.
const mergeProgram = "git merge-file -L ours -L base -L theirs --marker-size=%L %A %O %B"

// gitRules lists the keys by which a repository's configuration makes git
// run a program, with what each needs. The pager and the editors are
// already taken from GIT_PAGER and GIT_EDITOR (see NonInteractive); their
// keys are neutralised too, for commands that unset those variables.
var gitRules = []gitRule{
	// git status runs core.fsmonitor as a hook on every call; false is
	// git's default.
	{pattern: "core.fsmonitor", neutral: "false", always: true},
	// git 2.54 and later run hooks the configuration defines
	// (hook.<name>.command on hook.<name>.event), which core.hooksPath does
	// not reach: git status runs one on post-index-change. true runs
	// nothing, and enabled=false switches the hook off (found with git 2.55).
	{pattern: "hook.*.command", neutral: "true"},
	{pattern: "hook.*.enabled", neutral: "false"},
	// Hooks run from .git/hooks when no key names them (git status runs
	// post-index-change when it refreshes the index); /dev/null/<hook> never
	// exists. The user's own absolute hooks directory is kept; a relative
	// one means the repository's files.
	{pattern: "core.hookspath", neutral: "/dev/null", always: true, userOK: ownPath},
	// ext:: remote URLs run a shell command once a repository allows the
	// protocol (protocol.allow or protocol.ext.allow = always); never is
	// git's default for ext.
	{pattern: "protocol.ext.allow", neutral: "never", always: true},
	{pattern: "core.pager", neutral: "cat"},
	// pager.<command> = <program> pages that command; false turns paging off.
	{pattern: "pager.*", neutral: "false"},
	{pattern: "core.editor", neutral: "true"},
	{pattern: "sequence.editor", neutral: "true"},
	// An empty core.askPass is no program, and keeps git from falling back
	// to SSH_ASKPASS: git asks nobody (GIT_TERMINAL_PROMPT=0).
	{pattern: "core.askpass", neutral: ""},
	// ssh, or the user's GIT_SSH program, which this key would override;
	// GIT_SSH_COMMAND (always set, see NonInteractive) already beats it.
	{pattern: "core.sshcommand", neutral: "ssh"},
	{pattern: "core.gitproxy", act: clearProxy},
	// Run on fetch in a repository with alternates; true lists no tips.
	{pattern: "core.alternaterefscommand", neutral: "true"},
	{pattern: "diff.external", neutral: diffProgram},
	{pattern: "diff.*.command", neutral: diffProgram},
	// An empty textconv is run and fails ("unable to read files to diff");
	// cat is the identity: diff, log -p, show, blame, grep --textconv and
	// cat-file --textconv show the file as stored.
	{pattern: "diff.*.textconv", neutral: "cat"},
	// An empty clean, smudge or process command is skipped: the file passes
	// unchanged. Without required=false a repository's required=true makes
	// the skipped filter fatal ("clean filter 'x' failed").
	{pattern: "filter.*.clean", neutral: ""},
	{pattern: "filter.*.smudge", neutral: ""},
	{pattern: "filter.*.process", neutral: ""},
	{pattern: "filter.*.required", neutral: "false"},
	{pattern: "merge.*.driver", neutral: mergeProgram},
	// Signatures are checked by the programs git uses when nothing is
	// configured (git log --show-signature, log.showSignature, verify-commit).
	{pattern: "gpg.program", neutral: "gpg"},
	{pattern: "gpg.openpgp.program", neutral: "gpg"},
	{pattern: "gpg.x509.program", neutral: "gpgsm"},
	{pattern: "gpg.ssh.program", neutral: "ssh-keygen"},
	// Empty: signing without user.signingKey fails instead of running it.
	{pattern: "gpg.ssh.defaultkeycommand", neutral: ""},
	// Helpers run on every credential lookup (fetch, push, credential fill).
	{pattern: "credential.helper", act: resetList},
	{pattern: "credential.*.helper", act: resetList},
	// An alias of the repository, with "!" a shell command, or with "-c" a
	// configuration that would beat this one; empty fails: "expansion of
	// alias 'x' failed; '' is not a git command".
	{pattern: "alias.*", neutral: ""},
	// Pipes the colored diff of add -p through a program; cat is the identity.
	{pattern: "interactive.difffilter", neutral: "cat"},
	// remote.<name>.vcs = dir/prog runs dir/git-remote-… relative to the
	// working tree (git remote show); empty fails: "'remote-' is not a git
	// command".
	{pattern: "remote.*.vcs", neutral: ""},
	{pattern: "remote.*.uploadpack", act: blockLocalAndSSH},
	{pattern: "remote.*.receivepack", act: blockLocalAndSSH},
	{pattern: "remote.*.url", act: blockLocal, when: localValue},
	{pattern: "remote.*.pushurl", act: blockLocal, when: localValue},
	{pattern: "url.*.insteadof", act: blockLocal, when: localSub},
	{pattern: "url.*.pushinsteadof", act: blockLocal, when: localSub},
	// An empty difftool command makes git difftool fall back to a guessed
	// tool (vimdiff, which waits for a terminal); false runs nothing. An
	// empty path means the tool's usual program.
	{pattern: "difftool.*.cmd", neutral: "false"},
	{pattern: "mergetool.*.cmd", neutral: "false"},
	{pattern: "difftool.*.path", neutral: ""},
	{pattern: "mergetool.*.path", neutral: ""},
	// git archive --format=<name> pipes the tar through this command.
	{pattern: "tar.*.command", neutral: "gzip -cn"},
	// git imap-send; empty fails: "cannot start proxy".
	{pattern: "imap.tunnel", neutral: ""},
	// git web--browse (help --web, instaweb); empty: "Unknown browser".
	{pattern: "browser.*.cmd", neutral: ""},
	{pattern: "browser.*.path", neutral: ""},
	// git help runs man.viewer's man.<tool>.cmd (or the program at
	// man.<tool>.path) with the page; an empty command is run as a shell
	// line of its own, so man stands in and shows the page.
	{pattern: "man.*.cmd", neutral: "man"},
	{pattern: "man.*.path", neutral: "man"},
	// "!command" runs on git submodule update; none skips the submodule.
	{pattern: "submodule.*.update", neutral: "none", when: func(_, v string) bool { return strings.HasPrefix(v, "!") }},
	// git gc, prune and repack run every value (git 2.42 on) when they
	// weigh an unreachable object, and git gc --auto runs after commit,
	// merge or fetch; a later value only adds a command.
	{pattern: "gc.recentobjectshook", act: refuse},
	// git interpret-trailers, commit --trailer and tag --trailer run a
	// trailer's command (command on every call, cmd for a --trailer of its
	// key) and keep the last value, with a warning ("more than one"); true
	// adds the trailer empty, while an empty command fails to run.
	{pattern: "trailer.*.command", neutral: "true"},
	{pattern: "trailer.*.cmd", neutral: "true"},
	// git send-email runs these, for all mail or for an identity, and keeps
	// the last value. The recipient and header commands get the patch file:
	// true adds no address or header (an empty one would run the file).
	{pattern: "sendemail.tocmd", neutral: "true"},
	{pattern: "sendemail.*.tocmd", neutral: "true"},
	{pattern: "sendemail.cccmd", neutral: "true"},
	{pattern: "sendemail.*.cccmd", neutral: "true"},
	{pattern: "sendemail.headercmd", neutral: "true"},
	{pattern: "sendemail.*.headercmd", neutral: "true"},
	// The mail goes to sendmail on PATH instead of the repository's program
	// (an empty command would run the first address as one).
	{pattern: "sendemail.sendmailcmd", neutral: "sendmail"},
	{pattern: "sendemail.*.sendmailcmd", neutral: "sendmail"},
	// An absolute smtpServer is a sendmail-like program; localhost, git's
	// own last resort, is a server.
	{pattern: "sendemail.smtpserver", neutral: "localhost", when: absoluteValue},
	{pattern: "sendemail.*.smtpserver", neutral: "localhost", when: absoluteValue},
	// git instaweb runs instaweb.httpd, gitweb.cgi from instaweb.gitwebdir
	// and Apache's modules from instaweb.modulePath, each read with git
	// config --get (the last value); empty means its defaults (lighttpd
	// from PATH, /usr/share/gitweb, the system's modules).
	{pattern: "instaweb.httpd", neutral: ""},
	{pattern: "instaweb.gitwebdir", neutral: ""},
	{pattern: "instaweb.modulepath", neutral: ""},
}

// ruleFor returns the rule whose pattern matches a key as git lists it.
func ruleFor(key string) (gitRule, bool) {
	section, sub, hasSub, variable := splitKey(key)
	for _, r := range gitRules {
		if patternMatches(r.pattern, section, sub, hasSub, variable) {
			return r, true
		}
	}
	return gitRule{}, false
}

// patternMatches reports whether a key, split by splitKey, matches a
// pattern of gitRule's form.
func patternMatches(pattern, section, sub string, hasSub bool, variable string) bool {
	parts := strings.Split(pattern, ".")
	if parts[0] != section {
		return false
	}
	if len(parts) == 2 {
		return parts[1] == "*" || !hasSub && parts[1] == variable
	}
	return hasSub && (parts[1] == "*" || parts[1] == sub) && (parts[2] == "*" || parts[2] == variable)
}

// splitKey splits a configuration key at its first and last dots: the
// section and the variable; the subsection between them may hold dots.
func splitKey(key string) (section, sub string, hasSub bool, variable string) {
	first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if first < 0 {
		return strings.ToLower(key), "", false, ""
	}
	section, variable = strings.ToLower(key[:first]), strings.ToLower(key[last+1:])
	if first == last {
		return section, "", false, variable
	}
	return section, key[first+1 : last], true, variable
}

// ownPath accepts a user's hooks directory that does not depend on the
// repository: absolute, or under the home directory.
func ownPath(v string) bool { return path.IsAbs(v) || strings.HasPrefix(v, "~") }

// absoluteValue reports whether a value is an absolute path.
func absoluteValue(_, v string) bool { return path.IsAbs(v) }

// localValue reports whether a remote URL is a local repository, as git
// decides: file://, or no "://" and no colon before the first slash
// (host:path is ssh).
func localValue(_, v string) bool { return isLocalURL(v) }

// localSub is localValue for url.<base>.insteadOf, whose base, the URL
// rewritten to, is the subsection.
func localSub(sub, _ string) bool { return isLocalURL(sub) }

func isLocalURL(u string) bool {
	if strings.HasPrefix(strings.ToLower(u), "file://") {
		return true
	}
	if strings.Contains(u, "://") || strings.Contains(u, "::") {
		return false
	}
	colon, slash := strings.IndexByte(u, ':'), strings.IndexByte(u, '/')
	return colon < 0 || (slash >= 0 && slash < colon)
}
