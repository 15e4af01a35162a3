// Package config locates mini-claude's per-user folder and layers settings:
// user < project < local < command line.
package config

import (
	"os"
	"path/filepath"
)

// HomeEnv overrides the per-user folder, for tests and for users who keep it elsewhere.
const HomeEnv = "MINI_CLAUDE_HOME"

// Home returns the per-user folder: $MINI_CLAUDE_HOME, else ~/.mini-claude.
// It returns "" when neither is known.
func Home() string {
	if dir := os.Getenv(HomeEnv); dir != "" {
		return dir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".mini-claude")
}
