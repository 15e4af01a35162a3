package shell

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// UntrustedGitEnv returns env with what keeps the git processes of a command
// from running programs named by a repository's own configuration, for a
// command run in dir in a folder the user has not trusted. A cloned or
// downloaded folder's .git/config (and what it includes, with
// .gitattributes naming its drivers) can make read-only commands run
// programs: git status runs core.fsmonitor, hooks and clean filters, git
// diff runs diff.external and textconv, git remote show runs remote helpers.
//
// Each key by which git runs a program (see gitRules) that a repository the
// command may use sets is given through GIT_CONFIG_COUNT/KEY/VALUE, which
// git reads after every configuration file: the user's own value (system,
// global or environment) where there is one, else a value that runs
// nothing of the repository's. git passes these variables on to the git
// processes it starts, submodules included. A few keys git does not let a
// later value override are neutralised by refusing the transport or through
// another variable.
//
// The repositories are those of dir, of the directories the line cds to and
// gives git -C, and the submodules and nested repositories inside them; git
// lists their configuration, which runs nothing. A line that runs only
// known programs other than git, or only in directories outside any
// repository, gets env unchanged at the cost of its analysis.
func UntrustedGitEnv(ctx context.Context, command, dir string, env []string) ([]string, error) {
	a, err := Analyze(command)
	if err != nil {
		a = nil // bash may parse what the analysis cannot: assume the worst
	}
	if a != nil && !mayRunGit(a) {
		return env, nil
	}
	ctx, cancel := context.WithTimeout(ctx, gitReadTimeout)
	defer cancel()
	dirs, unknown := gitDirs(a, dir, env)
	listings, err := surveyDirs(ctx, dirs, env)
	if err != nil {
		return noGitOr(env, err)
	}
	if len(listings) == 0 {
		if !unknown {
			return env, nil
		}
		// Some directory cannot be known: the rules marked always still
		// apply, with the user's own values.
		user, err := listConfig(ctx, dir, env)
		if err != nil {
			return noGitOr(env, err)
		}
		listings = append(listings, user)
	}
	return planGuard(listings, env).apply(env)
}

// UnknownGitKeys returns the keys that the repositories a line may run git
// in (those UntrustedGitEnv reads, for a line run in dir) set in their own
// configuration and that the guard does not know: no rule neutralises them
// and they are not known to be harmless (see harmlessKeys). Such a key may
// make git, or a tool git starts, run a program the guard lets through, so
// in a folder the user has not trusted the line is to be asked about. It
// returns nothing for a line that runs no git, and when the configuration
// cannot be read: UntrustedGitEnv then refuses to run the line.
func UnknownGitKeys(ctx context.Context, a *Analysis, dir string, env []string) []string {
	if !mayRunGit(a) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, gitReadTimeout)
	defer cancel()
	dirs, _ := gitDirs(a, dir, env)
	listings, err := surveyDirs(ctx, dirs, env)
	if err != nil {
		return nil
	}
	return unknownKeys(listings)
}

// surveyDirs lists the configuration of the repositories around dirs and of
// their submodules and nested repositories, each once.
func surveyDirs(ctx context.Context, dirs, env []string) ([][]configEntry, error) {
	s := survey{env: env, roots: map[string]bool{}}
	for _, d := range dirs {
		if err := s.visit(ctx, d, true, 0); err != nil {
			return nil, err
		}
	}
	return s.listings, nil
}

// GitDirUnknown reports whether a line may run git in a directory that
// cannot be known before it runs (cd "$d", popd, find -execdir git,
// git -C "$d", GIT_DIR=…): UntrustedGitEnv cannot read that repository's
// configuration beforehand, so in a folder the user has not trusted such a
// line is to be asked about, never run unasked.
func GitDirUnknown(a *Analysis, env []string) bool {
	if !mayRunGit(a) {
		return false
	}
	_, unknown := gitDirs(a, string(filepath.Separator), env)
	return unknown
}

// gitReadTimeout bounds reading the repositories of one command; git
// config and ls-files take milliseconds.
const gitReadTimeout = 20 * time.Second

// noGitOr returns env unchanged when git is not installed (nothing can run
// it), else the error.
func noGitOr(env []string, err error) ([]string, error) {
	if errors.Is(err, errNoGit) {
		return env, nil
	}
	return nil, err
}

// mayRunGit reports whether a line may start git: it names git, or a
// program whose behaviour is not known here (go build runs git status, make
// runs anything), or one it cannot name. The read-only programs other than
// git and the known file writers (cp, rm, touch …) run no other program.
func mayRunGit(a *Analysis) bool {
	for _, c := range a.Commands {
		if c.Dynamic || c.Program() == "git" {
			return true
		}
		if _, writer := writerEffect(c.Program(), argv{{text: c.Program()}}); !c.ReadOnly && !writer {
			return true
		}
	}
	return false
}

