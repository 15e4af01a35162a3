package shell

import (
	"path/filepath"
	"testing"
)

// Commands the user is asked about, and the read-only ones that reach a
// remote: approving them in a folder one did not write does not mean
// running its configuration's programs.

// fillCredential asks git for a credential, as fetch and push do.
const fillCredential = `printf 'protocol=https\nhost=example.com\n\n' | git credential fill`

func TestGuardRemotes(t *testing.T) {
	bareRemote := func(l *gitLab) string {
		up := filepath.Join(l.root, "up.git")
		l.gitIn(l.root, "", "init", "-q", "--bare", up)
		return up
	}
	testVectors(t, []gitVector{
		{name: "remote show runs remote.<name>.uploadpack of a path remote", command: "git remote show origin", want: "transport 'file' not allowed",
			setup: func(l *gitLab) {
				l.git("remote", "add", "origin", bareRemote(l))
				l.config("remote.origin.uploadpack", l.touch()+"; git-upload-pack")
			}},
		{name: "remote show runs a helper of the working tree named by remote.<name>.vcs", command: "git remote show origin", want: "'remote-' is not a git command",
			setup: func(l *gitLab) {
				l.write("git-remote-x/evil", "#!/bin/sh\ntouch '"+l.marker+"'\n")
				l.git("remote", "add", "origin", "https://example.invalid/x")
				l.config("remote.origin.vcs", "x/evil")
			}},
		{name: "remote show runs an ext:: URL the repository allows", command: "git remote show origin", want: "transport 'ext' not allowed",
			setup: func(l *gitLab) {
				l.git("remote", "add", "origin", "ext::sh -c touch% "+l.marker)
				l.config("protocol.allow", "always")
			}},
		{name: "push runs the hooks of a path remote", command: "git push -q origin HEAD:refs/heads/x", want: "transport 'file' not allowed",
			setup: func(l *gitLab) {
				up := bareRemote(l)
				l.hook(filepath.Join(up, "hooks", "pre-receive"))
				l.git("remote", "add", "origin", up)
			}},
		{name: "push to a URL that insteadOf turns into a path remote runs its hooks", command: "git push -q https://example.com/up.git HEAD:refs/heads/x", want: "transport 'file' not allowed",
			setup: func(l *gitLab) {
				up := bareRemote(l)
				l.hook(filepath.Join(up, "hooks", "pre-receive"))
				l.config("url."+up+".insteadOf", "https://example.com/up.git")
			}},
		{name: "core.sshCommand beats the user's GIT_SSH", command: "unset GIT_SSH_COMMAND; git ls-remote origin", want: "the user's ssh",
			setup: func(l *gitLab) {
				userSSH := filepath.Join(l.root, "user ssh")
				l.write(userSSH, "#!/bin/sh\necho \"the user's ssh\" >&2\nexit 1\n")
				l.env = append(l.env, "GIT_SSH="+userSSH)
				l.git("remote", "add", "origin", "ssh://example.invalid/x")
				l.config("core.sshCommand", l.mark)
			}},
		{name: "core.gitProxy runs for git:// remotes", command: "git ls-remote git://127.0.0.1:1/x", want: "unable to connect",
			setup: func(l *gitLab) { l.config("core.gitProxy", l.mark) }},
		{name: "fetch runs core.alternateRefsCommand in a repository with alternates", command: "git fetch -q ../src main && git log -1 --format=%s FETCH_HEAD", want: "from src",
			setup: func(l *gitLab) {
				src := filepath.Join(l.root, "src")
				l.initRepo(src)
				l.gitIn(src, "", "commit", "-q", "--allow-empty", "-m", "from src")
				other := filepath.Join(l.root, "other")
				l.initRepo(other)
				l.write(".git/objects/info/alternates", filepath.Join(other, ".git", "objects")+"\n")
				l.config("core.alternateRefsCommand", l.mark)
			}},
	})
}

func TestGuardCredentials(t *testing.T) {
	testVectors(t, []gitVector{
		{name: "credential.helper runs on a credential lookup", command: fillCredential, want: "could not read Username",
			setup: func(l *gitLab) { l.config("credential.helper", "!"+l.mark) }},
		{name: "a URL's credential helper runs on a credential lookup", command: fillCredential, want: "could not read Username",
			setup: func(l *gitLab) { l.config("credential.https://example.com.helper", "!"+l.mark) }},
		{name: "the user's own helper is still asked", command: fillCredential, want: "could not read Password for 'https://me@example.com'",
			setup: func(l *gitLab) {
				// It answers the user name only, so that git goes on to the
				// repository's helper; guarded, git then asks for the password
				// of the user it named.
				l.write(l.global, "[credential]\n\thelper = \"!f() { echo \\\"the user's helper\\\" >&2; echo username=me; }; f\"\n")
				l.config("credential.helper", "!"+l.mark)
			}},
		{name: "core.askPass runs when no helper answers", command: fillCredential, want: "could not read Username",
			setup: func(l *gitLab) { l.config("core.askPass", l.mark) }},
	})
}

