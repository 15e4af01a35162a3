// Package fileaccess is what the file tools share: resolving a path against the
// session, deciding whether it lies inside the allowed directories (following
// symlinks and "..", so neither can leave them unnoticed), the per-session record
// of what was read, and atomic writes.
package fileaccess

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/atomicfile"
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

// WriteAtomic replaces path with data through a temporary file in the same
// directory and a rename, so a crash leaves the old or the new content, never a
// mix. An existing file keeps its mode; a new one gets perm. Parent directories
// are created. A symlink is written through, so the link stays a link and its
// target gets the new content; a dangling link is replaced by the file. A
// device, pipe or folder is never replaced: renaming over /dev/null as root
// would break the machine.
func WriteAtomic(path string, data []byte, perm fs.FileMode) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	if info, err := os.Stat(path); err == nil {
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file (%s), so it is not replaced", path, info.Mode().Type())
		}
		perm = info.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Replace(path, data, perm)
}

// ReadAccess is the access of a call that reads path (as the model wrote it),
// for the permission rules.
func ReadAccess(env *tool.Env, path string) tool.Access {
	return tool.Access{Reads: []string{RealPath(Resolve(env, path))}}
}

// WriteAccess is the access of a call that writes path (as the model wrote it),
// for the permission rules.
func WriteAccess(env *tool.Env, path string) tool.Access {
	return tool.Access{Writes: []string{RealPath(Resolve(env, path))}}
}
