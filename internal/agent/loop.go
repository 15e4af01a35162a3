package agent

import (
	"encoding/json"
	"fmt"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Repeats of one failing call at which the model is warned, and at which the run stops.
const (
	loopWarnAt = 3
	loopStopAt = 5
)

// loopDetector counts how often the very same call (tool and input) has failed;
// a success of that call clears its count.
type loopDetector struct {
	failures map[string]int
}

func newLoopDetector() *loopDetector {
	return &loopDetector{failures: map[string]int{}}
}

// observe records the results of a batch of calls, adds a warning to a result
// whose call failed loopWarnAt times, and returns an error wrapping ErrLoop once
// a call failed loopStopAt times.
func (d *loopDetector) observe(uses, results []llm.ContentBlock) error {
	var stop error
	for i, use := range uses {
		key := use.Name + "\x00" + canonicalJSON(use.Input)
		if !results[i].IsError {
			delete(d.failures, key)
			continue
		}
		d.failures[key]++
		switch n := d.failures[key]; {
		case n >= loopStopAt:
			stop = fmt.Errorf("%w: %s failed %d times with the same input", ErrLoop, use.Name, n)
		case n >= loopWarnAt:
			results[i].Content = append(results[i].Content, llm.TextBlock(fmt.Sprintf(
				"This exact %s call has now failed %d times. Do not repeat it unchanged: change the input, take another approach, or explain the problem to the user. At %d identical failures the session stops.",
				use.Name, n, loopStopAt)))
		}
	}
	return stop
}

// canonicalJSON re-encodes the input so that key order and spacing do not make
// two identical calls look different.
func canonicalJSON(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}
