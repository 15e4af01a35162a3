package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// newerGit returns the folder of a git of version 2.54 or later (which runs
// hooks its configuration defines): the one on PATH, else one built at
// /tmp/gbin; "" when there is none.
func newerGit() string {
	candidates := []string{"/tmp/gbin/git"}
	if path, err := exec.LookPath("git"); err == nil {
		candidates = append([]string{path}, candidates...)
	}
	for _, git := range candidates {
		out, err := exec.Command(git, "--version").Output()
		m := regexp.MustCompile(`git version (\d+)\.(\d+)`).FindSubmatch(out)
		if err != nil || m == nil {
			continue
		}
		major, _ := strconv.Atoi(string(m[1]))
		minor, _ := strconv.Atoi(string(m[2]))
		if major > 2 || major == 2 && minor >= 54 {
			return filepath.Dir(git)
		}
	}
	return ""
}

func TestGuardConfiguredHooks(t *testing.T) {
	dir := newerGit()
	if dir == "" {
		t.Skip("this vector needs git 2.54 or later (configured hooks), on PATH or at /tmp/gbin/git; the git here is older and cannot run it")
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	testVectors(t, []gitVector{
		{name: "a hook the configuration defines runs when status refreshes the index", command: "touch new.txt a.txt && git status --short",
			want: "?? new.txt", setup: func(l *gitLab) {
				l.config("hook.pwn.event", "post-index-change", "hook.pwn.command", l.mark)
			}},
	})
}
