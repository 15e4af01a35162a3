package reaper

import (
	"errors"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// BenchmarkStart measures `bash -c true` started through the helper and
// waited for, against os/exec doing the same as mini-claude's own child,
// alternating in every iteration so that the load of a shared machine weighs
// on both alike; it reports the medians and, once, what starting the helper
// itself costs (its first command included), which the first command of a
// process pays.
func BenchmarkStart(b *testing.B) {
	sh := bash(b)
	first := time.Now()
	c, err := startHelper()
	if err != nil {
		b.Fatal(err)
	}
	run := func(c *client) {
		p, err := c.start(Spec{Path: sh, Args: []string{"bash", "-c", "true"}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.Wait(); err != nil {
			b.Fatal(err)
		}
	}
	run(c)
	helperStart := time.Since(first)
	c.fail(errTestDone)
	c, err = helperClient()
	if err != nil {
		b.Fatal(err)
	}
	run(c)
	var helper, direct []time.Duration
	for b.Loop() {
		start := time.Now()
		run(c)
		helper = append(helper, time.Since(start))
		start = time.Now()
		if err := exec.Command(sh, "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
		direct = append(direct, time.Since(start))
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(median(helper)), "helper-ms")
	b.ReportMetric(ms(median(direct)), "direct-ms")
	b.ReportMetric(ms(helperStart), "helper-start-ms")
}

var errTestDone = errors.New("the benchmark's own helper is done")

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
