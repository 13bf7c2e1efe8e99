package telemetry_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/breaker"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/telemetry"
)

// outage is a SQLite database whose breaker the test opens and closes, as
// if the database went away and came back.
type outage struct {
	db    *store.DB
	b     *breaker.Breaker
	clock *clock
}

func newOutage(t *testing.T) *outage {
	t.Helper()
	o := &outage{clock: newClock()}
	o.b = breaker.New(breaker.Config{Name: "sqlite", Failures: 1, OpenFor: time.Second, Now: o.clock.Now})
	db, err := store.OpenWith(context.Background(), "", t.TempDir(), store.Options{Breaker: o.b})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	o.db = db
	return o
}

// down opens the breaker: every database call fails at once.
func (o *outage) down() {
	ctx := context.Background()
	o.b.Allow(ctx)
	o.b.Record(ctx, breaker.Failed)
}

// up lets the breaker's next probe through (the database answers it).
func (o *outage) up() { o.clock.Add(time.Second) }

// While the database is away, telemetry is accepted into memory (202) and
// written once it is back; past the buffer's bound it is refused (503),
// counted, and nothing acknowledged is lost.
func TestService_Buffer(t *testing.T) {
	o := newOutage(t)
	var dropped, flushed atomic.Int64
	h, svc := newHarnessOn(t, o.db, telemetry.Config{
		BufferBytes:   4 << 10,
		OnBufferDrop:  func(n int) { dropped.Add(int64(n)) },
		OnBufferFlush: func(n int) { flushed.Add(int64(n)) },
	})
	o.down()
	w := h.post(h.on, "/batch", batch(pending("00000000-0000-4000-8000-000000000001", "track", "MODAL_OPEN", now), pending("00000000-0000-4000-8000-000000000002", "track", "CONNECT_SUCCESS", now)))
	wantStatus(t, w, http.StatusAccepted)
	if n, _ := svc.Buffered(); n != 2 {
		t.Fatalf("buffered %d events, want 2", n)
	}
	// Over the bound: refused, whole, and counted.
	big := make([]map[string]any, 0, 8)
	for i := 0; i < 8; i++ {
		big = append(big, pending(newID(i), "track", "MODAL_OPEN", now))
	}
	w = h.post(h.on, "/batch", batch(big...))
	wantError(t, w, http.StatusServiceUnavailable, "")
	if w.Header().Get("Retry-After") == "" || dropped.Load() != 8 {
		t.Fatalf("refused batch: Retry-After %q, %d counted dropped; want a Retry-After and 8", w.Header().Get("Retry-After"), dropped.Load())
	}
	if n, _ := svc.Buffered(); n != 2 {
		t.Fatalf("buffered %d events after the refusal, want still 2", n)
	}

	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { svc.RunBuffer(ctx); close(done) }()
	defer func() { stop(); <-done }()
	o.up()
	waitUntil(t, func() bool { n, _ := svc.Buffered(); return n == 0 })
	if got := storedEvents(t, o.db, h.on.ID); len(got) != 2 || flushed.Load() != 2 {
		t.Fatalf("after the database came back: %d stored, %d counted flushed; want 2 and 2", len(got), flushed.Load())
	}
	// Back to storing at once.
	w = h.post(h.on, "/batch", batch(pending("00000000-0000-4000-8000-000000000003", "track", "MODAL_OPEN", now)))
	wantStatus(t, w, http.StatusNoContent)
}

// A buffer left when latchd stops is written if the database is back
// within the last flush's budget.
func TestService_BufferFlushedAtShutdown(t *testing.T) {
	o := newOutage(t)
	h, svc := newHarnessOn(t, o.db, telemetry.Config{})
	o.down()
	wantStatus(t, h.post(h.on, "/batch", batch(pending("00000000-0000-4000-8000-000000000009", "track", "MODAL_OPEN", now))), http.StatusAccepted)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { svc.RunBuffer(ctx); close(done) }()
	stop() // latchd stops while the database is still away...
	o.up() // ...and it comes back during the last flush
	<-done
	if got := storedEvents(t, o.db, h.on.ID); len(got) != 1 {
		t.Fatalf("stored at shutdown: %d, want 1", len(got))
	}
}

func newID(i int) string {
	return "00000000-0000-4000-8000-1000000000" + string(rune('0'+i/10)) + string(rune('0'+i%10))
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
