package fleet

import (
	"testing"

	"github.com/mini-claude/mini-claude/internal/leakcheck"
)

func TestMain(m *testing.M) {
	leakcheck.VerifyTestMain(m)
}
