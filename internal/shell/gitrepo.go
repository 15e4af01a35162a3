package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// errNoGit says git is not installed: no command can run it.
var errNoGit = errors.New("git is not on PATH")

// gitRepo is a repository found around a directory without running git.
type gitRepo struct {
	// root is the directory holding .git (a bare repository's own
	// directory), where git is run to read it.
	root string
	// index is the index file, or "" when it cannot be told without git.
	index string
}

// findRepo looks for the repository git would use in dir, as git discovers
// it but erring towards finding one: a .git (directory or file) or a bare
// repository (HEAD and objects/) in dir or any directory above, or the
// user's GIT_DIR. ok is false when there is none: git would find none either.
func findRepo(dir string, env []string, useGitDir bool) (repo gitRepo, ok bool) {
	if gitDir, set := lookup(env, "GIT_DIR"); set && useGitDir {
		return gitRepo{root: dir}, dirExists(dir) && gitDir != ""
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		dotGit := filepath.Join(d, ".git")
		if info, err := os.Stat(dotGit); err == nil {
			repo = gitRepo{root: d}
			if info.IsDir() {
				repo.index = filepath.Join(dotGit, "index")
			} else if target, ok := gitFileTarget(dotGit); ok {
				repo.index = filepath.Join(target, "index")
			}
			return repo.withIndexFrom(env), true
		}
		if fileExists(filepath.Join(d, "HEAD")) && dirExists(filepath.Join(d, "objects")) {
			return gitRepo{root: d, index: filepath.Join(d, "index")}.withIndexFrom(env), true
		}
		if filepath.Dir(d) == d {
			return gitRepo{}, false
		}
	}
}

// withIndexFrom forgets the index when GIT_INDEX_FILE names another one.
func (r gitRepo) withIndexFrom(env []string) gitRepo {
	if _, set := lookup(env, "GIT_INDEX_FILE"); set {
		r.index = ""
	}
	return r
}

// gitFileTarget reads a .git file ("gitdir: <path>", left by worktrees and
// submodules) and returns the directory it names.
func gitFileTarget(file string) (string, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", false
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", false
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(file), target)
	}
	return target, true
}

func fileExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && !info.IsDir()
}

func dirExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// listingGuard is the configuration git runs with when mini-claude itself
// reads a repository. git config runs no program, but git ls-files reads
// the index, which starts core.fsmonitor.
var listingGuard = gitGuard{config: [][2]string{
	{"core.fsmonitor", "false"}, {"core.hookspath", "/dev/null"}, {"protocol.ext.allow", "never"},
}}

// maxConfigListing bounds the configuration read from one repository.
const maxConfigListing = 16 << 20

// listConfig reads every configuration entry git sees in dir, or with
// where = "--file", path those of one file as git reads it in dir; includes
// followed, each entry with its scope and origin. It runs no program but
// git itself: git config reads files only (include.path and includeIf,
// whose conditions gitdir, onbranch and hasconfig are matched against files
// and names), pages nothing (--no-pager, and its output is a pipe), starts
// no hook, and cannot be an alias (git runs its own command of that name
// first).
func listConfig(ctx context.Context, dir string, env []string, where ...string) ([]configEntry, error) {
	var out bytes.Buffer
	w := &limitWriter{w: &out, left: maxConfigListing}
	args := append(append([]string{"--no-pager", "config"}, where...), "--list", "--show-scope", "--show-origin", "--includes", "-z")
	if err := runGit(ctx, dir, env, w, args...); err != nil {
		return nil, fmt.Errorf("read the git configuration in %s: %w", dir, err)
	}
	entries, err := parseConfigList(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("read the git configuration in %s: %w", dir, err)
	}
	return entries, nil
}

// maxIncludeFiles bounds the files includeIf directives make read for one
// repository.
const maxIncludeFiles = 64

// withConditionalIncludes adds to a repository's entries those of every file
// its includeIf directives name, whatever the condition: the command may
// change the branch (onbranch) or the remotes (hasconfig) before git reads
// the configuration again. Unconditional includes are in the listing
// already; a file that does not exist is skipped, as git skips it.
func withConditionalIncludes(ctx context.Context, root string, entries []configEntry, env []string) ([]configEntry, error) {
	read := map[string]bool{}
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		section, _, hasSub, variable := splitKey(e.key)
		if e.fromUser() || section != "includeif" || !hasSub || variable != "path" {
			continue
		}
		file, ok := includedFile(root, e.origin, e.value, env)
		if !ok || read[file] || !fileExists(file) {
			continue
		}
		if read[file] = true; len(read) > maxIncludeFiles {
			return nil, fmt.Errorf("the git configuration in %s includes more than %d files conditionally", root, maxIncludeFiles)
		}
		more, err := listConfig(ctx, root, env, "--file", file)
		if err != nil {
			return nil, err
		}
		for j := range more {
			more[j].scope = "local"
		}
		entries = append(entries, more...)
	}
	return entries, nil
}

