//go:build unix

package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A .mcp.json or --mcp-config file that is a FIFO or a link to /dev/zero is
// reported and skipped at once: no wait for a writer, no endless read.
func TestLoadSkipsMCPConfigsThatAreNotRegularFiles(t *testing.T) {
	tests := []struct {
		name string
		make func(path string) error
		want string
	}{
		{"FIFO", func(path string) error { return syscall.Mkfifo(path, 0o644) }, "not a regular file but a named pipe"},
		{"link to /dev/zero", func(path string) error { return os.Symlink("/dev/zero", path) }, "not a regular file but a device"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, flagDir := t.TempDir(), t.TempDir()
			flagFile := filepath.Join(flagDir, "servers.json")
			for _, path := range []string{filepath.Join(dir, ProjectFile), flagFile} {
				if err := tt.make(path); err != nil {
					t.Skip(err)
				}
			}
			var servers []Server
			var errs []error
			done := make(chan struct{})
			go func() {
				defer close(done)
				servers, errs = Load(Sources{ProjectDir: dir, Getenv: env(nil),
					Flags: []string{flagFile, `{"mcpServers":{"inline":{"command":"i"}}}`}})
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("Load did not return within 5s")
			}
			if len(servers) != 1 || servers[0].Name != "inline" {
				t.Errorf("servers = %+v, want only the inline one", servers)
			}
			if len(errs) != 2 || !strings.Contains(errs[0].Error(), ProjectFile+": "+tt.want) ||
				!strings.Contains(errs[1].Error(), "--mcp-config "+flagFile+": "+tt.want) || !strings.Contains(errs[1].Error(), "give its JSON text") {
				t.Errorf("errors = %v, want both files named: %s", errs, tt.want)
			}
		})
	}
}