// gitDirs returns the directories git may run in: dir, the static targets
// of the line's cds (each taken both from dir and from the cd before it),
// and git's -C directories from each of those. unknown is set when some
// directory cannot be known before the line runs: cd "$x", popd, cd -,
// env -C, git --git-dir, GIT_DIR (see repoVars), git run by find or xargs
// (in the directories found, or with the arguments read), a dynamic command.
func gitDirs(a *Analysis, dir string, env []string) (dirs []string, unknown bool) {
	if a == nil {
		return []string{dir}, true
	}
	dirs = []string{dir}
	unknown = a.CwdUnknown || a.Dynamic || slices.ContainsFunc(repoVars, func(v string) bool { return strings.Contains(a.Source, v) })
	cur := dir
	for _, cd := range a.Cds {
		target, ok := staticDir(cd, env)
		if !ok {
			unknown = true
			continue
		}
		cur = joinDir(cur, target)
		dirs = append(dirs, joinDir(dir, target), cur)
	}
	bases := slices.Clone(dirs)
	for _, c := range a.Commands {
		if slices.ContainsFunc(c.Wrappers, movesDir) {
			unknown = true
		}
		if c.Program() != "git" {
			continue
		}
		if slices.ContainsFunc(c.Wrappers, substitutes) {
			unknown = true
		}
		moves, ok := gitMoves(c, env)
		unknown = unknown || !ok
		for _, base := range bases {
			if len(moves) > 0 {
				d := base
				for _, m := range moves {
					d = joinDir(d, m)
				}
				dirs = append(dirs, d)
			}
		}
	}
	return compactDirs(dirs), unknown
}

// repoVars are the variables that point git at another repository or
// index; a line that names one (GIT_DIR=…, export GIT_DIR, env GIT_DIR=…)
// may run git on a repository that cannot be known here.
var repoVars = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE"}

// gitMoves returns the -C directories of a git command in order; ok is
// false when git is pointed at a repository that cannot be known here
// (--git-dir, --work-tree, a -C that depends on expansion).
func gitMoves(c Command, env []string) (moves []string, ok bool) {
	args := c.Args
	for i := 1; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		switch t := args[i]; {
		case t == "-C" && i+1 < len(args):
			d, static := staticDir(args[i+1], env)
			if !static {
				return nil, false
			}
			moves = append(moves, d)
			i++
		case t == "-c" || t == "--config-env" || t == "--namespace" || t == "--super-prefix":
			i++
		case strings.HasPrefix(t, "--git-dir") || strings.HasPrefix(t, "--work-tree"):
			return nil, false
		}
	}
	return moves, true
}

// staticDir expands a directory as written when that needs no expansion but
// "~"; ok is false for "-" and for words with variables, substitutions or
// globs.
func staticDir(word string, env []string) (string, bool) {
	if word == "-" || strings.ContainsAny(word, "$`*?[{") {
		return "", false
	}
	if word == "~" || strings.HasPrefix(word, "~/") {
		home, ok := lookup(env, "HOME")
		if !ok || home == "" {
			return "", false
		}
		return filepath.Join(home, strings.TrimPrefix(word, "~")), true
	}
	if strings.HasPrefix(word, "~") {
		return "", false // ~user
	}
	return word, true
}

func joinDir(base, target string) string {
	if filepath.IsAbs(target) {
		return filepath.Clean(target)
	}
	return filepath.Join(base, target)
}

// movesDir reports whether a wrapper runs its command in another directory
// (env -C dir, env --chdir=dir).
func movesDir(wrapper string) bool {
	name, rest, _ := strings.Cut(wrapper, " ")
	if name != "env" {
		return false
	}
	for _, w := range strings.Fields(rest) {
		if strings.HasPrefix(w, "--chdir") || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "C") {
			return true
		}
	}
	return false
}

// substitutes reports whether a wrapper fills in the command's directory or
// arguments when it runs (find -exec, find -execdir, xargs).
func substitutes(wrapper string) bool {
	name, _, _ := strings.Cut(wrapper, " ")
	return name == "find" || name == "xargs"
}

// compactDirs removes repeated directories, keeping the first of each.
func compactDirs(dirs []string) []string {
	seen := make(map[string]bool, len(dirs))
	out := dirs[:0]
	for _, d := range dirs {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// maxRepos and maxNestedDepth bound the repositories read for one command.
const (
	maxRepos       = 64
	maxNestedDepth = 8
)

// survey collects the configuration of the repositories a command may use.
type survey struct {
	env      []string
	listings [][]configEntry
	roots    map[string]bool
}

// visit lists the configuration of the repository around dir, once per
// repository, then of its submodules and nested repositories in turn.
// useGitDir says whether the user's GIT_DIR applies: git clears it for the
// git processes it runs in submodules.
func (s *survey) visit(ctx context.Context, dir string, useGitDir bool, depth int) error {
	repo, ok := findRepo(dir, s.env, useGitDir)
	if !ok || s.roots[repo.root] {
		return nil
	}
	if len(s.roots) >= maxRepos || depth > maxNestedDepth {
		return fmt.Errorf("%s holds more nested git repositories than the %d (or %d levels) whose configuration can be checked; trust the folder to run git commands in it", dir, maxRepos, maxNestedDepth)
	}
	s.roots[repo.root] = true
	entries, err := listConfig(ctx, repo.root, s.env)
	if err != nil {
		return err
	}
	if entries, err = withConditionalIncludes(ctx, repo.root, entries, s.env); err != nil {
		return err
	}
	s.listings = append(s.listings, entries)
	for _, sub := range nestedRepos(ctx, repo, s.env) {
		if err := s.visit(ctx, sub, false, depth+1); err != nil {
			return err
		}
	}
	return nil
}
