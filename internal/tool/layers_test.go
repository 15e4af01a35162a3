package tool

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mini-claude/mini-claude/"

// TestLayers keeps the arrows between packages pointing one way: the
// contract imports nothing of ours but llm, and the agent loop reaches the
// tools only through the contract and what the composition root (cli) wires,
// never a tool package or the registry.
func TestLayers(t *testing.T) {
	tests := []struct {
		pkg string
		// deps lists every package pkg depends on, not only its imports.
		deps    bool
		allowed func(path string) bool
	}{
		{"internal/tool", false, func(path string) bool { return path == module+"internal/llm" }},
		{"internal/agent", true, func(path string) bool {
			return path != module+"internal/tools" && !strings.HasPrefix(path, module+"internal/tools/")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			args := []string{"list", "-f", `{{join .Imports "\n"}}`, module + tt.pkg}
			if tt.deps {
				args = []string{"list", "-deps", module + tt.pkg}
			}
			out, err := exec.Command("go", args...).Output()
			if err != nil {
				t.Fatalf("go %s: %v", strings.Join(args, " "), err)
			}
			var ours []string
			for _, path := range strings.Fields(string(out)) {
				if strings.HasPrefix(path, module) && path != module+tt.pkg {
					ours = append(ours, path)
				}
			}
			if len(ours) == 0 {
				t.Fatalf("go list found none of our packages under %s; the check would pass whatever the imports", tt.pkg)
			}
			for _, path := range slices.Sorted(slices.Values(ours)) {
				if !tt.allowed(path) {
					t.Errorf("%s depends on %s", tt.pkg, strings.TrimPrefix(path, module))
				}
			}
		})
	}
}
