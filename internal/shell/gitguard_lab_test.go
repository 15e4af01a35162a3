package shell

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitLab is a repository in a temporary folder, with git isolated from the
// machine's configuration (no system file, a global file of its own) and a
// program that leaves a marker file when a repository's configuration makes
// git run it.
type gitLab struct {
	t    testing.TB
	root string
	// dir is the repository's working tree: a.txt ("hello") and b.bin
	// ("bin") committed as "init".
	dir string
	// mark is the program: it creates marker, then runs cat with its
	// arguments, so it also serves as a filter or textconv.
	mark, marker string
	// global is the user's own git configuration file.
	global string
	env    []string
}

func newGitLab(t testing.TB) *gitLab {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	l := &gitLab{t: t, root: root, dir: filepath.Join(root, "repo"), marker: filepath.Join(root, "marker"),
		mark: filepath.Join(root, "mark"), global: filepath.Join(home, ".gitconfig")}
	l.env = append(withoutGitVars(os.Environ()), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+l.global, "GNUPGHOME="+filepath.Join(home, ".gnupg"),
		"GIT_AUTHOR_NAME=Lab", "GIT_AUTHOR_EMAIL=lab@example.com", "GIT_COMMITTER_NAME=Lab", "GIT_COMMITTER_EMAIL=lab@example.com")
	l.write(l.mark, "#!/bin/sh\ntouch '"+l.marker+"'\nexec cat \"$@\"\n")
	if err := os.Chmod(l.mark, 0o755); err != nil {
		t.Fatal(err)
	}
	l.write(l.global, "")
	l.initRepo(l.dir)
	return l
}

// withoutGitVars drops the machine's GIT_* variables, which would change
// what the lab's git reads.
func withoutGitVars(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GIT_") {
			out = append(out, kv)
		}
	}
	return out
}

// initRepo makes dir a repository with a.txt and b.bin committed as "init".
func (l *gitLab) initRepo(dir string) {
	l.t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		l.t.Fatal(err)
	}
	l.gitIn(dir, "", "init", "-q", "-b", "main")
	l.write(filepath.Join(dir, "a.txt"), "hello\n")
	l.write(filepath.Join(dir, "b.bin"), "bin\n")
	l.gitIn(dir, "", "add", "a.txt", "b.bin")
	l.gitIn(dir, "", "commit", "-q", "-m", "init")
}

// git runs git in the repository for the test's setup.
func (l *gitLab) git(args ...string) string {
	l.t.Helper()
	return l.gitIn(l.dir, "", args...)
}

// gitIn runs git in dir with input on stdin; a failure ends the test.
func (l *gitLab) gitIn(dir, input string, args ...string) string {
	l.t.Helper()
	out, err := l.runGit(dir, input, args...)
	if err != nil {
		l.t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return out
}

// tryGit runs git in the repository and reports its output and failure.
func (l *gitLab) tryGit(args ...string) (string, error) {
	return l.runGit(l.dir, "", args...)
}

// runGit runs git in dir with input on stdin, its output and errors together.
func (l *gitLab) runGit(dir, input string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, Environment(l.env), strings.NewReader(input)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// config sets key, value pairs in the repository's own configuration.
func (l *gitLab) config(pairs ...string) {
	l.t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		l.git("config", pairs[i], pairs[i+1])
	}
}

// write creates a file, relative paths inside the repository.
func (l *gitLab) write(name, content string) {
	l.t.Helper()
	if !filepath.IsAbs(name) {
		name = filepath.Join(l.dir, name)
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		l.t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o755); err != nil {
		l.t.Fatal(err)
	}
}

// touch is a shell command that creates the marker, for keys whose program
// talks to git on its standard input and output, where cat would wait.
func (l *gitLab) touch() string { return "touch '" + l.marker + "'" }

// hook writes a hook at name (relative to the repository) that creates
// the marker.
func (l *gitLab) hook(name string) {
	l.t.Helper()
	l.write(name, "#!/bin/sh\ntouch '"+l.marker+"'\n")
}

// signedCommit commits on top of HEAD with a signature header of the given
// armor ("PGP SIGNATURE", "SSH SIGNATURE", "SIGNED MESSAGE"); the signature
// is garbage, but git runs the verifying program on it.
func (l *gitLab) signedCommit(armor, subject string) {
	l.t.Helper()
	head := l.git("cat-file", "commit", "HEAD")
	header, _, _ := strings.Cut(head, "\n\n")
	tree, _, _ := strings.Cut(header, "\n")
	ident := "Lab <lab@example.com> 1700000000 +0000"
	raw := tree + "\nparent " + strings.TrimSpace(l.git("rev-parse", "HEAD")) + "\nauthor " + ident + "\ncommitter " + ident +
		"\ngpgsig -----BEGIN " + armor + "-----\n \n iQ==\n -----END " + armor + "-----\n\n" + subject + "\n"
	id := strings.TrimSpace(l.gitIn(l.dir, raw, "hash-object", "-t", "commit", "-w", "--stdin"))
	l.git("update-ref", "HEAD", id)
}

// run runs command in the repository through Start, guarded as in a folder
// the user has not trusted or not, and reports its output and whether the
// marker program ran.
func (l *gitLab) run(command string, guarded bool) (string, bool) {
	l.t.Helper()
	if err := os.Remove(l.marker); err != nil && !os.IsNotExist(err) {
		l.t.Fatal(err)
	}
	env := l.env
	if guarded {
		var err error
		if env, err = UntrustedGitEnv(context.Background(), command, l.dir, l.env); err != nil {
			l.t.Fatalf("UntrustedGitEnv(%q): %v", command, err)
		}
	}
	_, out := run(l.t, Spec{Command: command, Dir: l.dir, Env: env})
	_, err := os.Stat(l.marker)
	return out, err == nil
}

// gitVector is one way a repository's configuration makes git run a program.
type gitVector struct {
	name  string
	setup func(l *gitLab)
	// command triggers the program in a repository the user trusts.
	command string
	// want is in the output of the guarded command: git still did its work,
	// or says why it refused.
	want string
	// needs names a program the vector needs beyond git and sh.
	needs string
	// needsGit is a git command line, run in a fresh lab, that succeeds
	// where git has the command the vector uses: instaweb and send-email
	// are scripts that some builds leave out.
	needsGit string
}

// testVectors proves each vector in two fresh labs: without the guard the
// marker appears (so the test is not vacuous); with it the marker does not
// appear and the output has what the vector wants.
func testVectors(t *testing.T, vectors []gitVector) {
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			if v.needs != "" {
				if _, err := exec.LookPath(v.needs); err != nil {
					t.Skipf("%s is not installed", v.needs)
				}
			}
			control := newGitLab(t)
			if v.needsGit != "" {
				if out, err := control.tryGit(strings.Fields(v.needsGit)...); err != nil {
					t.Skipf("this git cannot run git %s (%v): %s", v.needsGit, err, out)
				}
			}
			v.setup(control)
			if out, ran := control.run(v.command, false); !ran {
				t.Fatalf("control: %q did not run the repository's program, so the test proves nothing; output:\n%s", v.command, out)
			}
			guarded := newGitLab(t)
			v.setup(guarded)
			out, ran := guarded.run(v.command, true)
			if ran {
				t.Errorf("guarded: %q ran the repository's program; output:\n%s", v.command, out)
			}
			if !strings.Contains(out, v.want) {
				t.Errorf("guarded: %q output lacks %q:\n%s", v.command, v.want, out)
			}
		})
	}
}
