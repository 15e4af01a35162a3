package filewalk

import (
	"path/filepath"
	"strings"
)

// VCSGlobs exclude the metadata folders of version control systems, as Claude
// Code's searches do.
var VCSGlobs = []string{"!.git", "!.svn", "!.hg", "!.bzr", "!.jj", "!.sl"}

// Display is how search results name the file at abs: relative to the working
// directory cwd when it lies inside it, absolute otherwise (Claude Code's rule).
func Display(cwd, abs string) string {
	rel, err := filepath.Rel(cwd, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return abs
	}
	return rel
}
