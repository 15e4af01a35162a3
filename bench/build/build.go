// Package build gives the bench programs the mini-claude binary they measure.
package build

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// MiniClaude returns bin when it is set, and otherwise builds ./cmd/mini-claude
// into dir as the README does (a static binary without the symbol table and
// debug information: CGO_ENABLED=0, -ldflags="-s -w") and returns its path. It must run from the repository root.
func MiniClaude(bin, dir string) (string, error) {
	if bin != "" {
		return bin, nil
	}
	bin = filepath.Join(dir, "mini-claude")
	cmd := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, "./cmd/mini-claude")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build mini-claude (run from the repository root): %w", err)
	}
	return bin, nil
}
