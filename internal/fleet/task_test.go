package fleet

import (
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestParseTasksNamesTheLineAndWhatIsWrong(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"bad JSON", `{"id": "a", "prompt": "p", "dir": "/x"}` + "\n{nope}\n", "line 2: invalid character 'n'"},
		{"unknown field", `{"id": "a", "prompt": "p", "dir": "/x", "apiKey": "sk"}`, `line 1: json: unknown field "apiKey"`},
		{"missing id", "\n" + `{"prompt": "p", "dir": "/x"}`, `line 2: "id" is required`},
		{"bad id", `{"id": "a b", "prompt": "p", "dir": "/x"}`, `line 1: "id" "a b": use up to 128 letters`},
		{"id starting with a dot", `{"id": ".a", "prompt": "p", "dir": "/x"}`, `line 1: "id" ".a"`},
		{"id of 129 characters", `{"id": "` + strings.Repeat("a", 129) + `", "prompt": "p", "dir": "/x"}`, `line 1: "id" "aaa`},
		{"id ending in a dot", `{"id": "a.", "prompt": "p", "dir": "/x"}`, `line 1: "id" "a."`},
		{"missing prompt", `{"id": "a", "prompt": " ", "dir": "/x"}`, `line 1: "prompt" is required`},
		{"no place", `{"id": "a", "prompt": "p"}`, `line 1: set "repo" (a repository to clone) or "dir"`},
		{"two places", `{"id": "a", "prompt": "p", "dir": "/x", "repo": "r"}`, `line 1: set "repo" or "dir", not both`},
		{"negative turns", `{"id": "a", "prompt": "p", "dir": "/x", "maxTurns": -1}`, `line 1: "maxTurns" must be 0`},
		{"negative budget", `{"id": "a", "prompt": "p", "dir": "/x", "maxBudgetUsd": -2}`, `line 1: "maxBudgetUsd" must be 0`},
		{"wrong type", `{"id": "a", "prompt": "p", "dir": "/x", "maxTurns": "3"}`, "line 1: json: cannot unmarshal string"},
		{"two objects", `{"id": "a", "prompt": "p", "dir": "/x"} {"id": "b"}`, "line 1: one task a line"},
		{"duplicate id", `{"id": "a", "prompt": "p", "dir": "/x"}` + "\n" + `{"id": "a", "prompt": "q", "dir": "/y"}`, `line 2: id "a" is used on line 1 too`},
		{"empty", "\n\n", "no tasks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseTasks(strings.NewReader(tt.input))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestParseTasksReadsEveryField(t *testing.T) {
	input := `{"id": "fix-1", "prompt": "fix it", "repo": "https://example.com/r.git", "model": "m", "allowedTools": ["Read", "Bash(go test:*)"], "maxTurns": 4, "maxBudgetUsd": 0.5}` + "\n\n" +
		`{"id": "b", "prompt": "p", "dir": "/src"}` + "\n"
	tasks, err := ParseTasks(strings.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	first := tasks[0]
	if len(tasks) != 2 || first.ID != "fix-1" || first.Repo != "https://example.com/r.git" || first.Model != "m" ||
		len(first.AllowedTools) != 2 || first.MaxTurns != 4 || first.MaxBudgetUSD != 0.5 || tasks[1].Dir != "/src" {
		t.Fatalf("tasks %+v", tasks)
	}
}

func TestSessionIDIsAStableUUIDPerTask(t *testing.T) {
	a, b := SessionID("task-1"), SessionID("task-2")
	if a != SessionID("task-1") || a == b {
		t.Fatalf("session ids %s %s", a, b)
	}
	u, err := uuid.Parse(a)
	if err != nil || u.Version() != 5 || u.String() != a {
		t.Fatalf("%s is not a canonical UUID v5: %v", a, err)
	}
}

func TestRunArgsStartOrResumeTheTasksSession(t *testing.T) {
	task := Task{ID: "t", Prompt: "-p looks like a flag", Dir: "/x", Model: "m", AllowedTools: []string{"Read", "Bash(ls:*)"}, MaxTurns: 3, MaxBudgetUSD: 0.25}
	sid := SessionID("t")
	got := strings.Join(runArgs(task, sid, false), " ")
	want := "-p --output-format json --session-id " + sid + " --model m --allowedTools Read --allowedTools Bash(ls:*) --max-turns 3 --max-budget-usd 0.25 -- -p looks like a flag"
	if got != want {
		t.Errorf("new run:\n got %s\nwant %s", got, want)
	}
	got = strings.Join(runArgs(Task{ID: "t", Prompt: "p", Dir: "/x"}, sid, true), " ")
	want = "-p --output-format json --resume " + sid + " -- " + ResumePrompt
	if got != want {
		t.Errorf("resumed run:\n got %s\nwant %s", got, want)
	}
}
