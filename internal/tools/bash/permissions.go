package bash

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/resultstore"
	"github.com/mini-claude/mini-claude/internal/shell"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// checkPermissions is Bash's own part of the decision, until the rule engine
// matches commands: running without the sandbox is asked; a read-only command
// whose paths all stay inside the allowed directories is allowed; a read-only
// command that reads outside them (stored results excepted), or where the
// analysis cannot tell, is asked, as Read asks; everything else is left to
// the rules and the mode.
func checkPermissions(_ context.Context, in Input, env *tool.Env) tool.PermissionResult {
	if in.DangerouslyDisableSandbox && sandboxStatus().Available() {
		return tool.PermissionResult{Behavior: tool.Ask, Subject: in.Command,
			Message: "This command asks to run without the sandbox, which otherwise lets it write only inside " +
				strings.Join(fileaccess.AllowedDirs(env), ", ") + " and the temporary directories."}
	}
	a := analysis(in)
	if a == nil || !a.ReadOnly {
		return tool.PermissionResult{Behavior: tool.Passthrough}
	}
	if outside, ok := pathOutside(env, a); !ok {
		return tool.PermissionResult{Behavior: tool.Ask, Subject: outside,
			Message: "This command reads " + outside + ", outside the allowed directories (" + strings.Join(fileaccess.AllowedDirs(env), ", ") + ")."}
	}
	return tool.PermissionResult{Behavior: tool.Allow}
}

// pathOutside checks every path the command reads or cds into against the
// allowed directories. A relative path is judged from the working directory
// and from every directory the command cds into; a path that depends on a
// variable or substitution cannot be judged. It returns the first path that
// is outside or cannot be judged, and false; or "", true.
func pathOutside(env *tool.Env, a *shell.Analysis) (string, bool) {
	if a.CwdUnknown && len(a.Reads) > 0 {
		return "a path relative to a directory known only when the command runs", false
	}
	bases := []string{env.Cwd}
	for _, cd := range a.Cds {
		dir, ok := resolve(env.Cwd, cd)
		if !ok || !fileaccess.Inside(env, dir) {
			return cd, false
		}
		bases = append(bases, dir)
	}
	for _, r := range a.Reads {
		if r.Dynamic && !staticGlob(r.Path) {
			return r.Path, false
		}
		for _, base := range bases {
			abs, ok := resolve(base, literalPrefix(r.Path))
			if !ok || !fileaccess.Inside(env, abs) && !resultstore.Owns(abs) {
				return r.Path, false
			}
		}
	}
	return "", true
}

// resolve makes path absolute against base, expanding a leading ~; "-" (cd -)
// has no known target.
func resolve(base, path string) (string, bool) {
	switch {
	case path == "-" || strings.ContainsAny(path, "$`"):
		return "", false
	case path == "~" || strings.HasPrefix(path, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", false
		}
		return filepath.Join(home, strings.TrimPrefix(path, "~")), true
	case strings.HasPrefix(path, "~"):
		return "", false
	case filepath.IsAbs(path):
		return filepath.Clean(path), true
	}
	return filepath.Join(base, path), true
}

// staticGlob reports whether a dynamic path is only a glob, whose matches stay
// below its literal directory: no expansion, no pattern that could match ".."
// or a hidden name, and no ".." after a pattern.
func staticGlob(path string) bool {
	if strings.ContainsAny(path, "$`{}()<>\"'\\") {
		return false
	}
	globbed := false
	for _, part := range strings.Split(path, "/") {
		pattern := strings.ContainsAny(part, "*?[")
		if pattern && strings.HasPrefix(part, ".") || globbed && part == ".." {
			return false
		}
		globbed = globbed || pattern
	}
	return true
}

// literalPrefix is the directory part of a glob before its first pattern
// character, or the path itself when it has none.
func literalPrefix(path string) string {
	i := strings.IndexAny(path, "*?[")
	if i < 0 {
		return path
	}
	dir := path[:i]
	if j := strings.LastIndexByte(dir, '/'); j >= 0 {
		return dir[:j+1]
	}
	return "."
}
