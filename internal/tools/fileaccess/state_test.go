package fileaccess

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestRestore(t *testing.T) {
	dir := t.TempDir()
	later := time.Now().Add(time.Hour)
	tests := []struct {
		name        string
		full        bool
		after       func(path string)
		wantCurrent bool
	}{
		{"unchanged, read whole", true, func(string) {}, true},
		{"unchanged, read in part", false, func(string) {}, true},
		{"touched, read whole", true, func(p string) { os.Chtimes(p, later, later) }, true},
		{"touched, read in part", false, func(p string) { os.Chtimes(p, later, later) }, false},
		{"rewritten", true, func(p string) { os.WriteFile(p, []byte("new"), 0o644); os.Chtimes(p, later, later) }, false},
		{"deleted", true, func(p string) { os.Remove(p) }, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, string(rune('a'+i)))
			os.WriteFile(path, []byte("old"), 0o644)
			info, _ := os.Stat(path)
			before := StateOf(&tool.Env{Session: tool.NewSession(dir)})
			if tt.full {
				before.RememberFull(path, []byte("old"), info.ModTime())
			} else {
				before.RememberPart(path, info.ModTime())
			}
			kept := before.Records()[path]
			tt.after(path)

			after := StateOf(&tool.Env{Session: tool.NewSession(dir)})
			if got := after.Restore(path, kept); got != tt.wantCurrent {
				t.Errorf("Restore = %v, want %v", got, tt.wantCurrent)
			}
			rec, ok := after.Lookup(path)
			if !ok {
				t.Fatal("no record after Restore")
			}
			if changed, err := Changed(path, rec); err == nil && changed == tt.wantCurrent {
				t.Errorf("Changed = %v after Restore said current=%v", changed, tt.wantCurrent)
			}
		})
	}
}
