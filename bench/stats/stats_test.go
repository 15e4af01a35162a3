package stats

import (
	"strings"
	"testing"
	"time"
)

func TestMedianIsTheMiddleValue(t *testing.T) {
	tests := []struct {
		name   string
		values []time.Duration
		want   time.Duration
	}{
		{"none", nil, 0},
		{"one", []time.Duration{5}, 5},
		{"odd, unsorted", []time.Duration{9, 1, 5}, 5},
		{"even: the upper middle", []time.Duration{4, 1, 3, 2}, 3},
	}
	for _, tt := range tests {
		if got := Median(tt.values); got != tt.want {
			t.Errorf("%s: Median(%v) = %v, want %v", tt.name, tt.values, got, tt.want)
		}
	}
	in := []float64{3, 1, 2}
	if Median(in) != 2 || in[0] != 3 {
		t.Errorf("Median of floats = %v, or it sorted its argument %v", Median(in), in)
	}
}

func TestMSKeepsMicroseconds(t *testing.T) {
	if got := MS(1234567 * time.Nanosecond); got != 1.234 {
		t.Errorf("MS = %v, want 1.234", got)
	}
}

func TestLoadAverageIsThreeFields(t *testing.T) {
	if got := LoadAverage(); got != "unknown" && len(strings.Fields(got)) != 3 {
		t.Errorf("LoadAverage = %q", got)
	}
}
