//go:build e2etest

package tools

import "github.com/mini-claude/mini-claude/internal/tools/testtools"

// The e2etest build adds the test tools to the built-ins, so end-to-end tests
// can drive the real binary through every path of the pipeline.
func init() {
	builtins = append(builtins, testtools.All()...)
}
