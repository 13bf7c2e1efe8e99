// Package poll waits for a condition to hold, so that tests wait on what
// they expect instead of sleeping for a guessed time.
package poll

import (
	"testing"
	"time"
)

// interval is how often a condition is checked between wakes: short enough
// that a test waits little past the moment it holds, long enough that
// checking costs nothing next to the work under test.
const interval = 2 * time.Millisecond

// Until reports whether cond holds within timeout. It checks cond at once,
// then on every value received from wake (nil: none) and every interval.
func Until(timeout time.Duration, wake <-chan struct{}, cond func() bool) bool {
	if cond() {
		return true
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-deadline.C:
			return cond()
		case <-wake:
		case <-tick.C:
		}
		if cond() {
			return true
		}
	}
}

// For fails tb unless cond holds within timeout.
func For(tb testing.TB, timeout time.Duration, cond func() bool) {
	tb.Helper()
	if !Until(timeout, nil, cond) {
		tb.Fatalf("condition not met within %v", timeout)
	}
}
