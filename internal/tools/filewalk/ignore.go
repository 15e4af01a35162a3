package filewalk

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// The files a directory may hold that change what is ignored below it.
const (
	rgignoreName  = ".rgignore"
	ignoreName    = ".ignore"
	gitignoreName = ".gitignore"
	gitDirName    = ".git"
)

// dirIgnores is the ignore files of one directory, linked to the nearest
// ancestor that has any. A walk keeps one per directory that has an ignore
// file or a .git entry; the others share their parent's.
type dirIgnores struct {
	parent *dirIgnores
	// prefix is the directory's path relative to the walk root with a trailing
	// slash ("" for the root itself); above is set instead for a directory above
	// the walk root, and holds the walk root's path relative to it, with a
	// trailing slash.
	prefix string
	above  string

	rgignore, ignore, gitignore, exclude *ruleSet
	hasGit, anyGit                       bool
}

// ignoreNames reports which ignore-relevant names a directory listing holds.
type ignoreNames struct {
	rgignore, ignore, gitignore, git bool
}

func (n ignoreNames) any() bool { return n.rgignore || n.ignore || n.gitignore || n.git }

func (n *ignoreNames) see(name string) {
	switch name {
	case rgignoreName:
		n.rgignore = true
	case ignoreName:
		n.ignore = true
	case gitignoreName:
		n.gitignore = true
	case gitDirName:
		n.git = true
	}
}

// load reads the ignore files of the directory abs and links the result under parent.
func load(abs string, names ignoreNames, parent *dirIgnores) *dirIgnores {
	d := &dirIgnores{parent: parent, hasGit: names.git}
	if names.rgignore {
		d.rgignore = readRules(filepath.Join(abs, rgignoreName))
	}
	if names.ignore {
		d.ignore = readRules(filepath.Join(abs, ignoreName))
	}
	if names.gitignore {
		d.gitignore = readRules(filepath.Join(abs, gitignoreName))
	}
	if names.git {
		if common := gitCommonDir(abs); common != "" {
			d.exclude = readRules(filepath.Join(common, "info", "exclude"))
		}
	}
	d.anyGit = d.hasGit || (parent != nil && parent.anyGit)
	return d
}

// loadParents reads the ignore files of the ancestors of root, nearest last,
// as ripgrep does: rules in a parent directory apply below it.
func loadParents(root string) *dirIgnores {
	var dirs []string
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		dirs = append(dirs, dir)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	var chain *dirIgnores
	for i := len(dirs) - 1; i >= 0; i-- {
		var names ignoreNames
		for _, name := range []string{rgignoreName, ignoreName, gitignoreName, gitDirName} {
			if _, err := os.Lstat(filepath.Join(dirs[i], name)); err == nil {
				names.see(name)
			}
		}
		if !names.any() {
			continue
		}
		rel, err := filepath.Rel(dirs[i], root)
		if err != nil {
			continue
		}
		chain = load(dirs[i], names, chain)
		chain.above = filepath.ToSlash(rel) + "/"
	}
	return chain
}

// gitCommonDir returns the git directory holding info/exclude for the
// repository whose working tree is dir: dir/.git, or for a worktree the common
// directory its .git file leads to.
func gitCommonDir(dir string) string {
	gitPath := filepath.Join(dir, gitDirName)
	info, err := os.Stat(gitPath)
	if err != nil {
		return ""
	}
	if info.IsDir() {
		return gitPath
	}
	data, err := os.ReadFile(gitPath)
	if err != nil {
		return ""
	}
	gitDir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
	if !ok {
		return ""
	}
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(dir, gitDir)
	}
	if common, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		return c
	}
	return gitDir
}

func readRules(path string) *ruleSet {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return parseRules(strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n"))
}

var excludesFileSetting = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?im)^\s*excludesfile\s*=\s*(.+?)\s*$`) })

// globalGitignore reads git's global excludes file: core.excludesFile from the
// user's git configuration, else $XDG_CONFIG_HOME/git/ignore, else
// ~/.config/git/ignore.
func globalGitignore() *ruleSet {
	home, _ := os.UserHomeDir()
	configHome := os.Getenv("XDG_CONFIG_HOME")
	if configHome == "" && home != "" {
		configHome = filepath.Join(home, ".config")
	}
	var configs []string
	if home != "" {
		configs = append(configs, filepath.Join(home, ".gitconfig"))
	}
	if configHome != "" {
		configs = append(configs, filepath.Join(configHome, "git", "config"))
	}
	for _, config := range configs {
		data, err := os.ReadFile(config)
		if err != nil {
			continue
		}
		if m := excludesFileSetting().FindSubmatch(data); m != nil {
			path := string(m[1])
			if rest, ok := strings.CutPrefix(path, "~/"); ok && home != "" {
				path = filepath.Join(home, rest)
			}
			return readRules(path)
		}
	}
	if configHome == "" {
		return nil
	}
	return readRules(filepath.Join(configHome, "git", "ignore"))
}

// match is ripgrep's precedence over the ignore files of a directory and its
// ancestors: .rgignore before .ignore before .gitignore before
// .git/info/exclude before the global excludes, and within each kind the
// nearest directory that has a say. Git's files count only inside a git
// repository and not above its top directory.
func (d *dirIgnores) match(rel, name string, isDir bool, global *ruleSet) verdict {
	if d == nil {
		return noVerdict
	}
	var custom, plain, git, exclude verdict
	anyGit, sawGit := d.anyGit, false
	for level := d; level != nil; level = level.parent {
		useGit := anyGit && !sawGit
		if level.rgignore != nil || level.ignore != nil || (useGit && (level.gitignore != nil || level.exclude != nil)) {
			path := level.relative(rel)
			if custom == noVerdict {
				custom = level.rgignore.match(path, name, isDir)
			}
			if plain == noVerdict {
				plain = level.ignore.match(path, name, isDir)
			}
			if useGit && git == noVerdict {
				git = level.gitignore.match(path, name, isDir)
			}
			if useGit && exclude == noVerdict {
				exclude = level.exclude.match(path, name, isDir)
			}
		}
		sawGit = sawGit || level.hasGit
	}
	for _, v := range []verdict{custom, plain, git, exclude} {
		if v != noVerdict {
			return v
		}
	}
	if anyGit {
		return global.match(rel, name, isDir)
	}
	return noVerdict
}

// relative returns rel, a path relative to the walk root, relative to this directory.
func (d *dirIgnores) relative(rel string) string {
	if d.above != "" {
		return d.above + rel
	}
	return rel[len(d.prefix):]
}
