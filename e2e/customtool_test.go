package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// The two examples of the README's "Custom tools without writing Go" section;
// WEATHER_URL stands for the address of the weather service.
const (
	wordCountTool = `{
  "name": "WordCount",
  "description": "Counts the lines, words and bytes of a text file, like wc. Returns JSON: {\"lines\", \"words\", \"bytes\"}.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "file_path": {"type": "string", "description": "Path of the file to count, absolute or relative to the working directory"}
    },
    "required": ["file_path"],
    "additionalProperties": false
  },
  "command": "set -- $(wc -l -w -c < \"$TOOL_INPUT_FILE_PATH\") && printf '{\"lines\":%s,\"words\":%s,\"bytes\":%s}' \"$1\" \"$2\" \"$3\"",
  "readOnly": true
}`
	weatherTool = `{
  "name": "Weather",
  "description": "Current weather for a city, from the team's weather service. Returns JSON with the temperature in °C and the conditions.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "city": {"type": "string", "description": "City name, such as Paris"}
    },
    "required": ["city"]
  },
  "command": "curl -fsS --max-time 10 --get --data-urlencode \"city=$TOOL_INPUT_CITY\" WEATHER_URL/weather",
  "readOnly": true,
  "timeout": 15
}`
	deployTool = `{
  "name": "Deploy",
  "description": "Deploys the current build.",
  "command": "echo deployed > deployed.txt && echo done"
}`
)

// weatherServer is the local weather service the Weather tool reaches with curl.
func weatherServer(t *testing.T) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		city := r.URL.Query().Get("city")
		mu.Lock()
		asked = append(asked, city)
		mu.Unlock()
		temps := map[string]int{"Paris": 18, "São Paulo": 27}
		temp, ok := temps[city]
		if r.URL.Path != "/weather" || !ok {
			http.Error(w, "unknown city", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"city": city, "temperature_c": temp, "conditions": "sunny"})
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), asked...)
	}
}

func TestCustomToolsFromSettings(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("the Weather example needs curl on PATH; .ci/run installs it")
	}
	weather, asked := weatherServer(t)
	r := newRun(t)
	settings := `{"tools": [` + wordCountTool + `,` + strings.Replace(weatherTool, "WEATHER_URL", weather.URL, 1) + `,` + deployTool + `]}`
	r.userSettings(settings)
	os.WriteFile(filepath.Join(r.dir, "words.txt"), []byte("one two\nthree\n"), 0o644)
	r.srv.Push(
		calls(
			llmtest.ToolUse("wc", "WordCount", `{"file_path":"words.txt"}`),
			llmtest.ToolUse("paris", "Weather", `{"city":"Paris"}`),
			llmtest.ToolUse("sao", "Weather", `{"city":"São Paulo"}`),
			llmtest.ToolUse("nowhere", "Weather", `{"city":"Atlantis"}`),
			llmtest.ToolUse("nocity", "Weather", `{}`),
			llmtest.ToolUse("deploy", "Deploy", `{}`),
		),
		text("done"),
	)
	if out := r.exec("-p", "check things"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	want := []struct {
		text    string
		isError bool
	}{
		{`{"lines":2,"words":3,"bytes":14}`, false},
		{`{"city":"Paris","conditions":"sunny","temperature_c":18}`, false},
		{`{"city":"São Paulo","conditions":"sunny","temperature_c":27}`, false},
		{"Exit code 22\ncurl: (22) The requested URL returned error: 404", true},
		{"<tool_use_error>InputValidationError: Weather failed due to the following issue:\nThe required parameter `city` is missing</tool_use_error>", true},
		{"Permission to use Deploy has not been granted", true},
	}
	for i, got := range lastResults(t, r.srv, 1) {
		if !strings.HasPrefix(contentText(got), want[i].text) || got.IsError != want[i].isError {
			t.Errorf("%s: %q (error %v), want %q (error %v)", got.ToolUseID, contentText(got), got.IsError, want[i].text, want[i].isError)
		}
	}
	// Read-only calls run in parallel, so the service sees them in any order.
	cities := asked()
	slices.Sort(cities)
	if got := strings.Join(cities, "|"); got != "Atlantis|Paris|São Paulo" {
		t.Errorf("the weather service was asked for %q", got)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "deployed.txt")); err == nil {
		t.Error("Deploy ran without permission")
	}

	r.srv.Push(calls(llmtest.ToolUse("deploy", "Deploy", `{}`)), text("deployed"))
	if out := r.exec("-p", "deploy", "--allowedTools", "Deploy"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if got := lastResults(t, r.srv, 3)[0]; got.IsError || contentText(got) != "done" {
		t.Errorf("allowed Deploy: %q (error %v)", contentText(got), got.IsError)
	}
	if data, err := os.ReadFile(filepath.Join(r.dir, "deployed.txt")); err != nil || string(data) != "deployed\n" {
		t.Errorf("Deploy did not run in the project directory: %v", err)
	}
}

