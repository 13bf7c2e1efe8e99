package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestParseRelayRates(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int // nil: an error
	}{
		{"closed", []int{0}},
		{"10000,20000", []int{10000, 20000}},
		{"5000, closed", []int{5000, 0}},
		{"0", nil},
		{"-5", nil},
		{"fast", nil},
		{"", nil},
	} {
		got, err := parseRelayRates(tc.in)
		if tc.want == nil {
			if err == nil {
				t.Errorf("%q: %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestRelayResult_Capacity(t *testing.T) {
	r := relayResult{serverCPU: 25, clientCPU: 15}
	want := fmt.Sprintf("40.0 µs of CPU per message (latchd + load generator) leaves room for %d msg/s on %d cores", runtime.NumCPU()*25000, runtime.NumCPU())
	if got := r.capacity(); got != want {
		t.Errorf("capacity: %q, want %q", got, want)
	}
	if got := (relayResult{}).capacity(); !strings.Contains(got, "unknown") {
		t.Errorf("capacity without CPU time: %q", got)
	}
}