func TestGuardCommands(t *testing.T) {
	testVectors(t, []gitVector{
		{name: "an alias runs a shell command", command: "git st", want: "expansion of alias 'st' failed",
			setup: func(l *gitLab) { l.config("alias.st", "!"+l.mark) }},
		{name: "the user's own alias of the same name still works", command: "touch new.txt && git st", want: "?? new.txt",
			setup: func(l *gitLab) {
				l.write(l.global, "[alias]\n\tst = status --short\n")
				l.config("alias.st", "!"+l.mark)
			}},
		{name: "core.editor runs when GIT_EDITOR is unset", command: "unset GIT_EDITOR EDITOR VISUAL; git commit --allow-empty", want: "Aborting commit",
			setup: func(l *gitLab) { l.config("core.editor", l.mark) }},
		{name: "sequence.editor runs on rebase -i", command: "unset GIT_SEQUENCE_EDITOR; git rebase -i HEAD~1 && git log -1 --format=%s", want: "second",
			setup: func(l *gitLab) {
				l.git("commit", "-q", "--allow-empty", "-m", "second")
				l.config("sequence.editor", l.mark)
			}},
		{name: "a merge driver runs on merge", command: "git merge -q side; cat a.txt", want: "<<<<<<< ours",
			setup: func(l *gitLab) {
				l.write(".git/info/attributes", "*.txt merge=evil\n")
				conflict(l)
				l.config("merge.evil.driver", l.mark)
			}},
		{name: "mergetool.<tool>.cmd runs on mergetool", command: "git merge -q side; git mergetool --no-prompt", want: "merge of a.txt failed",
			setup: func(l *gitLab) {
				conflict(l)
				l.config("merge.tool", "evil", "mergetool.evil.cmd", l.mark)
			}},
		{name: "difftool.<tool>.cmd runs on difftool", command: "echo more >> a.txt && git difftool -y && echo done", want: "done",
			setup: func(l *gitLab) { l.config("diff.tool", "evil", "difftool.evil.cmd", l.mark) }},
		{name: "difftool.<tool>.path replaces a known tool's program", command: "echo more >> a.txt && git difftool -y", want: "not available",
			setup: func(l *gitLab) { l.config("diff.tool", "tkdiff", "difftool.tkdiff.path", l.mark) }},
		{name: "tar.<format>.command runs on archive", command: "git archive --format=evil -o out.tgz HEAD && gzip -t out.tgz && echo gzipped", want: "gzipped",
			setup: func(l *gitLab) { l.config("tar.evil.command", l.mark) }},
		{name: "imap.tunnel runs on imap-send", command: "git format-patch -1 --stdout | git imap-send", want: "cannot start proxy",
			setup: func(l *gitLab) { l.config("imap.folder", "x", "imap.tunnel", l.touch()) }},
		{name: "browser.<name>.path replaces a known browser's program", command: "git web--browse --browser=dillo http://example.invalid", want: "not available",
			setup: func(l *gitLab) { l.config("browser.dillo.path", l.mark) }},
		{name: "gpg.ssh.defaultKeyCommand runs on commit -S", command: "git commit -q --allow-empty -S -m signed", want: "failed to write commit object",
			setup: func(l *gitLab) { l.config("gpg.format", "ssh", "gpg.ssh.defaultKeyCommand", l.mark) }},
		{name: "browser.<name>.cmd runs on web--browse", command: "git web--browse --browser=evil http://example.invalid", want: "Unknown browser",
			setup: func(l *gitLab) { l.config("browser.evil.cmd", l.mark) }},
		{name: "man.<tool>.cmd runs on help", command: "git help log", want: "log", needs: "man",
			setup: func(l *gitLab) { l.config("man.viewer", "evil", "man.evil.cmd", l.mark) }},
		{name: "man.<tool>.path replaces a known viewer's program", command: "git help log", want: "log", needs: "man",
			setup: func(l *gitLab) { l.config("man.viewer", "man", "man.man.path", l.mark) }},
		{name: "interactive.diffFilter runs on add -p", command: "export TERM=xterm; unset GIT_PAGER; echo more >> a.txt; echo q | script -qec 'git add -p' /dev/null", want: "Stage this hunk", needs: "script",
			setup: func(l *gitLab) { l.config("interactive.diffFilter", l.mark) }},
		{name: "submodule.<name>.update runs a command on submodule update", command: "git submodule update", want: "Skipping submodule",
			setup: submoduleBehind},
		{name: "trailer.<key>.command runs on interpret-trailers", command: "printf 'subject\\n' | git interpret-trailers", want: "sign: ",
			setup: func(l *gitLab) { l.config("trailer.sign.command", l.touch()) }},
		{name: "trailer.<key>.cmd runs on a --trailer of its key", command: "git commit -q --allow-empty -m second --trailer sign=me && git log -1 --format=%B", want: "sign:",
			setup: func(l *gitLab) { l.config("trailer.sign.cmd", l.touch()) }},
		{name: "instaweb.httpd runs on instaweb", command: "git instaweb --start; git instaweb --stop", want: "lighttpd", needsGit: "instaweb --stop",
			setup: func(l *gitLab) {
				// A name with lighttpd in it, for instaweb to write it a
				// configuration and start it. Guarded, instaweb looks for
				// lighttpd (and stops it if it was there).
				httpd := filepath.Join(l.root, "lighttpd")
				l.write(httpd, "#!/bin/sh\ntouch '"+l.marker+"'\n")
				l.config("instaweb.httpd", httpd)
			}},
	})
}

