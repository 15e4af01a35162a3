package main

import (
	"testing"
	"time"
)

func TestFiguresArePrintedAsMediansWithTheirRangeAndRatios(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		got, want string
	}{
		{spread([]time.Duration{30 * ms, 10 * ms, 200 * ms}), "30.0 ms (10.0–200)"},
		{ratio(12.7, 132), "0.096 (1/10.4)"},
		{ratio(3, 2), "1.50"},
		{ratio(1, 0), "—"},
		{msText(1500 * time.Microsecond), "1.5"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
