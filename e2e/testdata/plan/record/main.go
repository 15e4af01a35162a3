// Command record runs the real Claude Code 2.1.332 against the scripted model
// of internal/llm/llmtest and keeps every request it sent, for the plan-mode
// goldens of e2e/testdata/plan (see README.md there):
//
//	go run ./e2e/testdata/plan/record SCRIPT OUTDIR [claude flags…]
//	TUI=1 go run ./e2e/testdata/plan/record SCRIPT OUTDIR [claude flags…]
//
// SCRIPT is an llmtest script (cmd/llmtest-serve documents it) whose tool
// inputs may name PLANFILE (the plan file the plan-mode reminder names) and
// PROJ (the project folder). Headless, it runs claude -p "Do the task." with
// stream-json output; with TUI=1 it opens claude in the tmux server "planx"
// (150x45) for the recorder to drive with tmux send-keys, until the file
// /tmp/planx/stop appears. OUTDIR gets req<N>.json, each request's body.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/goldenfile/recorder"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func main() {
	s, err := recorder.NewScratch("planx-", "plan", true)
	if err != nil {
		panic(err)
	}
	dir, proj, home := s.Dir, s.Proj, s.Home
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	os.WriteFile(filepath.Join(proj, "a.txt"), []byte("hello\n"), 0o644)
	if err := recorder.WriteState(home, proj); err != nil {
		panic(err)
	}
	srv, _ := llmtest.Start()
	defer srv.Close()
	turns, err0 := llmtest.LoadScript(os.Args[1])
	if err0 != nil {
		panic(err0)
	}
	planRe := regexp.MustCompile(`(/[^ ]*/\.claude/plans/[a-z-]+\.md)`)
	plan := ""
	srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		i := req.AssistantTurns()
		if m := planRe.FindStringSubmatch(string(req.Body)); m != nil && plan == "" {
			plan = m[1]
		}
		if i >= len(turns) {
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}}
		}
		t := turns[i]
		var bl []llm.ContentBlock
		for _, b := range t.Blocks {
			if b.Type == llm.BlockToolUse {
				b.Input = json.RawMessage(strings.ReplaceAll(strings.ReplaceAll(string(b.Input), "PLANFILE", plan), "PROJ", proj))
			}
			bl = append(bl, b)
		}
		t.Blocks = bl
		return t
	})
	if os.Getenv("TUI") != "" {
		args := append([]string{"--model", recorder.Model}, os.Args[3:]...)
		env := recorder.Env(home, srv.URL, "TERM=xterm-256color")
		command := "env -i " + strings.Join(env, " ") + " " + recorder.DefaultClaude() + " " + strings.Join(args, " ")
		exec.Command("tmux", "-L", "planx", "new-session", "-d", "-s", "c", "-x", "150", "-y", "45", "-c", proj, command).Run()
		fmt.Println("dir", dir)
		for {
			if _, err := os.Stat("/tmp/planx/stop"); err == nil {
				break
			}
			time.Sleep(300 * time.Millisecond)
		}
		os.Remove("/tmp/planx/stop")
		exec.Command("tmux", "-L", "planx", "kill-server").Run()
		out := os.Args[2]
		os.MkdirAll(out, 0o755)
		for i, r := range srv.Requests() {
			os.WriteFile(filepath.Join(out, fmt.Sprintf("req%d.json", i)), r.Body, 0o644)
		}
		return
	}
	args := append([]string{"-p", "Do the task.", "--output-format", "stream-json", "--verbose", "--model", recorder.Model}, os.Args[3:]...)
	res, err := recorder.Command{Path: recorder.DefaultClaude(), Args: args, Dir: proj, Env: recorder.Env(home, srv.URL)}.Run(context.Background())
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("exit status %d", res.ExitCode)
	}
	out := os.Args[2]
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "stdout.jsonl"), res.Stdout, 0o644)
	os.WriteFile(filepath.Join(out, "stderr.txt"), res.Stderr, 0o644)
	for i, r := range srv.Requests() {
		os.WriteFile(filepath.Join(out, fmt.Sprintf("req%d.json", i)), r.Body, 0o644)
	}
	fmt.Println("err", err, "dir", dir)
}
