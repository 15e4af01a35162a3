package shell

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// gitSpec judges a git command: global options that change which
// configuration or repository git uses make it not read-only (git -c
// core.fsmonitor=… runs a program); the subcommand decides the rest.
func gitSpec(a argv) effect {
	i := 1
	var dirs []word
	for i < len(a) {
		t := a[i].text
		if a[i].dynamic {
			return effect{}
		}
		if t == "-C" {
			if i+1 < len(a) {
				dirs = append(dirs, a[i+1])
			}
			i += 2
			continue
		}
		if t == "-c" || strings.HasPrefix(t, "-c") && len(t) > 2 ||
			strings.HasPrefix(t, "--exec-path=") || strings.HasPrefix(t, "--config-env") ||
			strings.HasPrefix(t, "--git-dir") || strings.HasPrefix(t, "--work-tree") ||
			strings.HasPrefix(t, "--namespace") || strings.HasPrefix(t, "--super-prefix") {
			return effect{}
		}
		if !strings.HasPrefix(t, "-") {
			break
		}
		i++
	}
	if i >= len(a) {
		return effect{readOnly: true}
	}
	check, ok := gitSubcommands()[a[i].text]
	if !ok {
		return effect{}
	}
	eff := check(a[i:])
	eff.reads = inDirs(dirs, eff.reads)
	eff.writes = inDirs(dirs, eff.writes)
	return eff
}

// inDirs resolves the relative paths git names against its -C directories,
// each relative to the one before.
func inDirs(dirs, paths []word) []word {
	if len(dirs) == 0 {
		return paths
	}
	out := make([]word, len(paths))
	for i, p := range paths {
		out[i] = p
		out[i].globs = slices.Clone(p.globs)
		for j := len(dirs) - 1; j >= 0 && !path.IsAbs(out[i].text) && !strings.HasPrefix(out[i].text, "~"); j-- {
			out[i].text = path.Join(dirs[j].text, out[i].text)
			out[i].dynamic = out[i].dynamic || dirs[j].dynamic
			out[i].globs = globsIn(dirs[j], out[i].globs)
		}
	}
	return out
}

// globsIn makes patterns relative to the directory dir; a dynamic dir
// leaves them unknown.
func globsIn(dir word, patterns []string) []string {
	if dir.dynamic {
		return nil
	}
	for k, p := range patterns {
		if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
			patterns[k] = quoteGlob(dir.text) + "/" + p
		}
	}
	return patterns
}

// gitSubcommands are the git subcommands the analysis knows, built on first use.
var gitSubcommands = sync.OnceValue(func() map[string]func(argv) effect {
	subcommands := map[string]func(argv) effect{
		"branch": gitBranch, "tag": gitTag, "remote": gitRemote, "config": gitConfig,
		"stash":    gitOnly("list", "show"),
		"worktree": gitOnly("list"),
		"reflog":   gitReflog,
	}
	for _, sub := range []string{
		"status", "log", "diff", "show", "rev-parse", "ls-files", "ls-tree", "blame",
		"annotate", "describe", "shortlog", "rev-list", "cat-file", "show-ref", "merge-base",
		"name-rev", "for-each-ref", "count-objects", "check-ignore", "whatchanged",
		"diff-tree", "diff-files", "diff-index", "cherry", "range-diff", "version", "grep",
	} {
		subcommands[sub] = gitInspect
	}
	return subcommands
})

// gitInspect covers the subcommands that only show history and state.
// --output writes a file; git grep -O opens a pager program. Files named as
// REV:path or after "--" are reads: their contents are shown.
func gitInspect(a argv) effect {
	if out := a.values(0, "--output"); len(out) > 0 {
		return effect{writes: out}
	}
	if a[0].text == "grep" && a.has("O", "--open-files-in-pager") {
		return effect{}
	}
	var reads []word
	afterDashes := false
	for _, w := range a[1:] {
		switch {
		case w.text == "--" && !w.dynamic:
			afterDashes = true
		case afterDashes:
			reads = append(reads, w)
		case !strings.HasPrefix(w.text, "-") && strings.Contains(w.text, ":"):
			_, file, _ := strings.Cut(w.text, ":")
			if file != "" {
				reads = append(reads, word{text: file, dynamic: w.dynamic, span: w.span})
			}
		}
	}
	isGrep := a[0].text == "grep"
	if isGrep && !afterDashes {
		reads = append(reads, word{text: "."})
	}
	return effect{readOnly: true, reads: reads, recursive: isGrep}
}

// gitBranch is read-only when it lists: no option that creates, deletes,
// moves or configures a branch, and operands only as patterns of --list.
func gitBranch(a argv) effect {
	if a.has("dDmMcCfu", "--delete", "--move", "--copy", "--force", "--set-upstream-to",
		"--unset-upstream", "--edit-description", "--track", "--no-track", "--create-reflog", "--set-upstream") {
		return effect{}
	}
	ops := a.operands(opts{long: []string{"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format", "--column"}})
	if len(ops) > 0 && !a.has("l", "--list") {
		return effect{}
	}
	return effect{readOnly: true}
}

// gitTag is read-only when it lists.
func gitTag(a argv) effect {
	if a.has("adfsmFue", "--annotate", "--delete", "--force", "--sign", "--message", "--file", "--local-user", "--edit") {
		return effect{}
	}
	ops := a.operands(opts{short: "n", long: []string{"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format", "--column"}})
	if len(ops) > 0 && !a.has("lv", "--list", "--verify") {
		return effect{}
	}
	return effect{readOnly: true}
}

func gitRemote(a argv) effect {
	ops := a.operands(opts{})
	if len(ops) == 0 || ops[0].text == "show" || ops[0].text == "get-url" {
		return effect{readOnly: true}
	}
	return effect{}
}

// gitConfig is read-only when it gets or lists values.
func gitConfig(a argv) effect {
	if a.has("e", "--edit") {
		return effect{}
	}
	if a.has("l", "--list", "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool") {
		return effect{readOnly: true}
	}
	ops := a.operands(opts{short: "f", long: []string{"--file", "--blob", "--type", "--default"}})
	if len(ops) == 1 || (len(ops) > 0 && (ops[0].text == "get" || ops[0].text == "list")) {
		return effect{readOnly: true}
	}
	return effect{}
}

// gitOnly returns a check that is read-only for the given sub-subcommands
// (git stash list, git worktree list).
func gitOnly(subs ...string) func(argv) effect {
	return func(a argv) effect {
		ops := a.operands(opts{})
		if len(ops) > 0 && containsString(subs, ops[0].text) && !ops[0].dynamic {
			return effect{readOnly: true}
		}
		return effect{}
	}
}

// gitReflog: show (the default) and exists only read; expire and delete
// rewrite the reflog.
func gitReflog(a argv) effect {
	ops := a.operands(opts{})
	if len(ops) > 0 && (ops[0].text == "expire" || ops[0].text == "delete" || ops[0].dynamic) {
		return effect{}
	}
	return effect{readOnly: true}
}
