package bash

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A repository in the session's folder whose configuration names a program
// that leaves a marker: the Bash tool lets git run it only once the user has
// trusted the folder, and git does its work either way.
func TestBashRunsARepositorysGitProgramsOnlyInATrustedFolder(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, tc := range []struct {
		name, command, want string
		// attributes is the repository's .gitattributes; config its
		// configuration, MARK standing for the marker program.
		attributes string
		config     []string
	}{
		{name: "status runs core.fsmonitor", command: "touch new.txt && git status --short", want: "?? new.txt",
			config: []string{"core.fsmonitor", "MARK"}},
		{name: "diff runs a textconv", command: "echo more >> b.bin && git diff", want: "+more",
			attributes: "*.bin diff=evil\n", config: []string{"diff.evil.textconv", "MARK"}},
		{name: "diff runs diff.external", command: "echo more >> b.bin && git diff", want: "more",
			config: []string{"diff.external", "MARK"}},
	} {
		for _, trusted := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/trusted=%v", tc.name, trusted), func(t *testing.T) {
				h := newHarness(t)
				h.trusted = trusted
				mark, marker := gitRepository(t, h.dir)
				if tc.attributes != "" {
					writeFile(t, filepath.Join(h.dir, ".gitattributes"), tc.attributes)
				}
				for i := 0; i+1 < len(tc.config); i += 2 {
					runGit(t, h.dir, "config", tc.config[i], strings.ReplaceAll(tc.config[i+1], "MARK", mark))
				}
				r := h.bash(tc.command)
				_, err := os.Stat(marker)
				if ran := err == nil; ran != trusted {
					t.Errorf("the repository's program ran: %v, want %v (trusted folder); output:\n%s", ran, trusted, r.text)
				}
				if !strings.Contains(r.text, tc.want) {
					t.Errorf("output lacks %q:\n%s", tc.want, r.text)
				}
			})
		}
	}
}

// gitRepository makes dir a repository with a.txt and b.bin committed, git
// isolated from the machine's configuration, and returns a program that
// creates the returned marker file and then runs cat with its arguments.
func gitRepository(t *testing.T, dir string) (mark, marker string) {
	t.Helper()
	tmp := t.TempDir()
	global := filepath.Join(tmp, "gitconfig")
	writeFile(t, global, "")
	for _, kv := range [][2]string{{"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_CONFIG_GLOBAL", global},
		{"GIT_AUTHOR_NAME", "T"}, {"GIT_AUTHOR_EMAIL", "t@example.com"}, {"GIT_COMMITTER_NAME", "T"}, {"GIT_COMMITTER_EMAIL", "t@example.com"}} {
		t.Setenv(kv[0], kv[1])
	}
	mark, marker = filepath.Join(tmp, "mark"), filepath.Join(tmp, "marker")
	writeFile(t, mark, "#!/bin/sh\ntouch '"+marker+"'\nexec cat \"$@\"\n")
	writeFile(t, filepath.Join(dir, "a.txt"), "hello\n")
	writeFile(t, filepath.Join(dir, "b.bin"), "bin\n")
	runGit(t, dir, "init", "-q")
	runGit(t, dir, "add", "a.txt", "b.bin")
	runGit(t, dir, "commit", "-q", "-m", "init")
	return mark, marker
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}

func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
