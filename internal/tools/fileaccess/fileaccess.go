// Package fileaccess is what the file tools share: the per-session record of
// what was read, atomic writes, line endings and trailing whitespace, and the
// access of a call for the permission rules (paths resolve with package workspace).
package fileaccess

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mini-claude/mini-claude/internal/atomicfile"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

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
	return tool.Access{Reads: []string{workspace.RealPath(workspace.Resolve(env, path))}}
}

// WriteAccess is the access of a call that writes path (as the model wrote it),
// for the permission rules.
func WriteAccess(env *tool.Env, path string) tool.Access {
	return tool.Access{Writes: []string{workspace.RealPath(workspace.Resolve(env, path))}}
}
