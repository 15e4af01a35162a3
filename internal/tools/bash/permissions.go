package bash

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/resultstore"
	"github.com/mini-claude/mini-claude/internal/shell"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// checkPermissions is Bash's own part of the decision: an empty command runs
// nothing and needs no permission; running without the sandbox is asked.
// Everything the command line touches is reported by accesses and judged by
// the permission rules.
func checkPermissions(_ context.Context, in Input, env *tool.Env) tool.PermissionResult {
	if strings.TrimSpace(in.Command) == "" {
		// It runs nothing; a deny rule on Bash still wins.
		return tool.PermissionResult{Behavior: tool.Allow}
	}
	if in.DangerouslyDisableSandbox && sandboxStatus().Available() {
		return tool.PermissionResult{Behavior: tool.Ask, Subject: in.Command,
			Message: "This command asks to run without the sandbox, which otherwise lets it write only inside " +
				strings.Join(workspace.AllowedDirs(env), ", ") + " and the temporary directories."}
	}
	return tool.PermissionResult{Behavior: tool.Passthrough}
}

// accesses lists what the command line touches, for the permission rules:
// every simple command (in substitutions, subshells, wrappers and bash -c
// strings too), the files read by read-only commands and input redirections,
// and the files written by redirections and writing commands. Relative paths
// are resolved from the working directory and from every directory the line
// cds into; a glob is expanded there as bash will expand it (see expander).
// A part that cannot be known before the line runs (a path from a variable, a
// glob whose matches cannot all be found, a path after a cd to an unknown
// place, a PATH= assignment) becomes a dynamic command: no allow rule covers
// it, and any Bash deny rule does; the paths such a glob was found to match
// are still judged, so a deny rule on one of them denies.
// The session's stored results are left out: reading them needs no rule.
func accesses(ctx context.Context, in Input, env *tool.Env) tool.Access {
	a := analysis(in)
	if a == nil {
		return tool.Access{}
	}
	var acc tool.Access
	for _, c := range a.Commands {
		acc.Commands = append(acc.Commands, tool.ShellCommand{Args: c.Args, Text: c.Source, ReadOnly: c.ReadOnly,
			Dynamic: c.Dynamic, Plain: c.Plain, Destructive: destructive(c)})
	}
	for _, h := range a.Hazards {
		acc.Commands = append(acc.Commands, unknownPart(h.Source+" ("+h.Reason+")"))
	}
	bases, known := cdBases(env, a)
	if !known {
		acc.Commands = append(acc.Commands, unknownPart("a cd to a directory known only when the command runs"))
	}
	if !env.FolderTrusted && shell.GitDirUnknown(a, os.Environ()) {
		acc.Commands = append(acc.Commands, unknownPart("git in a directory known only when the command runs, whose repository's configuration cannot be checked before it runs in a folder not trusted"))
	}
	if !env.FolderTrusted {
		if keys := shell.UnknownGitKeys(ctx, a, env.Cwd, os.Environ()); len(keys) > 0 {
			acc.Commands = append(acc.Commands, unknownPart(unknownKeysPart(keys)))
		}
	}
	x := &expander{bases: bases, unsure: a.GlobOptions}
	for _, r := range a.Reads {
		paths, ok := x.paths(pathWord{r.Path, r.Dynamic, r.Globs})
		if !ok {
			acc.Commands = append(acc.Commands, unknownPart("reading "+r.Path))
		}
		for _, p := range paths {
			if !resultstore.Owns(p) {
				acc.Reads = append(acc.Reads, workspace.RealPath(p))
			}
		}
	}
	protected, unscanned := protectedOperands(env, a, x)
	acc.Reads = append(acc.Reads, protected...)
	for _, root := range unscanned {
		acc.Commands = append(acc.Commands, unknownPart("searching "+root+" (too large to check for protected files before it runs)"))
	}
	for _, w := range a.Writes {
		paths, ok := x.paths(pathWord{w.Path, w.Dynamic, w.Globs})
		if !ok {
			acc.Commands = append(acc.Commands, unknownPart(strings.TrimSpace(w.Op+" "+w.Path)+" (a write whose target is known only when the command runs)"))
		}
		for _, p := range paths {
			acc.Writes = append(acc.Writes, workspace.RealPath(p))
		}
	}
	return acc
}

// maxNamedKeys bounds the git keys an approval question names.
const maxNamedKeys = 3

// unknownKeysPart describes git run with repository keys the git guard does
// not know, naming the first few.
func unknownKeysPart(keys []string) string {
	named := strings.Join(keys[:min(len(keys), maxNamedKeys)], ", ")
	if more := len(keys) - maxNamedKeys; more > 0 {
		named += fmt.Sprintf(" and %d more", more)
	}
	return "git with the repository's configuration of " + named + ", keys whose effect the git guard of a folder not trusted does not know"
}

// unknownPart is a part of a command line that cannot be judged before it runs.
func unknownPart(text string) tool.ShellCommand {
	return tool.ShellCommand{Text: text, Dynamic: true}
}

// cdBases returns the directories relative paths may be relative to: the
// working directory and every cd target; known is false when a cd target
// cannot be resolved (cd "$dir", cd -, popd).
func cdBases(env *tool.Env, a *shell.Analysis) ([]string, bool) {
	bases := []string{env.Cwd}
	known := !a.CwdUnknown
	for _, cd := range a.Cds {
		dir, ok := resolve(env.Cwd, cd)
		if !ok {
			known = false
			continue
		}
		bases = append(bases, dir)
	}
	return bases, known
}

