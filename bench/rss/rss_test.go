package rss

import (
	"os"
	"os/exec"
	"testing"
)

func TestTreeCountsTheChildren(t *testing.T) {
	child := exec.Command("sleep", "5")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Wait()
	defer child.Process.Kill()
	self, kid := KB(os.Getpid()), KB(child.Process.Pid)
	if self <= 0 || kid <= 0 {
		t.Fatalf("KB: self %d, child %d", self, kid)
	}
	if tree := TreeKB(os.Getpid()); tree < self+kid/2 {
		t.Errorf("TreeKB = %d, want about self %d + child %d", tree, self, kid)
	}
	// Without self, the sample is the child's alone: well below self + child.
	tests := []struct {
		self     bool
		min, max int64
	}{
		{self: true, min: self + kid/2, max: 4 * (self + kid)},
		{self: false, min: kid / 2, max: 4 * kid},
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
