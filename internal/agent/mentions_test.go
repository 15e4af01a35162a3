package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
	"github.com/mini-claude/mini-claude/internal/tools/read"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

func TestMentions(t *testing.T) {
	root := t.TempDir()
	cwd := filepath.Join(root, "project")
	outside := filepath.Join(root, "elsewhere")
	writeFiles(t, root, map[string]string{
		"project/notes.txt":      "alpha\nbeta\n",
		"project/secret.txt":     "hidden\n",
		"project/sub/a.txt":      "x\n",
		"elsewhere/other.txt":    "far\n",
		"project/with space.txt": "spaced\n",
	})
	deny, err := permission.ParseRule("Read(secret.txt)", "test")
	if err != nil {
		t.Fatal(err)
	}
	deny.Base = cwd
	perms := &permission.Context{Mode: permission.ModeDefault, Deny: []permission.Rule{deny}, Dirs: []string{workspace.RealPath(cwd)}}
	notes := filepath.Join(cwd, "notes.txt")
	tests := []struct {
		name   string
		prompt string
		want   []string
	}{
		{"existing file", "look at @notes.txt please", []string{
			`<system-reminder>` + "\n" + `Called the Read tool with the following input: {"file_path":"` + notes + `"}` + "\n</system-reminder>",
			"<system-reminder>\nResult of calling the Read tool:\n1\talpha\n2\tbeta\n",
		}},
		{"trailing punctuation and quotes", `see @notes.txt, and @"with space.txt".`, []string{"1\talpha", "1\tspaced"}},
		{"directory is listed", "what is in @sub", []string{
			`Called the Bash tool with the following input: {"command":"ls ` + filepath.Join(cwd, "sub") + `"`,
			"Result of calling the Bash tool:\na.txt\n",
		}},
		{"missing file stays text", "look at @nothere.txt", nil},
		{"denied file is not attached", "look at @secret.txt", nil},
		{"file outside the directories is not attached", "look at @" + filepath.Join(outside, "other.txt"), nil},
		{"an address is no mention", "mail me@notes.txt", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			session := tool.NewSession(cwd)
			defer session.Close()
			src := agent.MentionSource{Pool: []tool.Tool{read.Tool}, Env: tool.Env{Cwd: cwd, Session: session}, Permissions: perms}
			var blocks []llm.ContentBlock
			for _, at := range agent.Mentions(context.Background(), tt.prompt, src) {
				blocks = append(blocks, at.Blocks...)
			}
			text := llm.Message{Role: llm.RoleUser, Content: blocks}.Text()
			if len(tt.want) == 0 && len(blocks) != 0 {
				t.Fatalf("attached %q, want nothing", text)
			}
			for _, want := range tt.want {
				if !strings.Contains(text, want) {
					t.Errorf("attached %q, want it to contain %q", text, want)
				}
			}
		})
	}
}

// writeFiles writes files, by their paths relative to dir, with their folders.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for path, content := range files {
		path = filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMentionedFileCanBeEditedWithoutARead(t *testing.T) {
	for _, prompt := range []string{"@notes.txt", "@notes.txt#L2", "@notes.txt#L1-2"} {
		t.Run(prompt, func(t *testing.T) {
			cwd := t.TempDir()
			path := filepath.Join(cwd, "notes.txt")
			if err := os.WriteFile(path, []byte("alpha\nbeta\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			session := tool.NewSession(cwd)
			defer session.Close()
			env := tool.Env{Cwd: cwd, Session: session}
			perms := &permission.Context{Mode: permission.ModeDefault, Dirs: []string{workspace.RealPath(cwd)}}
			attached := agent.Mentions(context.Background(), prompt, agent.MentionSource{Pool: []tool.Tool{read.Tool}, Env: env, Permissions: perms})
			if len(attached) != 1 || attached[0].Path != path || attached[0].Directory || len(attached[0].Blocks) != 2 {
				t.Fatalf("attached %+v, want the file's call and result", attached)
			}
			if _, ok := fileaccess.StateOf(&env).Lookup(path); !ok {
				t.Error("the session does not remember reading the mentioned file")
			}
		})
	}
}

func TestMentionedDirectoryListsAtMostAThousandEntries(t *testing.T) {
	cwd := t.TempDir()
	big := filepath.Join(cwd, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 1002 {
		if err := os.WriteFile(filepath.Join(big, fmt.Sprintf("f%d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	session := tool.NewSession(cwd)
	defer session.Close()
	perms := &permission.Context{Mode: permission.ModeDefault, Dirs: []string{workspace.RealPath(cwd)}}
	attached := agent.Mentions(context.Background(), "@big", agent.MentionSource{Env: tool.Env{Cwd: cwd, Session: session}, Permissions: perms})
	if len(attached) != 1 || !attached[0].Directory || len(attached[0].Blocks) != 2 {
		t.Fatalf("attached %+v, want the directory's listing", attached)
	}
	lines := strings.Split(attached[0].Blocks[1].Text, "\n")
	if len(lines) != 1004 || lines[1002] != "… and 2 more entries" {
		t.Errorf("listing has %d lines ending %q, want 1000 entries and a count of the other 2", len(lines), lines[len(lines)-2:])
	}
}
