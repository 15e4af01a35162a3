package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeSettings writes a project settings file under dir.
func writeSettings(t *testing.T, dir, rel, content string) {
	t.Helper()
	path := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An allowed cd does not carry what follows it: headless, the ask for the
// python part becomes a denial, reported with the sub-command that needed approval.
func TestHeadlessAskOfCompoundCommandIsDenied(t *testing.T) {
	r := newRun(t)
	writeSettings(t, r.dir, ".claude/settings.json", `{"permissions":{"allow":["Bash(cd:*)"]}}`)
	os.Mkdir(filepath.Join(r.dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(r.dir, "sub", "evil.py"), []byte("open('pwned', 'w')\n"), 0o644)
	r.srv.Push(calls(bashUse("b1", "cd sub && python3 evil.py")), text("could not"))
	out := r.exec("-p", "run it", "--output-format", "stream-json", "--verbose")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "sub", "pwned")); err == nil {
		t.Fatal("the command ran although only cd was allowed")
	}
	events := lines(t, out.stdout)
	var message string
	for _, ev := range events {
		if ev["subtype"] == "permission_denied" && ev["tool_use_id"] == "b1" {
			message, _ = ev["message"].(string)
		}
	}
	if !strings.Contains(message, "python3 evil.py") {
		t.Errorf("permission_denied message = %q, want it to name the sub-command python3 evil.py", message)
	}
	result := events[len(events)-1]
	denials, _ := result["permission_denials"].([]any)
	if len(denials) != 1 {
		t.Fatalf("permission_denials = %v, want the Bash call", result["permission_denials"])
	}
	denial := denials[0].(map[string]any)
	if denial["tool_name"] != "Bash" || denial["tool_use_id"] != "b1" ||
		denial["tool_input"].(map[string]any)["command"] != "cd sub && python3 evil.py" {
		t.Errorf("denial = %v", denial)
	}
	if told := contentText(lastResults(t, r.srv, 1)[0]); !strings.Contains(told, "python3 evil.py") {
		t.Errorf("the model was told %q, want the reason naming python3 evil.py", told)
	}
}

// A whole-tool deny, from a settings file or from --disallowedTools, removes
// the tool before the model sees it: it is absent from init and from the request.
func TestDeniedToolsAreAbsentFromInit(t *testing.T) {
	r := newRun(t)
	writeSettings(t, r.dir, ".mini-claude/settings.json", `{"permissions":{"deny":["Bash"]}}`)
	r.srv.Push(text("ok"))
	out := r.exec("-p", "hi", "--output-format", "stream-json", "--verbose", "--disallowedTools", "Write")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	init := lines(t, out.stdout)[0]
	var names []string
	for _, name := range init["tools"].([]any) {
		names = append(names, name.(string))
	}
	if init["subtype"] != "init" || slices.Contains(names, "Bash") || slices.Contains(names, "Write") || !slices.Contains(names, "Read") {
		t.Errorf("init tools = %v, want Read without Bash (settings deny) and Write (--disallowedTools)", names)
	}
	var offered []string
	for _, tl := range r.srv.Requests()[0].Tools {
		offered = append(offered, tl.Name)
	}
	if slices.Contains(offered, "Bash") || slices.Contains(offered, "Write") || !slices.Contains(offered, "Read") {
		t.Errorf("tools offered to the model = %v", offered)
	}
}