// includedFile resolves the path of an include directive as git does:
// "~/" is the home directory, a relative path is relative to the file the
// directive is in (origin "file:<path>", itself relative to root). ok is
// false for git's own %(prefix)/ and directives outside a file.
func includedFile(root, origin, path string, env []string) (string, bool) {
	from, isFile := strings.CutPrefix(origin, "file:")
	switch {
	case !isFile || strings.HasPrefix(path, "%(prefix)/"):
		return "", false
	case strings.HasPrefix(path, "~/"):
		home, ok := lookup(env, "HOME")
		return filepath.Join(home, path[2:]), ok && home != ""
	case filepath.IsAbs(path):
		return path, true
	}
	if !filepath.IsAbs(from) {
		from = filepath.Join(root, from)
	}
	return filepath.Join(filepath.Dir(from), path), true
}

// gitlinkMode is the index's 32-bit big-endian mode of a gitlink (0160000),
// the entry of a submodule or of a repository nested in the working tree.
var gitlinkMode = []byte{0, 0, 0xe0, 0}

// mayHaveGitlinks reports whether an index file can hold a gitlink, without
// running git: false only when the file is missing or read in full without
// the gitlink mode's bytes or a split index's "link" extension anywhere.
func mayHaveGitlinks(index string) bool {
	if index == "" {
		return true
	}
	f, err := os.Open(index)
	if err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	defer f.Close()
	// The first bytes of buf hold the end of the previous read, so that a
	// pattern across two reads is seen.
	buf := make([]byte, 3+256<<10)
	kept := 0
	for {
		n, err := f.Read(buf[kept:])
		data := buf[:kept+n]
		if bytes.Contains(data, gitlinkMode) || bytes.Contains(data, []byte("link")) {
			return true
		}
		kept = copy(buf, data[max(0, len(data)-3):])
		if err == io.EOF {
			return false
		}
		if err != nil {
			return true
		}
	}
}

// nestedRepos returns the working directories of the submodules and nested
// repositories of the repository at root that git may run in: gitlinks of
// the index whose directory has a .git. git status and diff --submodule=diff
// run git there, with that repository's own configuration.
func nestedRepos(ctx context.Context, repo gitRepo, env []string) []string {
	if !mayHaveGitlinks(repo.index) {
		return nil
	}
	links := &gitlinks{}
	if err := runGit(ctx, repo.root, env, links, "ls-files", "--stage", "-z", "--", ":/"); err != nil {
		// No working tree (a bare repository), or an index git cannot read:
		// git runs nothing in submodules there either.
		return nil
	}
	var dirs []string
	for _, file := range links.paths {
		sub := filepath.Join(repo.root, file)
		if _, err := os.Lstat(filepath.Join(sub, ".git")); err == nil {
			dirs = append(dirs, sub)
		}
	}
	return dirs
}

// gitlinks collects the paths of the gitlinks in the output of
// `git ls-files --stage -z` as it streams: "<mode> <object> <stage>\t<path>",
// NUL-terminated; only the record being read is held.
type gitlinks struct {
	partial []byte
	paths   []string
}

func (g *gitlinks) Write(p []byte) (int, error) {
	n := len(p)
	for {
		end := bytes.IndexByte(p, 0)
		if end < 0 {
			g.partial = append(g.partial, p...)
			return n, nil
		}
		record := append(g.partial, p[:end]...)
		if meta, file, ok := bytes.Cut(record, []byte("\t")); ok && bytes.HasPrefix(meta, []byte("160000 ")) {
			g.paths = append(g.paths, string(file))
		}
		g.partial, p = g.partial[:0], p[end+1:]
	}
}

// runGit runs git with args in dir, its output to stdout, with env made
// non-interactive and the listing guard applied.
func runGit(ctx context.Context, dir string, env []string, stdout io.Writer, args ...string) error {
	git, err := exec.LookPath("git")
	if err != nil {
		return errNoGit
	}
	guarded, err := listingGuard.apply(Environment(env))
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, git, args...)
	cmd.Dir, cmd.Env, cmd.Stdout = dir, guarded, stdout
	cmd.Stderr = &limitWriter{w: &stderr, left: 4096, quiet: true}
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		return fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

// limitWriter passes on at most left bytes, then fails, or when quiet
// drops the rest.
type limitWriter struct {
	w     io.Writer
	left  int
	quiet bool
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if len(p) > l.left {
		if !l.quiet {
			return 0, errors.New("output too large")
		}
		_, err := l.w.Write(p[:l.left])
		l.left = 0
		return len(p), err
	}
	l.left -= len(p)
	return l.w.Write(p)
}
