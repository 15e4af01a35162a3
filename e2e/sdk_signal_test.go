package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// A session served over stdio ends on SIGTERM or SIGINT with its input
// still open, during a turn or between turns: the turn is reported
// interrupted, the reader of the input is stopped and waited for, and the
// binary exits 130 at once.
func TestAnSDKSessionEndsOnASignalWithItsInputOpen(t *testing.T) {
	tests := []struct {
		name       string
		signal     syscall.Signal
		duringTurn bool
	}{
		{"SIGTERM during a turn", syscall.SIGTERM, true},
		{"SIGINT between turns", syscall.SIGINT, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(t)
			if tt.duringTurn {
				r.srv.Push(calls(llmtest.ToolUse("s", "Sleep", `{"label":"long","ms":60000}`)))
			} else {
				r.srv.Push(text("Hello."))
			}
			cmd := exec.Command(binary, "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
			cmd.Dir, cmd.Env = r.dir, r.env
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			io.WriteString(stdin, `{"type":"user","message":{"role":"user","content":"go"},"parent_tool_use_id":null,"session_id":""}`+"\n")
			lines := make(chan map[string]any, 100)
			go func() {
				defer close(lines)
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					var m map[string]any
					if json.Unmarshal(sc.Bytes(), &m) == nil {
						lines <- m
					}
				}
			}()
			// Until the Sleep call runs, or the first turn's result is out.
			wait := "assistant"
			if !tt.duringTurn {
				wait = "result"
			}
			var seen []string
			deadline := time.After(20 * time.Second)
			for len(seen) == 0 || seen[len(seen)-1] != wait {
				select {
				case m := <-lines:
					seen = append(seen, m["type"].(string))
				case <-deadline:
					cmd.Process.Kill()
					t.Fatalf("no %s line; saw %v", wait, seen)
				}
			}
			time.Sleep(200 * time.Millisecond)
			cmd.Process.Signal(tt.signal)
			signalled := time.Now()
			var results []string
			timeout := time.After(5 * time.Second)
		read:
			for {
				select {
				case m, ok := <-lines:
					if !ok {
						break read
					}
					if m["type"] == "result" {
						results = append(results, m["subtype"].(string))
					}
				case <-timeout:
					cmd.Process.Kill()
					t.Fatal("the binary did not exit on the signal")
				}
			}
			cmd.Wait()
			t.Logf("exited %v after the signal", time.Since(signalled).Round(time.Millisecond))
			if code := cmd.ProcessState.ExitCode(); code != 130 {
				t.Errorf("exit code %d, want 130", code)
			}
			if tt.duringTurn && strings.Join(results, " ") != "error_during_execution" {
				t.Errorf("results after the signal %v, want the turn's, interrupted", results)
			}
			if !tt.duringTurn && len(results) != 0 {
				t.Errorf("results after the signal %v, want none", results)
			}
		})
	}
}
