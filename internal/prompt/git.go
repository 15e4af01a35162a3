package prompt

import (
	"path/filepath"
	"strings"
)

// repo is the git repository around a directory, found by reading files only:
// start-up cannot afford to run git.
type repo struct {
	root   string // directory holding .git
	branch string // checked-out branch; "" when HEAD is detached
	commit string // abbreviated commit of a detached HEAD
}

// headLimit bounds what is read of .git files and HEAD, which hold one short line.
const headLimit = 4 << 10

// findGit walks up from dir to the nearest directory with a usable .git and
// reports its HEAD. Like git, it skips a .git that does not lead to a HEAD.
func findGit(dir string) (repo, bool) {
	for {
		if r, ok := readRepo(dir); ok {
			return r, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return repo{}, false
		}
		dir = parent
	}
}

// readRepo reads dir/.git: a directory, or a file "gitdir: <path>" as left by
// worktrees and submodules, then the HEAD it points to.
func readRepo(dir string) (repo, bool) {
	dotGit := filepath.Join(dir, ".git")
	gitDir := dotGit
	if data, err := readRegular(dotGit, headLimit); err == nil {
		target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
		if !ok {
			return repo{}, false
		}
		gitDir = strings.TrimSpace(target)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(dir, gitDir)
		}
	}
	data, err := readRegular(filepath.Join(gitDir, "HEAD"), headLimit)
	if err != nil {
		return repo{}, false
	}
	head := strings.TrimSpace(string(data))
	if ref, ok := strings.CutPrefix(head, "ref:"); ok {
		return repo{root: dir, branch: strings.TrimPrefix(strings.TrimSpace(ref), "refs/heads/")}, true
	}
	if !isHex(head) || len(head) < 7 {
		return repo{}, false
	}
	return repo{root: dir, commit: head[:7]}, true
}

// isHex reports whether s is made of lowercase hexadecimal digits only.
func isHex(s string) bool {
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