func TestBadCustomToolIsReportedAndLeftOut(t *testing.T) {
	r := newRun(t)
	r.trust(false)
	writeSettings(t, r.dir, ".mini-claude/settings.json", `{"tools":[{"name":"Read","description":"clash","command":"true"},{"name":"Broken","description":"no command"},{"name":"WebSearch","description":"clash","command":"true"}]}`)
	r.userSettings(`{"tools":[{"name":"Bash","description":"clash","command":"true"}]}`)
	r.srv.Push(text("ok"))
	out := r.exec("-p", "hi")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	for _, want := range []string{
		`tools[0]: "Read" is the name of a built-in or Claude Code tool`, `tools[1]: "Broken": "command" is required`,
		`tools[2]: "WebSearch" is the name of a built-in or Claude Code tool`, "the settings tool Bash has the name of a built-in tool",
	} {
		if !strings.Contains(out.stderr, want) {
			t.Errorf("stderr %q lacks %q", out.stderr, want)
		}
	}
	for _, spec := range r.srv.Requests()[0].Tools {
		if spec.Name == "Broken" || spec.Description == "clash" {
			t.Errorf("the bad tool %s was offered", spec.Name)
		}
	}
}

func TestProjectToolsReadOnlyIsNotTrusted(t *testing.T) {
	peek := `{"tools":[{"name":"Peek","description":"Looks around.","command":"touch ran.txt && echo looked","readOnly":true}]}`
	tests := []struct {
		name, settingsDir, settingsFile string
		ran                             bool
	}{
		{"from the project's settings it asks, so -p refuses it", "", ".mini-claude/settings.json", false},
		{"from the project's local settings it asks too", "", ".mini-claude/settings.local.json", false},
		{"from the user's settings it runs unasked", "MINI_CLAUDE_HOME", "settings.json", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(t)
			dir := r.dir
			if tt.settingsDir != "" {
				dir = r.envValue(tt.settingsDir)
			}
			writeSettings(t, dir, tt.settingsFile, peek)
			r.srv.Push(calls(llmtest.ToolUse("peek", "Peek", `{}`)), text("done"))
			if out := r.exec("-p", "look"); out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			got := lastResults(t, r.srv, 1)[0]
			_, err := os.Stat(filepath.Join(r.dir, "ran.txt"))
			if ran := err == nil; ran != tt.ran || got.IsError == tt.ran {
				t.Errorf("the command ran: %v; result %q (error %v); want it to run: %v", ran, contentText(got), got.IsError, tt.ran)
			}
		})
	}
}

// The README shows the same two tools the test runs.
func TestReadmeShowsTheTestedCustomTools(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)[strings.Index(string(readme), "## Custom tools without writing Go"):]
	section = section[:strings.Index(section, "\n## ")]
	var shown []any
	for _, block := range strings.Split(section, "```json\n")[1:] {
		var doc struct {
			Tools []any `json:"tools"`
		}
		if err := json.Unmarshal([]byte(block[:strings.Index(block, "```")]), &doc); err != nil {
			t.Fatalf("README example is not valid JSON: %v", err)
		}
		shown = append(shown, doc.Tools...)
	}
	var tested []any
	for _, tool := range []string{wordCountTool, strings.Replace(weatherTool, "WEATHER_URL", "http://127.0.0.1:8080", 1)} {
		var v any
		if err := json.Unmarshal([]byte(tool), &v); err != nil {
			t.Fatal(err)
		}
		tested = append(tested, v)
	}
	a, _ := json.Marshal(shown)
	b, _ := json.Marshal(tested)
	if string(a) != string(b) {
		t.Errorf("the README's examples differ from the tested ones:\n%s\n%s", a, b)
	}
}
