package poll

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestUntil(t *testing.T) {
	t.Run("HoldsAtOnce", func(t *testing.T) {
		if !Until(time.Hour, nil, func() bool { return true }) {
			t.Fatal("a condition that holds was not seen")
		}
	})
	t.Run("HoldsLater", func(t *testing.T) {
		var n atomic.Int32
		if !Until(5*time.Second, nil, func() bool { return n.Add(1) == 3 }) {
			t.Fatal("a condition that came to hold was not seen")
		}
	})
	t.Run("Wake", func(t *testing.T) {
		wake := make(chan struct{})
		var ready atomic.Bool
		go func() {
			ready.Store(true)
			wake <- struct{}{}
		}()
		if !Until(5*time.Second, wake, ready.Load) {
			t.Fatal("a woken condition was not seen")
		}
	})
	t.Run("TimesOut", func(t *testing.T) {
		start := time.Now()
		if Until(20*time.Millisecond, nil, func() bool { return false }) {
			t.Fatal("a condition that never holds was reported")
		}
		if time.Since(start) < 20*time.Millisecond {
			t.Fatal("returned before its timeout")
		}
	})
}
