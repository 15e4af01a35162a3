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

// A .mcp.json that is a FIFO or a link to /dev/zero is reported and skipped
// at once: no wait for a writer, no endless read. The user's own
// --mcp-config may be a pipe, as from <(…).
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
			dir := t.TempDir()
			if err := tt.make(filepath.Join(dir, ProjectFile)); err != nil {
				t.Skip(err)
			}
			var servers []Server
			var errs []error
			done := make(chan struct{})
			go func() {
				defer close(done)
				servers, errs = Load(Sources{ProjectDir: dir, Getenv: env(nil),
					Flags: []string{`{"mcpServers":{"inline":{"command":"i"}}}`}})
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("Load did not return within 5s")
			}
			if len(servers) != 1 || servers[0].Name != "inline" {
				t.Errorf("servers = %+v, want only the inline one", servers)
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), ProjectFile+": "+tt.want) {
				t.Errorf("errors = %v, want .mcp.json named: %s", errs, tt.want)
			}
		})
	}
}

func TestTheUsersMCPConfigMayBeAPipe(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "servers.json")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip(err)
	}
	go func() {
		if f, err := os.OpenFile(pipe, os.O_WRONLY, 0); err == nil {
			f.WriteString(`{"mcpServers":{"piped":{"command":"p"}}}`)
			f.Close()
		}
	}()
	servers, errs := Load(Sources{Getenv: env(nil), Flags: []string{pipe}})
	if len(errs) != 0 || len(servers) != 1 || servers[0].Name != "piped" {
		t.Errorf("servers %+v, errors %v; want the piped server", servers, errs)
	}
}