// resolveAll resolves a static path from every base.
func resolveAll(bases []string, path string) ([]string, bool) {
	var paths []string
	for _, base := range bases {
		abs, ok := resolve(base, path)
		if !ok {
			return nil, false
		}
		paths = append(paths, abs)
		if filepath.IsAbs(path) || strings.HasPrefix(path, "~") {
			break
		}
	}
	return paths, true
}

// destructive marks what is confirmed even when edits are accepted: recursive
// deletes, force pushes, hard resets and forced cleans.
func destructive(c shell.Command) bool {
	switch {
	case c.Program() == "rm":
		return hasFlag(c.Args[1:], 'r', 'R', "--recursive")
	case c.Program() == "find":
		return slices.Contains(c.Args, "-delete")
	case strings.HasPrefix(c.Prefix, "git push"):
		return hasFlag(c.Args[1:], 'f', 'f', "--force", "--force-with-lease", "--force-if-includes") ||
			slices.ContainsFunc(c.Args[2:], func(a string) bool { return strings.HasPrefix(a, "+") })
	case strings.HasPrefix(c.Prefix, "git reset"):
		return slices.Contains(c.Args, "--hard")
	case strings.HasPrefix(c.Prefix, "git clean"):
		return hasFlag(c.Args[1:], 'f', 'f', "--force")
	}
	return false
}

// hasFlag reports whether args hold one of the long flags (or a prefix of them
// with a value) or a short-flag cluster with one of the two letters.
func hasFlag(args []string, short1, short2 rune, long ...string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		for _, l := range long {
			if a == l || strings.HasPrefix(a, l+"=") {
				return true
			}
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], string([]rune{short1, short2})) {
			return true
		}
	}
	return false
}

// resolve makes path absolute against base, expanding a leading ~; "-" (cd -)
// has no known target. It does not clean the path: the shell resolves
// "link/.." physically, and so does workspace.RealPath after it.
func resolve(base, path string) (string, bool) {
	switch {
	case path == "-" || strings.ContainsAny(path, "$`"):
		return "", false
	case path == "~" || strings.HasPrefix(path, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", false
		}
		return home + strings.TrimPrefix(path, "~"), true
	case strings.HasPrefix(path, "~"):
		return "", false
	case filepath.IsAbs(path):
		return path, true
	}
	return base + string(filepath.Separator) + path, true
}

// protectedOperands returns the files the rules forbid reading that the line
// names anywhere, not only as operands of read-only commands (less .env,
// cp .env x, python leak.py --in=.env), and the protected files inside the
// trees that recursive content searches read (grep -r x ., rg x), so that no
// command can show what the Read tool may not. Unscanned lists the searched
// trees too large to check.
func protectedOperands(env *tool.Env, a *shell.Analysis, x *expander) (found, unscanned []string) {
	if env.ReadDenied == nil {
		return nil, nil
	}
	for _, c := range a.Commands {
		for i := 1; i < len(c.Args); i++ {
			found = append(found, deniedPaths(env, x, operand(c, i))...)
		}
	}
	for _, r := range a.Reads {
		p := pathWord{r.Path, r.Dynamic, r.Globs}
		found = append(found, deniedPaths(env, x, p)...)
		if r.Recursive && contentSearch(r.Op) {
			roots, _ := x.paths(p)
			for _, root := range roots {
				denied, complete := firstDeniedBelow(env, workspace.RealPath(root))
				if denied != "" {
					found = append(found, denied)
				}
				if !complete {
					unscanned = append(unscanned, root)
				}
			}
		}
	}
	return found, unscanned
}

// operand is the path a command's argument may name: a glob word with its
// patterns, the value of an --option=value, or the word itself.
func operand(c shell.Command, i int) pathWord {
	if c.Globs != nil && c.Globs[i] != nil {
		return pathWord{c.Args[i], true, c.Globs[i]}
	}
	arg := c.Args[i]
	if _, value, ok := strings.Cut(arg, "="); ok && strings.HasPrefix(arg, "-") {
		arg = value
	}
	if strings.HasPrefix(arg, "-") {
		return pathWord{}
	}
	return pathWord{text: arg}
}

// deniedPaths returns the real paths p names that exist and the rules forbid
// reading.
func deniedPaths(env *tool.Env, x *expander, p pathWord) []string {
	paths, _ := x.paths(p)
	var denied []string
	for _, path := range paths {
		// What does not exist cannot be read; most operands (patterns,
		// numbers, names) are not files at all, and are passed over cheaply.
		if _, err := os.Lstat(path); err != nil {
			continue
		}
		if real := workspace.RealPath(path); env.ReadDenied(real) {
			denied = append(denied, real)
		}
	}
	return denied
}

// contentSearch reports whether a recursive read prints the content of the
// files it walks (grep -r, rg), rather than only their names or sizes.
func contentSearch(op string) bool {
	program, _, _ := strings.Cut(op, " ")
	switch filepath.Base(program) {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "git":
		return true
	}
	return false
}

// maxProtectedScan bounds the walk for protected files under a searched tree.
const maxProtectedScan = 50000

// firstDeniedBelow returns a file under root that the rules forbid reading,
// or "" when there is none; complete is false when the tree was too large to
// walk to the end.
func firstDeniedBelow(env *tool.Env, root string) (found string, complete bool) {
	info, err := os.Stat(root)
	if err != nil || !info.IsDir() {
		return "", true
	}
	seen := 0
	complete = true
	_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		seen++
		switch {
		case err != nil:
			return nil
		case seen > maxProtectedScan:
			complete = false
			return filepath.SkipAll
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case env.ReadDenied(workspace.RealPath(path)):
			found = path
			return filepath.SkipAll
		}
		return nil
	})
	return found, complete
}
