package rss

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

func TestTreeCountsTheChildren(t *testing.T) {
	// A child holding about 32 MB, more than this process.
	child := exec.Command("sh", "-c", `x=$(head -c 32000000 /dev/zero | tr '\0' a); sleep 5`)
	child.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Wait()
	defer syscall.Kill(-child.Process.Pid, syscall.SIGKILL) // and its sleep
	for deadline := time.Now().Add(10 * time.Second); TreeKB(child.Process.Pid) < 30_000; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the child holds %d KB, not 32 MB", TreeKB(child.Process.Pid))
		}
	}
	self, kid := KB(os.Getpid()), TreeKB(child.Process.Pid)
	if self <= 0 {
		t.Fatalf("KB(self) = %d", self)
	}
	// With self, the sample is this process and the child; without, the
	// child alone. Memory moves a little between the reads.
	tests := []struct {
		self     bool
		min, max int64
	}{
		{self: true, min: self + kid*9/10, max: self + kid*11/10 + 4096},
		{self: false, min: kid * 9 / 10, max: kid*11/10 + self/2},
	}
	for _, tt := range tests {
		if peak := SampleTree(os.Getpid(), tt.self)(); peak < tt.min || peak > tt.max {
			t.Errorf("SampleTree(self %v) = %d KB, want %d to %d (self %d, child %d)", tt.self, peak, tt.min, tt.max, self, kid)
		}
	}
	if KB(-1) != 0 || TreeKB(-1) != 0 {
		t.Error("a process that is not there counts")
	}
}
