// Package leakcheck holds the goroutine-leak checks of the tests: every
// goroutine a package starts has an owner that waits for it or cancels it,
// so once a package's tests are done none of its goroutines may be left.
// The few goroutines that are not ours to end are listed here, each with the
// reason.
package leakcheck

import (
	"runtime"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// ignored are the goroutines left running on purpose.
var ignored = []goleak.Option{
	// The process helper (internal/reaper), started at the first command,
	// serves the whole process: the goroutine reading its messages lives as
	// long as it does, and the process is its owner.
	goleak.IgnoreAnyFunction("github.com/mini-claude/mini-claude/internal/reaper.(*client).read"),
	// regexp2, which the syntax highlighter's lexers use with a match
	// timeout, keeps a package-wide clock goroutine that stops by itself a
	// second after the last deadline it was given, and offers no way to stop
	// it. Its top frame is time.Sleep, hence IgnoreAnyFunction.
	goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"),
	// The input's cursor blinks through a command of the bubbles library
	// that waits out the blink interval (530 ms) and cannot be cancelled
	// from outside; it ends by itself that long after the UI has.
	goleak.IgnoreTopFunction("charm.land/bubbles/v2/cursor.(*Model).Blink.func1"),
}

// VerifyTestMain runs the package's tests and fails them when a goroutine
// other than the ignored ones is still running once they are done.
func VerifyTestMain(m *testing.M) {
	goleak.VerifyTestMain(m, ignored...)
}

// Ended makes the test fail, once it and its clean-ups are done, when a
// goroutine it started, other than the ignored ones, is still running (after
// goleak's short retries for goroutines on their way out). Call it first, so
// that its check runs after the clean-ups registered later.
func Ended(t testing.TB) {
	t.Helper()
	opts := append([]goleak.Option{goleak.IgnoreCurrent()}, ignored...)
	t.Cleanup(func() { goleak.VerifyNone(t, opts...) })
}

// NotRunning fails the test when a goroutine is in one of the functions
// named as stack traces name them ("example.com/pkg.(*T).method"), at this
// instant and without retries: it shows that an owner waited for its
// goroutines to return before it returned itself.
func NotRunning(t testing.TB, funcs ...string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	for _, g := range strings.Split(string(buf), "\n\n") {
		for _, line := range strings.Split(g, "\n") {
			for _, fn := range funcs {
				if strings.HasPrefix(line, fn+"(") {
					t.Errorf("a goroutine is still in %s:\n%s", fn, g)
				}
			}
		}
	}
}
