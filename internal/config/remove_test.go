package config

import (
	"os"
	"strings"
	"testing"
)

func TestRemoveRuleKeepsTheRestOfTheFile(t *testing.T) {
	cwd := t.TempDir()
	for _, rule := range []string{"Bash(ls:*)", "Edit(//tmp/**)"} {
		if err := AddAllowRule(cwd, rule); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := RemoveRule(cwd, "allow", "Bash(ls:*)")
	if err != nil || !removed {
		t.Fatalf("RemoveRule = %v, %v", removed, err)
	}
	data, _ := os.ReadFile(LocalPath(cwd))
	if strings.Contains(string(data), "Bash(ls:*)") || !strings.Contains(string(data), "Edit(//tmp/**)") {
		t.Errorf("settings after the removal: %s", data)
	}
	if removed, err := RemoveRule(cwd, "allow", "Bash(ls:*)"); removed || err != nil {
		t.Errorf("removing it again = %v, %v; want false, nil", removed, err)
	}
	if removed, err := RemoveRule(t.TempDir(), "deny", "Bash"); removed || err != nil {
		t.Errorf("removing from a missing file = %v, %v", removed, err)
	}
	if _, err := RemoveRule(cwd, "permit", "Bash"); err == nil {
		t.Error("an unknown list was accepted")
	}
}
