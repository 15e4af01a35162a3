// Package testtools holds tools that exist only to prove the pipeline in tests:
// timed sleeps that show parallelism, a failing, a panicking and a writing tool.
// They reach the binary only when it is built with the e2etest tag.
package testtools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// All returns every test tool.
func All() []tool.Tool { return []tool.Tool{Sleep, Fail, Panic, Touch} }

// SleepInput is the input of Sleep.
type SleepInput struct {
	Label  string `json:"label" jsonschema_description:"Name printed in the result"`
	Millis int    `json:"ms" jsonschema:"minimum=0,maximum=600000" jsonschema_description:"How long to sleep, in milliseconds"`
	Serial bool   `json:"serial,omitempty" jsonschema_description:"Run alone, not in parallel with other calls"`
}

// Sleep waits and reports when it started and finished, in Unix nanoseconds, so
// a test can prove which calls overlapped. It is parallel-safe unless serial.
var Sleep = tool.MustBuild(tool.Def[SleepInput, string]{
	Name:               "Sleep",
	Description:        "Sleeps for the given number of milliseconds and reports its start and end times.",
	MaxResultSizeChars: 1000,
	IsReadOnly:         tool.Always[SleepInput],
	IsConcurrencySafe:  func(in SleepInput) bool { return !in.Serial },
	Call: func(ctx context.Context, in SleepInput, _ *tool.Env, progress tool.Progress) (string, error) {
		start := time.Now()
		progress(tool.ProgressEvent{Message: "sleeping"})
		select {
		case <-time.After(time.Duration(in.Millis) * time.Millisecond):
		case <-ctx.Done():
			return "", fmt.Errorf("sleep %s interrupted: %w", in.Label, ctx.Err())
		}
		return fmt.Sprintf("%s start=%d end=%d", in.Label, start.UnixNano(), time.Now().UnixNano()), nil
	},
})

// MessageInput is the input of Fail and Panic.
type MessageInput struct {
	Message string `json:"message" jsonschema_description:"Text of the failure"`
}

// Fail always fails with the given message.
var Fail = tool.MustBuild(tool.Def[MessageInput, string]{
	Name:               "Fail",
	Description:        "Always fails with the given message.",
	MaxResultSizeChars: 1000,
	IsReadOnly:         tool.Always[MessageInput],
	IsConcurrencySafe:  tool.Always[MessageInput],
	Call: func(_ context.Context, in MessageInput, _ *tool.Env, _ tool.Progress) (string, error) {
		return "", errors.New(in.Message)
	},
})

// Panic always panics with the given message, to prove the executor survives it.
var Panic = tool.MustBuild(tool.Def[MessageInput, string]{
	Name:               "Panic",
	Description:        "Always panics with the given message.",
	MaxResultSizeChars: 1000,
	IsReadOnly:         tool.Always[MessageInput],
	IsConcurrencySafe:  tool.Never[MessageInput],
	Call: func(_ context.Context, in MessageInput, _ *tool.Env, _ tool.Progress) (string, error) {
		panic(in.Message)
	},
})

// TouchInput is the input of Touch.
type TouchInput struct {
	Path string `json:"path" jsonschema_description:"File to create, relative to the cwd"`
}

// Touch creates an empty file: a writing tool, so it needs permission.
var Touch = tool.MustBuild(tool.Def[TouchInput, string]{
	Name:               "Touch",
	Description:        "Creates an empty file.",
	MaxResultSizeChars: 1000,
	IsReadOnly:         tool.Never[TouchInput],
	IsConcurrencySafe:  tool.Never[TouchInput],
	Call: func(_ context.Context, in TouchInput, env *tool.Env, _ tool.Progress) (string, error) {
		path := in.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(env.Cwd, path)
		}
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			return "", fmt.Errorf("touch %s: %w", path, err)
		}
		return "Created " + path, nil
	},
})
