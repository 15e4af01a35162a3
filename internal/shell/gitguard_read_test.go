package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The read-only commands mini-claude runs without asking, each with a
// repository configuration that makes it run a program.

func textconvDriver(l *gitLab) {
	l.write(".gitattributes", "*.bin diff=evil\n")
	l.config("diff.evil.textconv", l.mark)
}

func cleanFilter(key string) func(l *gitLab) {
	return func(l *gitLab) {
		l.write(".gitattributes", "*.txt filter=evil\n")
		l.config("filter.evil."+key, l.mark, "filter.evil.required", "true")
	}
}

// sameSize changes a.txt without changing its size: git cannot tell the
// change from the file's stat and hashes it, through its clean filter.
const sameSize = "printf 'HELLO\\n' > a.txt"

func TestGuardStatus(t *testing.T) {
	testVectors(t, []gitVector{
		{name: "core.fsmonitor runs on status", command: "touch new.txt && git status --short", want: "?? new.txt",
			setup: func(l *gitLab) { l.config("core.fsmonitor", l.mark) }},
		{name: "the post-index-change hook runs when status refreshes the index", command: "touch new.txt a.txt && git status --short", want: "?? new.txt",
			setup: func(l *gitLab) { l.hook(".git/hooks/post-index-change") }},
		{name: "core.hooksPath names the repository's own hooks", command: "touch new.txt a.txt && git status --short", want: "?? new.txt",
			setup: func(l *gitLab) {
				l.hook("githooks/post-index-change")
				l.config("core.hooksPath", "githooks")
			}},
		{name: "a clean filter runs on status for a file changed in the same size", command: sameSize + " && git status --short", want: " M a.txt",
			setup: cleanFilter("clean")},
		{name: "a filter process runs on status for a file changed in the same size", command: sameSize + " && git status --short", want: " M a.txt",
			setup: cleanFilter("process")},
		{name: "a smudge filter runs on cat-file --filters", command: "git cat-file --filters HEAD:a.txt", want: "hello",
			setup: cleanFilter("smudge")},
		{name: "describe --dirty refreshes the index through the clean filter", command: sameSize + " && git describe --always --dirty", want: "-dirty",
			setup: cleanFilter("clean")},
	})
}

func TestGuardDiff(t *testing.T) {
	testVectors(t, []gitVector{
		{name: "diff.external runs on diff", command: "echo more >> a.txt && git diff", want: "+more",
			setup: func(l *gitLab) { l.config("diff.external", l.mark) }},
		{name: "diff.external runs on log -p --ext-diff", command: "git log -p --ext-diff -1", want: "+hello",
			setup: func(l *gitLab) { l.config("diff.external", l.mark) }},
		{name: "a diff driver's command runs on diff", command: "echo more >> b.bin && git diff", want: "+more",
			setup: func(l *gitLab) {
				l.write(".gitattributes", "*.bin diff=evil\n")
				l.config("diff.evil.command", l.mark)
			}},
		{name: "textconv runs on diff", command: "echo more >> b.bin && git diff", want: "+more", setup: textconvDriver},
		{name: "textconv runs on log -p", command: "git log -p -1 -- b.bin", want: "+bin", setup: textconvDriver},
		{name: "textconv runs on show", command: "git show HEAD -- b.bin", want: "+bin", setup: textconvDriver},
		{name: "textconv runs on blame", command: "git blame b.bin", want: ") bin", setup: textconvDriver},
		{name: "textconv runs on grep --textconv", command: "git grep --textconv bin -- b.bin", want: "b.bin:bin", setup: textconvDriver},
		{name: "textconv runs on cat-file --textconv", command: "git cat-file --textconv HEAD:b.bin", want: "bin", setup: textconvDriver},
		{name: "a textconv from .git/info/attributes", command: "echo more >> b.bin && git diff", want: "+more",
			setup: func(l *gitLab) {
				l.write(".git/info/attributes", "*.bin diff=evil\n")
				l.config("diff.evil.textconv", l.mark)
			}},
		{name: "a textconv from an included file", command: "echo more >> b.bin && git diff", want: "+more",
			setup: func(l *gitLab) {
				l.write(".gitattributes", "*.bin diff=evil\n")
				l.write("extra.cfg", "[diff \"evil\"]\n\ttextconv = "+l.mark+"\n")
				l.config("include.path", "../extra.cfg")
			}},
		{name: "a textconv from an includeIf file the command's checkout activates", command: "git checkout -q -b evil && echo more >> b.bin && git diff", want: "+more",
			setup: func(l *gitLab) {
				l.write(".gitattributes", "*.bin diff=evil\n")
				l.write(".git/evil.cfg", "[diff \"evil\"]\n\ttextconv = "+l.mark+"\n")
				l.config("includeIf.onbranch:evil.path", "evil.cfg")
			}},
		{name: "a textconv from an includeIf file", command: "echo more >> b.bin && git diff", want: "+more",
			setup: func(l *gitLab) {
				l.write(".gitattributes", "*.bin diff=evil\n")
				l.write("extra.cfg", "[diff \"evil\"]\n\ttextconv = "+l.mark+"\n")
				l.config("includeIf.gitdir:"+l.dir+"/.git.path", "../extra.cfg")
			}},
	})
}

