package subagent

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadType(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		want    Type
		wantErr string
	}{{
		name: "comma-separated tools",
		file: "---\nname: reviewer\ndescription: Reviews code.\ntools: Read, Grep,Glob\nmodel: haiku\n---\nYou review code.\n",
		want: Type{Name: "reviewer", Description: "Reviews code.", Tools: []string{"Read", "Grep", "Glob"}, Model: "haiku", Prompt: "You review code."},
	}, {
		name: "YAML list of tools, CRLF line ends",
		file: "---\r\nname: lister\r\ndescription: \"Lists: things\"\r\ntools:\r\n  - Read\r\n  - Bash\r\n---\r\nLine one.\r\nLine two.\r\n",
		want: Type{Name: "lister", Description: "Lists: things", Tools: []string{"Read", "Bash"}, Prompt: "Line one.\nLine two."},
	}, {
		name: "no tools field: every tool",
		file: "---\nname: all\ndescription: Everything.\n---\nDo it all.",
		want: Type{Name: "all", Description: "Everything.", Prompt: "Do it all."},
	}, {
		name: "star: every tool",
		file: "---\nname: star\ndescription: Everything.\ntools: \"*\"\n---\n",
		want: Type{Name: "star", Description: "Everything."},
	}, {
		name: "empty tools: none",
		file: "---\nname: bare\ndescription: Nothing.\ntools: \"\"\n---\nThink.",
		want: Type{Name: "bare", Description: "Nothing.", Tools: []string{}, Prompt: "Think."},
	}, {
		name:    "no front matter",
		file:    "You review code.\n",
		wantErr: "must start with front matter",
	}, {
		name:    "unclosed front matter",
		file:    "---\nname: x\ndescription: y\n",
		wantErr: "no closing --- line",
	}, {
		name:    "no name",
		file:    "---\ndescription: y\n---\nbody",
		wantErr: "has no name",
	}, {
		name:    "no description",
		file:    "---\nname: x\n---\nbody",
		wantErr: "has no description",
	}, {
		name:    "tools of the wrong shape",
		file:    "---\nname: x\ndescription: y\ntools: 3\n---\n",
		wantErr: "want a comma-separated string or a list",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "agent.md")
			write(t, path, tt.file)
			got, err := readType(path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), path) {
					t.Fatalf("error %v, want one naming the file and containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Source = path
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestLoadTypesLayersFolders(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, "agents", "helper.md"), "---\nname: helper\ndescription: user helper\n---\nuser")
	write(t, filepath.Join(home, "agents", "mine.md"), "---\nname: mine\ndescription: only the user's\n---\nmine")
	write(t, filepath.Join(project, ".claude", "agents", "helper.md"), "---\nname: helper\ndescription: claude helper\n---\nclaude")
	write(t, filepath.Join(project, ".mini-claude", "agents", "helper.md"), "---\nname: helper\ndescription: project helper\n---\nproject")
	write(t, filepath.Join(project, ".mini-claude", "agents", "broken.md"), "no front matter")
	write(t, filepath.Join(project, ".mini-claude", "agents", "notes.txt"), "not an agent")
	types, errs := LoadTypes(append(UserDirs(home, ""), ProjectDirs(project, nil)...))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "broken.md") {
		t.Errorf("errors %v, want one for broken.md", errs)
	}
	if got := strings.Join(Names(types), ","); got != "general-purpose,helper,mine" {
		t.Fatalf("types %s", got)
	}
	helper, _ := Find(types, "HELPER")
	if helper.Prompt != "project" {
		t.Errorf("helper from %s, want the project's .mini-claude folder to win", helper.Source)
	}
}
