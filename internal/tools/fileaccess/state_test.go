package fileaccess

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

func TestCarryListsTheFilesReadButNotEdited(t *testing.T) {
	tests := []struct {
		name   string
		read   int
		edited []string
		want   []string
	}{
		{"none", 0, nil, nil},
		{"edited left out", 3, []string{"/p/f001"}, []string{"/p/f000", "/p/f002"}},
		{"capped", maxCarried + 2, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := &tool.Env{Session: tool.NewSession("/p")}
			state := StateOf(env)
			for i := range tt.read {
				state.RememberPart(fmt.Sprintf("/p/f%03d", i), time.Now())
			}
			got := state.Carry(tt.edited)
			if got.Tag != "files-read" {
				t.Errorf("tag %q", got.Tag)
			}
			if tt.read > maxCarried {
				if len(got.Lines) != maxCarried+1 || got.Lines[maxCarried] != "(and 2 more)" || got.Lines[0] != "/p/f000" {
					t.Errorf("%d lines ending %q, want %d and a count of the rest", len(got.Lines), got.Lines[len(got.Lines)-1], maxCarried)
				}
				return
			}
			if !slices.Equal(got.Lines, tt.want) {
				t.Errorf("lines %q, want %q", got.Lines, tt.want)
			}
		})
	}
}
