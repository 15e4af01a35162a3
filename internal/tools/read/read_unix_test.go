//go:build unix

package read

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestNonRegularFilesRefusedWithoutBlocking(t *testing.T) {
	env := newEnv(t)
	if err := os.Symlink("/dev/zero", filepath.Join(env.Cwd, "zeros.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(env.Cwd, "pipe.txt"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	os.Symlink(filepath.Join(env.Cwd, "pipe.txt"), filepath.Join(env.Cwd, "to-pipe.txt"))
	tests := []struct{ path, want string }{
		{"zeros.txt", "device or a process's file"},
		{"pipe.txt", "named pipe (FIFO)"},
		{"to-pipe.txt", "named pipe (FIFO)"},
		{"/dev/null", "is a device"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := run(ctx, env, `{"file_path":"`+tt.path+`"}`)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
