package reaper

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"testing"
	"time"
)

func TestCommandRun(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	for _, tc := range []struct {
		name, script string
		stdin        []byte
		merged       bool
		timeout      time.Duration
		grace        time.Duration
		wantOut      string
		wantErr      string
		wantStatus   string
		wantCtxErr   bool
		maxTook      time.Duration
	}{
		{name: "input to output", script: "cat; echo oops >&2; exit 4", stdin: []byte("in\n"),
			wantOut: "in\n", wantErr: "oops\n", wantStatus: "exit status 4"},
		{name: "merged output", script: "echo out; echo err >&2", merged: true, wantOut: "out\nerr\n", wantStatus: "exit status 0"},
		{name: "no input is /dev/null", script: "cat", wantStatus: "exit status 0"},
		{name: "the context's end kills the group", script: "sleep 30 & sleep 30", timeout: 100 * time.Millisecond,
			wantStatus: "signal: killed", wantCtxErr: true, maxTook: 5 * time.Second},
		{name: "with a grace the context's end asks first", script: "trap 'echo stopping; exit 3' TERM; sleep 30 & wait",
			timeout: 100 * time.Millisecond, grace: 5 * time.Second,
			wantOut: "stopping\n", wantStatus: "exit status 3", wantCtxErr: true, maxTook: 4 * time.Second},
		{name: "with a grace a command deaf to SIGTERM is killed after it", script: "trap '' TERM; sleep 30 & wait; sleep 30",
			timeout: 100 * time.Millisecond, grace: 200 * time.Millisecond,
			wantStatus: "signal: killed", wantCtxErr: true, maxTook: 5 * time.Second},
		{name: "a leftover holding the output is waited for WaitDelay only", script: "echo started; sleep 30 &",
			wantOut: "started\n", wantStatus: "exit status 0", maxTook: 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			var stdout, stderr bytes.Buffer
			cmd := Command{Path: sh, Args: []string{"bash", "-c", tc.script}, Stdin: tc.stdin,
				Stdout: &stdout, Stderr: &stderr, WaitDelay: 200 * time.Millisecond, Grace: tc.grace}
			if tc.merged {
				cmd.Stderr = &stdout
			}
			started := time.Now()
			status, err := cmd.Run(ctx)
			if took := time.Since(started); tc.maxTook > 0 && took > tc.maxTook {
				t.Errorf("took %v", took)
			}
			if tc.wantCtxErr != errors.Is(err, context.DeadlineExceeded) || !tc.wantCtxErr && err != nil {
				t.Errorf("err = %v", err)
			}
			if got := Describe(status); got != tc.wantStatus {
				t.Errorf("status %q, want %q", got, tc.wantStatus)
			}
			if stdout.String() != tc.wantOut || stderr.String() != tc.wantErr {
				t.Errorf("stdout %q stderr %q, want %q %q", stdout.String(), stderr.String(), tc.wantOut, tc.wantErr)
			}
		})
	}
}
