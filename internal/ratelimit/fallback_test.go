package ratelimit_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/faulttest"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/redistest"
)

var _ ratelimit.Limiter = (*ratelimit.Fallback)(nil)

// failing is a shared limiter that cannot decide, as Redis when it is away.
type failing struct{ calls int }

func (f *failing) Allow(ctx context.Context, key string) (ratelimit.Decision, error) {
	return f.AllowN(ctx, key, 1)
}

func (f *failing) AllowN(context.Context, string, int) (ratelimit.Decision, error) {
	f.calls++
	return ratelimit.Decision{}, errors.New("redis: connection refused")
}

// With its shared limiter away, a Fallback never fails open: each node
// allows its share of the limit, the limit divided by the live nodes.
func TestFallback_LocalShare(t *testing.T) {
	for _, tc := range []struct{ limit, nodes, want int }{{30, 3, 10}, {30, 1, 30}, {5, 10, 1}} {
		shared := &failing{}
		nodes := tc.nodes
		f := ratelimit.NewFallback(shared, tc.limit, time.Minute, func() int { return nodes })
		c := newClock()
		f.Now = c.Now
		allowed := 0
		for i := 0; i < 3*tc.limit; i++ {
			if mustAllow(t, f, "ip").Allowed {
				allowed++
			}
		}
		if allowed != tc.want {
			t.Errorf("limit %d over %d nodes: %d allowed locally, want %d", tc.limit, tc.nodes, allowed, tc.want)
		}
		if shared.calls != 3*tc.limit {
			t.Errorf("the shared limiter was asked %d times, want every time (%d)", shared.calls, 3*tc.limit)
		}
	}
}

// A Fallback decides with its shared limiter while that answers.
func TestFallback_Shared(t *testing.T) {
	client, prefix := redistest.MustClient(t)
	a := ratelimit.NewFallback(ratelimit.NewRedis(client, prefix, 4, time.Minute), 4, time.Minute, func() int { return 2 })
	b := ratelimit.NewFallback(ratelimit.NewRedis(client, prefix, 4, time.Minute), 4, time.Minute, func() int { return 2 })
	for i, l := range []ratelimit.Limiter{a, b, a, b} {
		if d := mustAllow(t, l, "ip"); !d.Allowed {
			t.Fatalf("call %d: %+v", i+1, d)
		}
	}
	if d := mustAllow(t, a, "ip"); d.Allowed {
		t.Fatal("over the shared budget: allowed")
	}
}

// A decision sent into a stalled connection, whose caller gave up and
// decided without Redis, charges nothing when Redis finally runs it.
func TestRedis_LateDecisionChargesNothing(t *testing.T) {
	direct, prefix := redistest.MustClient(t)
	client, proxy := faulttest.Redis(t, 200*time.Millisecond)

	nodes := ratelimit.NewNodes(client, prefix, 0)
	if err := nodes.Beat(context.Background()); err != nil {
		t.Fatal(err)
	}
	if off, ok := nodes.Offset(); !ok || off > time.Second || off < -time.Second {
		t.Fatalf("clock offset %v %v, want measured (this machine runs Redis)", off, ok)
	}
	l := ratelimit.NewRedis(client, prefix+"late:", 10, time.Minute)
	l.Timeout = 200 * time.Millisecond
	l.Offset = nodes.Offset
	proxy.Stall()
	if _, err := l.AllowN(context.Background(), "k", 10); err == nil {
		t.Fatal("a decision through a stalled connection: no error")
	}
	// The stall outlasts the caller's deadline by more than the clocks'
	// offset can be off (half a round trip).
	time.Sleep(100 * time.Millisecond)
	proxy.Restore()
	proxy.WaitDrained()
	// The script has reached Redis; it must have left the key alone.
	if d := mustAllow(t, ratelimit.NewRedis(direct, prefix+"late:", 10, time.Minute), "k"); !d.Allowed || d.Remaining != 9 {
		t.Fatalf("after the late decision: %+v, want the whole budget (9 remaining after this call)", d)
	}
}

// Nodes counts the live nodes of a Redis by their heartbeats, and a node
// that stops leaves the count.
func TestNodes(t *testing.T) {
	client, prefix := redistest.MustClient(t)
	a := ratelimit.NewNodes(client, prefix, 0)
	b := ratelimit.NewNodes(client, prefix, 0)
	if a.Count() != 1 {
		t.Fatalf("before any heartbeat: %d, want 1", a.Count())
	}
	ctx := context.Background()
	for _, n := range []*ratelimit.Nodes{a, b, a} {
		if err := n.Beat(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if a.Count() != 2 || b.Count() != 2 {
		t.Fatalf("counts %d and %d, want 2 and 2", a.Count(), b.Count())
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { b.Run(runCtx, slog.Default()); close(done) }()
	stop()
	<-done
	if err := a.Beat(ctx); err != nil {
		t.Fatal(err)
	}
	if a.Count() != 1 {
		t.Fatalf("after b stopped: %d, want 1", a.Count())
	}
	if c := ratelimit.NewNodes(client, prefix, 5); c.Count() != 5 {
		t.Fatalf("configured: %d, want 5", c.Count())
	}
}
