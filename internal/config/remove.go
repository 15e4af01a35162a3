package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"syscall"
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
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return false, fmt.Errorf("lock %s: %w", path, err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return false, fmt.Errorf("lock %s: %w", path, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	return removeRule(path, list, rule)
}

func removeRule(path, list, rule string) (bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	doc := map[string]json.RawMessage{}
	if err := json.Unmarshal(data, &doc); err != nil {
		return false, fmt.Errorf("settings %s is not valid JSON, so the rule was not removed: %w", path, err)
	}
	perms := map[string]json.RawMessage{}
	if raw, ok := doc["permissions"]; ok {
		if err := json.Unmarshal(raw, &perms); err != nil {
			return false, fmt.Errorf("settings %s: permissions is not an object: %w", path, err)
		}
	}
	var rules []string
	if raw, ok := perms[list]; ok {
		if err := json.Unmarshal(raw, &rules); err != nil {
			return false, fmt.Errorf("settings %s: permissions.%s is not a list of strings: %w", path, list, err)
		}
	}
	kept := slices.DeleteFunc(slices.Clone(rules), func(r string) bool { return r == rule })
	if len(kept) == len(rules) {
		return false, nil
	}
	if perms[list], err = json.Marshal(kept); err != nil {
		return false, err
	}
	if doc["permissions"], err = json.Marshal(perms); err != nil {
		return false, err
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return false, err
	}
	return true, writeAtomic(path, append(out, '\n'))
}
