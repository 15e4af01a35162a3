package wordcount

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestWordCount(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "poem.txt"), []byte("two words\nthree more words\n  héllo\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	env := &tool.Env{Cwd: dir}
	tests := []struct {
		name, input, want, wantErr string
	}{
		{"counts like wc", `{"file_path":"poem.txt"}`, `{"lines":3,"words":6,"bytes":36}`, ""},
		{"absolute path", `{"file_path":"` + filepath.Join(dir, "poem.txt") + `"}`, `{"lines":3,"words":6,"bytes":36}`, ""},
		{"missing file names the cwd", `{"file_path":"nope.txt"}`, "", "does not exist (the working directory is " + dir},
		{"directory", `{"file_path":"sub"}`, "", "is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, err := Tool.Parse(json.RawMessage(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			if err := call.Validate(context.Background(), env); err != nil {
				if tt.wantErr == "" || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Validate = %v, want %q", err, tt.wantErr)
				}
				return
			}
			res, err := call.Run(context.Background(), env, nil)
			if err != nil || res.Content[0].Text != tt.want {
				t.Fatalf("Run = %+v, %v; want %s", res.Content, err, tt.want)
			}
		})
	}
}