func TestGuardSignatures(t *testing.T) {
	testVectors(t, []gitVector{
		{name: "gpg.program runs on log --show-signature", command: "git log --show-signature -1", want: "signed pgp",
			setup: func(l *gitLab) {
				l.signedCommit("PGP SIGNATURE", "signed pgp")
				l.config("gpg.program", l.mark)
			}},
		{name: "log.showSignature makes plain log run gpg.openpgp.program", command: "git log -1", want: "signed pgp",
			setup: func(l *gitLab) {
				l.signedCommit("PGP SIGNATURE", "signed pgp")
				l.config("log.showSignature", "true", "gpg.openpgp.program", l.mark)
			}},
		// A real signature: with a garbage one, ssh-keygen may exit before
		// reading what git pipes it, and git dies of SIGPIPE (git 2.39 to
		// 2.55 do not ignore it there), printing only the commit line.
		{name: "gpg.ssh.program runs on log --show-signature", command: "git log --show-signature -1", want: "signed ssh", needs: "ssh-keygen",
			setup: func(l *gitLab) {
				key := filepath.Join(l.root, "key")
				if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "lab", "-f", key).CombinedOutput(); err != nil {
					l.t.Fatalf("ssh-keygen: %v\n%s", err, out)
				}
				l.git("-c", "gpg.format=ssh", "-c", "user.signingKey="+key, "commit", "-q", "--allow-empty", "-S", "-m", "signed ssh")
				l.write("allowed", "")
				l.config("gpg.ssh.program", l.mark, "gpg.ssh.allowedSignersFile", filepath.Join(l.dir, "allowed"))
			}},
		{name: "gpg.x509.program runs on log --show-signature", command: "git log --show-signature -1", want: "signed x509",
			setup: func(l *gitLab) {
				l.signedCommit("SIGNED MESSAGE", "signed x509")
				l.config("gpg.x509.program", l.mark)
			}},
	})
}

// The pager runs only on a terminal, and NonInteractive's GIT_PAGER=cat
// already beats both keys: these commands unset it and use script(1) for a
// terminal, to prove the configuration layer on its own.
func TestGuardPager(t *testing.T) {
	const onTerminal = "unset GIT_PAGER PAGER; script -qec 'git log --oneline -1' /dev/null"
	testVectors(t, []gitVector{
		{name: "core.pager runs on log", command: onTerminal, want: "init", needs: "script",
			setup: func(l *gitLab) { l.config("core.pager", l.mark) }},
		{name: "pager.log runs on log", command: onTerminal, want: "init", needs: "script",
			setup: func(l *gitLab) { l.config("pager.log", l.mark) }},
	})
}

// git status and diff run git in submodules and nested repositories, which
// read their own configuration.
func TestGuardNestedRepositories(t *testing.T) {
	untracked := func(configure func(l *gitLab, sub string)) func(l *gitLab) {
		return func(l *gitLab) {
			sub := filepath.Join(l.dir, "sub")
			l.initRepo(sub)
			configure(l, sub)
		}
	}
	nested := func(configure func(l *gitLab, sub string)) func(l *gitLab) {
		return func(l *gitLab) {
			untracked(configure)(l)
			l.git("add", "sub")
			l.git("commit", "-q", "-m", "nested")
		}
	}
	subFilter := func(l *gitLab, sub string) {
		l.write(filepath.Join(sub, ".gitattributes"), "*.txt filter=evil\n")
		l.gitIn(sub, "", "config", "filter.evil.clean", l.mark)
	}
	absorbed := func(l *gitLab) {
		lib := filepath.Join(l.root, "lib")
		l.initRepo(lib)
		l.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
		l.git("commit", "-q", "-m", "submodule")
		libDir := filepath.Join(l.dir, "lib")
		l.write(filepath.Join(libDir, ".gitattributes"), "*.txt filter=evil\n")
		l.gitIn(libDir, "", "config", "filter.evil.clean", l.mark)
	}
	testVectors(t, []gitVector{
		{name: "status runs the clean filter of a nested repository", command: "printf 'HELLO\\n' > sub/a.txt && git status --short", want: " m sub",
			setup: nested(subFilter)},
		{name: "status runs the clean filter of a nested repository recorded in a split index", command: "printf 'HELLO\\n' > sub/a.txt && git status --short", want: " m sub",
			setup: func(l *gitLab) {
				nested(subFilter)(l)
				l.git("update-index", "--split-index")
			}},
		{name: "status runs the fsmonitor of a nested repository", command: "echo more >> sub/a.txt && git status --short", want: " m sub",
			setup: nested(func(l *gitLab, sub string) { l.gitIn(sub, "", "config", "core.fsmonitor", l.mark) })},
		{name: "diff --submodule=diff runs a nested repository's textconv", command: "echo more >> sub/b.bin && git diff --submodule=diff", want: "+more",
			setup: nested(func(l *gitLab, sub string) {
				l.write(filepath.Join(sub, ".gitattributes"), "*.bin diff=evil\n")
				l.gitIn(sub, "", "config", "diff.evil.textconv", l.mark)
			})},
		{name: "status runs the clean filter of a submodule in .git/modules", command: "printf 'HELLO\\n' > lib/a.txt && git status --short", want: " m lib",
			setup: absorbed},
		{name: "cd into a repository that is no submodule", command: "cd sub && " + sameSize + " && git status --short", want: " M a.txt",
			setup: untracked(subFilter)},
		{name: "cd through a link into another repository's subdirectory", command: "cd link && printf 'HELLO\\n' > ../a.txt && git status --short", want: " M ../a.txt",
			setup: func(l *gitLab) {
				other := filepath.Join(l.root, "other")
				l.initRepo(other)
				subFilter(l, other)
				l.write(filepath.Join(other, "dir", "x"), "")
				if err := os.Symlink(filepath.Join(other, "dir"), filepath.Join(l.dir, "link")); err != nil {
					l.t.Fatal(err)
				}
			}},
		{name: "git -C a repository that is no submodule", command: "printf 'HELLO\\n' > sub/a.txt && git -C sub status --short", want: " M a.txt",
			setup: untracked(subFilter)},
	})
}
