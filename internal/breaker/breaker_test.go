package breaker_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/breaker"
	"github.com/latchkit/latch/internal/httpx"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newBreaker(changes *[]string) (*breaker.Breaker, *clock) {
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	b := breaker.New(breaker.Config{Name: "db", Failures: 3, OpenFor: time.Second, Now: c.Now, OnChange: func(from, to breaker.State) {
		*changes = append(*changes, from.String()+">"+to.String())
	}})
	return b, c
}

func fail(t *testing.T, b *breaker.Breaker, n int) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < n; i++ {
		if err := b.Allow(ctx); err != nil {
			t.Fatalf("failure %d: refused: %v", i+1, err)
		}
		b.Record(ctx, breaker.Failed)
	}
}

func TestBreaker(t *testing.T) {
	ctx := context.Background()
	t.Run("OpensAfterConsecutiveFailures", func(t *testing.T) {
		var changes []string
		b, _ := newBreaker(&changes)
		fail(t, b, 2)
		b.Allow(ctx)
		b.Record(ctx, breaker.Succeeded) // a success resets the count
		fail(t, b, 2)
		if b.State() != breaker.Closed {
			t.Fatalf("after 2 consecutive failures: %v, want closed", b.State())
		}
		fail(t, b, 1)
		if b.State() != breaker.Open {
			t.Fatalf("after 3 consecutive failures: %v, want open", b.State())
		}
		err := b.Allow(ctx)
		var open *breaker.OpenError
		if !errors.As(err, &open) || !errors.Is(err, breaker.ErrOpen) || open.RetryAfter != time.Second {
			t.Fatalf("open breaker: %v, want an OpenError with RetryAfter 1s", err)
		}
		if len(changes) != 1 || changes[0] != "closed>open" {
			t.Fatalf("changes %v", changes)
		}
	})
	t.Run("HalfOpenProbe", func(t *testing.T) {
		var changes []string
		b, c := newBreaker(&changes)
		fail(t, b, 3)
		c.Add(999 * time.Millisecond)
		if err := b.Allow(ctx); err == nil {
			t.Fatal("allowed before OpenFor passed")
		}
		c.Add(time.Millisecond)
		if err := b.Allow(ctx); err != nil {
			t.Fatalf("probe refused: %v", err)
		}
		if err := b.Allow(ctx); err == nil {
			t.Fatal("a second call allowed while the probe runs")
		}
		b.Record(ctx, breaker.Failed) // the probe failed: open again
		if b.State() != breaker.Open {
			t.Fatalf("after a failed probe: %v", b.State())
		}
		c.Add(time.Second)
		b.Allow(ctx)
		b.Record(ctx, breaker.Abandoned) // the caller left: another probe may go
		if err := b.Allow(ctx); err != nil {
			t.Fatalf("after an abandoned probe: %v", err)
		}
		b.Record(ctx, breaker.Succeeded)
		if b.State() != breaker.Closed {
			t.Fatalf("after a good probe: %v", b.State())
		}
		want := []string{"closed>open", "open>half-open", "half-open>open", "open>half-open", "half-open>closed"}
		if len(changes) != len(want) {
			t.Fatalf("changes %v, want %v", changes, want)
		}
		for i := range want {
			if changes[i] != want[i] {
				t.Fatalf("changes %v, want %v", changes, want)
			}
		}
	})
	t.Run("Scope", func(t *testing.T) {
		var changes []string
		b, _ := newBreaker(&changes)
		other, _ := newBreaker(&changes)
		req := breaker.WithScope(ctx)
		b.Allow(req)
		b.Record(req, breaker.Failed)
		if err := b.Allow(req); !errors.Is(err, breaker.ErrOpen) {
			t.Fatalf("same request after a failure: %v, want refused at once", err)
		}
		if err := other.Allow(req); err != nil {
			t.Fatalf("another dependency in the same request: %v", err)
		}
		if err := b.Allow(breaker.WithScope(ctx)); err != nil {
			t.Fatalf("another request: %v (one failure does not open the breaker)", err)
		}
	})
}

// An outage is answered 503 with a Retry-After and code unavailable; its
// cause stays in the log.
func TestUnavailable_HTTP(t *testing.T) {
	err := breaker.Unavailable("the database", 2500*time.Millisecond, errors.New("dial tcp: connection refused"))
	if apperr.Code(err) != apperr.Unavailable {
		t.Fatalf("code %q", apperr.Code(err))
	}
	w := httptest.NewRecorder()
	httpx.Error(w, httptest.NewRequest("GET", "/", nil), err)
	if w.Code != 503 || w.Header().Get("Retry-After") != "3" || !strings.Contains(w.Body.String(), `"code":"unavailable"`) || strings.Contains(w.Body.String(), "refused") {
		t.Fatalf("answer %d %q %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	// A dependency's failure no service turned into an apperr is an outage
	// too, not a bug.
	for _, raw := range []error{
		context.DeadlineExceeded,
		fmt.Errorf("siwx: store nonce: %w", &breaker.OpenError{Dependency: "redis", RetryAfter: 1500 * time.Millisecond}),
		fmt.Errorf("store: %w", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}),
	} {
		w = httptest.NewRecorder()
		httpx.Error(w, httptest.NewRequest("GET", "/", nil), raw)
		if w.Code != 503 || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), `"code":"unavailable"`) {
			t.Errorf("%v: %d %q %s, want 503 unavailable with Retry-After", raw, w.Code, w.Header().Get("Retry-After"), w.Body)
		}
	}
	w = httptest.NewRecorder()
	httpx.Error(w, httptest.NewRequest("GET", "/", nil), errors.New("a bug"))
	if w.Code != 500 {
		t.Errorf("any other error: %d, want 500", w.Code)
	}
}
