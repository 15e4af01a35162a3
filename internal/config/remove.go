package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/mini-claude/mini-claude/internal/atomicfile"
)

// RemoveRule deletes rule from permissions.<list> ("allow", "ask" or "deny")
// of the project's local settings file, keeping every other key as it is. It
// reports whether the file held the rule; a missing file holds none. The file
// is replaced atomically, under the same lock as AddAllowRule.
func RemoveRule(cwd, list, rule string) (bool, error) {
	if list != "allow" && list != "ask" && list != "deny" {
		return false, fmt.Errorf("unknown rule list %q: use allow, ask or deny", list)
	}
	path := LocalPath(cwd)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	removed := false
	err := atomicfile.Update(path, 0o644, func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, atomicfile.ErrUnchanged
		}
		return editRules(old, path, list, func(rules []string) []string {
			removed = slices.Contains(rules, rule)
			return slices.DeleteFunc(rules, func(r string) bool { return r == rule })
		})
	})
	return removed, err
}
