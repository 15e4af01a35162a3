package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The hooks of PermissionRequest and PostCompact in the interactive UI, in tmux.

func TestTUIPermissionRequestHookAnswersBeforeTheDialog(t *testing.T) {
	for _, tt := range []struct {
		name, decision string
		created        bool
		told           string
	}{
		{"allow", `{"behavior":"allow"}`, true, ""},
		{"deny", `{"behavior":"deny","message":"Denied by PermissionRequest hook"}`, false, "Denied by PermissionRequest hook"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(t)
			answer := `echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":` + strings.ReplaceAll(tt.decision, `"`, `\"`) + `}}'`
			hookSettings(t, r, `{"PermissionRequest": [{"matcher": "Bash", "hooks": [`+logHook("requests.jsonl")+`, {"type": "command", "command": "`+answer+`"}]}]}`)
			r.srv.Push(calls(bashUse("b1", "touch made-by-bash")), text("Finished."))
			s := openScreen(t, r)
			s.typeLine("make the file")
			shot := s.waitFor("Finished.")
			if strings.Contains(shot, "Bash wants permission") {
				t.Errorf("the dialog opened although the hook answered:\n%s", shot)
			}
			if _, err := os.Stat(filepath.Join(r.dir, "made-by-bash")); (err == nil) != tt.created {
				t.Errorf("file created = %v, want %v", err == nil, tt.created)
			}
			result := lastResults(t, r.srv, 1)[0]
			if tt.told != "" && (!result.IsError || contentText(result) != tt.told) || tt.told == "" && result.IsError {
				t.Errorf("the model was told %q (error %v), want %q", contentText(result), result.IsError, tt.told)
			}
			in := logged(t, r, "requests.jsonl", 1)[0]
			if in["tool_name"] != "Bash" || in["permission_mode"] != "default" {
				t.Errorf("PermissionRequest input %v", in)
			}
		})
	}
}

func TestTUIPermissionRequestHookWithoutADecisionLeavesTheDialog(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, `{"PermissionRequest": [{"hooks": [{"type": "command", "command": "echo 'PermissionRequest says no' >&2; exit 2"}]}]}`)
	r.srv.Push(calls(bashUse("b1", "touch made-by-bash")), text("Finished."))
	s := openScreen(t, r)
	s.typeLine("make the file")
	s.waitFor("Bash wants permission")
	s.run("send-keys", "-t", "0", "-l", "1")
	s.waitFor("Finished.")
	if _, err := os.Stat(filepath.Join(r.dir, "made-by-bash")); err != nil {
		t.Error("the call the user allowed did not run")
	}
}

func TestTUICompactRunsPostCompactHooksWithClaudeCodesStdin(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, `{"PostCompact": [{"matcher": "manual", "hooks": [`+logHook("compact.jsonl")+`]}]}`)
	answer := "<analysis>\nThe session ran its steps.\n</analysis>\n\n<summary>\nSUMMARY: the hook session read, ran, wrote and edited files.\n</summary>"
	r.srv.Push(text("The build uses make."), text(answer))
	s := openScreen(t, r)
	s.typeLine("how is it built?")
	s.waitFor("The build uses make.")
	s.typeLine("/compact")
	s.waitFor("Conversation compacted")
	logged(t, r, "compact.jsonl", 1)
	data, _ := os.ReadFile(filepath.Join(r.dir, "compact.jsonl"))
	sameStdin(t, "PostCompact", []byte(strings.TrimSpace(string(data))), recordedStdin(t, "events/PostCompact.json", 0), r.dir)
}
