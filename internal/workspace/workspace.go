// Package workspace resolves the paths a session names: against its working
// directory, and whether they lie inside the directories it may use without
// asking, following symlinks and ".." so neither can leave them unnoticed.
package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Resolve returns the absolute, cleaned form of path: relative paths resolve
// against the session's working directory, and a leading ~/ against the home directory.
func Resolve(env *tool.Env, path string) string {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.Cwd, path)
	}
	return filepath.Clean(path)
}

// AllowedDirs returns the directories the session may use without asking: the
// directory the session started in (Bash's cd moves Cwd, not this) and the
// --add-dir directories.
func AllowedDirs(env *tool.Env) []string {
	root := env.Cwd
	if env.Session != nil {
		root = env.Session.OriginalCwd()
	}
	return append([]string{root}, env.AdditionalDirs...)
}

// Inside reports whether the absolute path lies within one of the allowed
// directories once symlinks are followed, both in the path and in the directories.
// A path that does not exist yet is judged by its nearest existing ancestor.
func Inside(env *tool.Env, abs string) bool {
	real := RealPath(abs)
	for _, dir := range AllowedDirs(env) {
		if within(RealPath(dir), real) {
			return true
		}
	}
	return false
}

func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// RealPath resolves abs the way the kernel does: component by component,
// following every symlink (a dangling one too) before a later ".." applies, so
// "link/.." is the directory above the link's target. The part that does not
// exist yet is appended as written.
func RealPath(abs string) string {
	return realPath(abs, 0)
}

// maxLinkHops bounds symlink chains, as the kernel's ELOOP does.
const maxLinkHops = 40

func realPath(abs string, hops int) string {
	parts := strings.Split(abs, string(filepath.Separator))
	cur := string(filepath.Separator)
	for i, part := range parts {
		switch part {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, part)
		info, err := os.Lstat(next)
		if err != nil {
			return filepath.Join(append([]string{next}, parts[i+1:]...)...)
		}
		if info.Mode()&fs.ModeSymlink == 0 || hops >= maxLinkHops {
			cur = next
			continue
		}
		target, err := os.Readlink(next)
		if err != nil {
			cur = next
			continue
		}
		if !filepath.IsAbs(target) {
			target = cur + string(filepath.Separator) + target
		}
		cur = realPath(target, hops+1)
	}
	return cur
}