// git send-email runs the programs of its keys, for all mail or for the
// identity chosen. The patch is made by the command, so that the lab's
// setup is the key alone.
func TestGuardSendEmail(t *testing.T) {
	const patch = "git format-patch -q -1 -o p && "
	const dryRun = patch + "git send-email --dry-run --confirm=never --from=lab@example.com --to=to@example.com p/*.patch"
	// $HOME/bin/sendmail is the user's, on PATH.
	const send = patch + "PATH=$HOME/bin:$PATH git send-email --confirm=never --from=lab@example.com --to=to@example.com p/*.patch"
	// sink reads the mail, as a sendmail does, after making the marker.
	sink := func(l *gitLab) string { return l.touch() + "; cat >/dev/null" }
	vectors := []gitVector{
		{name: "sendemail.headerCmd runs on every patch", command: dryRun, want: "Dry-OK",
			setup: func(l *gitLab) { l.config("sendemail.headerCmd", l.touch()) }},
		{name: "sendemail.toCmd runs on every patch", command: dryRun, want: "Dry-OK",
			setup: func(l *gitLab) { l.config("sendemail.toCmd", l.touch()) }},
		{name: "sendemail.ccCmd runs on every patch", command: dryRun, want: "Dry-OK",
			setup: func(l *gitLab) { l.config("sendemail.ccCmd", l.touch()) }},
		{name: "an identity's toCmd runs when the repository picks the identity", command: dryRun, want: "Dry-OK",
			setup: func(l *gitLab) { l.config("sendemail.identity", "work", "sendemail.work.toCmd", l.touch()) }},
		{name: "sendemail.sendmailCmd sends the mail", command: send, want: "the user's sendmail",
			setup: func(l *gitLab) {
				l.write(filepath.Join(l.root, "home", "bin", "sendmail"), "#!/bin/sh\necho \"the user's sendmail\" >&2\ncat >/dev/null\n")
				l.config("sendemail.sendmailCmd", sink(l))
			}},
		{name: "an absolute sendemail.smtpServer is run as sendmail", command: send, want: "server=localhost",
			setup: func(l *gitLab) {
				server := filepath.Join(l.root, "server")
				l.write(server, "#!/bin/sh\n"+sink(l)+"\n")
				l.config("sendemail.smtpServer", server)
			}},
	}
	for i := range vectors {
		vectors[i].needsGit = "send-email --dump-aliases"
	}
	testVectors(t, vectors)
}

// conflict makes branches main and side that change a.txt each their way.
func conflict(l *gitLab) {
	l.git("checkout", "-q", "-b", "side")
	l.write("a.txt", "side\n")
	l.git("commit", "-q", "-am", "side")
	l.git("checkout", "-q", "main")
	l.write("a.txt", "main\n")
	l.git("commit", "-q", "-am", "main")
}

// submoduleBehind adds a submodule lib whose checkout is behind the commit
// the superproject records, so that git submodule update has work to do.
func submoduleBehind(l *gitLab) {
	lib := filepath.Join(l.root, "lib")
	l.initRepo(lib)
	l.gitIn(lib, "", "commit", "-q", "--allow-empty", "-m", "second")
	l.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
	l.git("commit", "-q", "-m", "submodule")
	l.gitIn(filepath.Join(l.dir, "lib"), "", "checkout", "-q", "HEAD~1")
	l.config("submodule.lib.update", "!"+l.mark)
}
