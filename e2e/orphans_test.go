package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
)

// orphanBound is how soon after mini-claude's SIGKILL the processes its
// tools started must all be gone.
const orphanBound = 500 * time.Millisecond

// treeLeavers are the ways a command leaves processes behind that treeScript
// uses, each of which would touch marks/late-<name> a second after it started.
var treeLeavers = []string{"job", "nohup", "setsid", "daemon"}

// treeScript is a bash script that records in marks/pids its own pid and
// those of a background job, a nohup'ed job, a process in a session of its
// own and a double-forked daemon (its parent gone at once), each of which
// would touch marks/late-<name> after a second; then it runs tail.
func treeScript(marks, tail string) string {
	late := func(name string) string {
		return fmt.Sprintf("sleep 1; touch %s/late-%s; sleep 100", marks, name)
	}
	return fmt.Sprintf(`echo $$ >> %[1]s/pids
( %[2]s ) & echo $! >> %[1]s/pids
nohup bash -c '%[3]s' >/dev/null 2>&1 & echo $! >> %[1]s/pids
setsid bash -c '%[4]s' & echo $! >> %[1]s/pids
( setsid bash -c '%[5]s' & echo $! >> %[1]s/pids )
%[6]s`, marks, late("job"), late("nohup"), late("setsid"), late("daemon"), tail)
}

// selfTail makes the script itself touch marks/late-self after a second.
func selfTail(marks string) string {
	return fmt.Sprintf("sleep 1; touch %s/late-self; sleep 100", marks)
}

// TestNoOrphansAfterSIGKILL kills the binary with SIGKILL while a tool's
// processes run, in each way mini-claude starts processes, and checks that
// within orphanBound none of them runs, however it detached, and that none
// of what they would have done a second later happens.
func TestNoOrphansAfterSIGKILL(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(r *run, marks string) []string
	}{
		{"a Bash command", func(r *run, marks string) []string {
			r.srv.Push(calls(bashUse("b1", treeScript(marks, selfTail(marks)))), text("done"))
			return []string{"--tools", "Bash", "--dangerously-skip-permissions"}
		}},
		{"a background Bash command", func(r *run, marks string) []string {
			r.srv.Push(
				calls(bashUse("b1", treeScript(marks, selfTail(marks)), `"run_in_background":true`)),
				calls(llmtest.ToolUse("s1", "Sleep", `{"label":"wait","ms":60000}`)),
				text("done"))
			return []string{"--tools", "Bash,Sleep", "--dangerously-skip-permissions"}
		}},
		{"an MCP stdio server", func(r *run, marks string) []string {
			s := mcptest.Find(t)
			server := map[string]any{"command": "bash", "args": []string{"-c",
				treeScript(marks, `exec "$0" "$1" stdio`), s.Node, s.Everything}}
			r.srv.Push(calls(llmtest.ToolUse("s1", "Sleep", `{"label":"wait","ms":60000}`)), text("done"))
			return []string{"--tools", "Sleep", "--mcp-config", mcpConfig(t, map[string]any{"tree": server})}
		}},
		{"a running hook", func(r *run, marks string) []string {
			hooks, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
				"matcher": "Sleep", "hooks": []any{map[string]any{"type": "command", "command": treeScript(marks, selfTail(marks))}}}}}})
			r.userSettings(string(hooks))
			r.srv.Push(calls(llmtest.ToolUse("s1", "Sleep", `{"label":"wait","ms":10}`)), text("done"))
			return []string{"--tools", "Sleep"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRun(t)
			marks := t.TempDir()
			args := append([]string{"-p", "start things", "--output-format", "stream-json", "--verbose"}, tc.setup(r, marks)...)
			cmd := exec.Command(binary, args...)
			cmd.Dir, cmd.Env = r.dir, r.env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pids := waitForPids(t, filepath.Join(marks, "pids"), 1+len(treeLeavers), cmd, &stderr)
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed := time.Now()
			_ = cmd.Wait()
			if alive := waitGoneWithin(pids, orphanBound); len(alive) > 0 {
				t.Fatalf("%v after the SIGKILL these processes of %v still run: %v", orphanBound, pids, alive)
			}
			t.Logf("the %d processes were gone %v after the SIGKILL", len(pids), time.Since(killed).Round(time.Millisecond))
			time.Sleep(time.Until(killed.Add(1500 * time.Millisecond)))
			if late, _ := filepath.Glob(filepath.Join(marks, "late-*")); len(late) > 0 {
				t.Errorf("a side effect happened after the SIGKILL: %v", late)
			}
		})
	}
}

// waitForPids polls the file until it lists n pids, failing when the run
// ends first or after 30 s.
func waitForPids(t *testing.T, path string, n int, cmd *exec.Cmd, stderr *bytes.Buffer) []int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, _ := os.ReadFile(path)
		if fields := strings.Fields(string(data)); len(fields) >= n {
			pids := make([]int, len(fields))
			for i, f := range fields {
				pids[i], _ = strconv.Atoi(f)
			}
			return pids
		}
		if time.Now().After(deadline) || syscall.Kill(cmd.Process.Pid, 0) != nil {
			_ = cmd.Process.Kill()
			t.Fatalf("the tool's processes did not all start (pids: %q); stderr: %s", data, stderr.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// waitGoneWithin polls until none of pids runs (a zombie does not) and
// returns those still running after bound.
func waitGoneWithin(pids []int, bound time.Duration) []int {
	deadline := time.Now().Add(bound)
	for {
		var alive []int
		for _, pid := range pids {
			if processRuns(pid) {
				alive = append(alive, pid)
			}
		}
		if len(alive) == 0 || time.Now().After(deadline) {
			return alive
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// processRuns reports whether pid is a process that has not ended (not a zombie).
func processRuns(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}
