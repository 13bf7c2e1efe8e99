package telemetry

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

const (
	// DefaultBufferBytes bounds the events held in memory while the database
	// is away: some 30,000 typical events (about 1 KiB each), a few minutes
	// of a busy node's telemetry.
	DefaultBufferBytes = 32 << 20
	// storeBudget bounds the write of an ingest request: a healthy database
	// takes milliseconds, and one that takes longer has the events buffered
	// rather than keep the client (a page being closed) waiting.
	storeBudget = time.Second
	// flushRetry is how often a buffer the database did not take is offered
	// to it again: events are written within about this long of its return.
	flushRetry = 250 * time.Millisecond
	// finalFlush bounds the last write of the buffer when latchd stops.
	finalFlush = 5 * time.Second
	// eventOverhead is what an event costs in the buffer beyond its strings.
	eventOverhead = 256
)

// pending is one request's events that the database did not take.
type pending struct {
	projectID string
	received  time.Time
	events    []Event
	size      int64
}

// buffer holds, oldest first, the events of requests answered 202 while the
// database was away, within max bytes.
type buffer struct {
	mu      sync.Mutex
	batches []pending
	bytes   int64
	events  int
	max     int64
	wake    chan struct{}
}

func eventSize(e Event) int64 {
	return int64(len(e.ID) + len(e.Type) + len(e.Name) + len(e.URL) + len(e.Domain) + len(e.Props) + eventOverhead)
}

// add appends a batch, or reports false when it does not fit.
func (b *buffer) add(p pending) bool {
	for _, e := range p.events {
		p.size += eventSize(e)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bytes+p.size > b.max {
		return false
	}
	b.batches = append(b.batches, p)
	b.bytes += p.size
	b.events += len(p.events)
	select {
	case b.wake <- struct{}{}:
	default:
	}
	return true
}

// oldest returns the oldest batch without removing it.
func (b *buffer) oldest() (pending, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.batches) == 0 {
		return pending{}, false
	}
	return b.batches[0], true
}

// drop removes the oldest batch (once written).
func (b *buffer) drop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.batches[0]
	b.batches[0] = pending{}
	b.batches = b.batches[1:]
	b.bytes -= p.size
	b.events -= len(p.events)
}

// Buffered is the number of events, and their bytes, held in memory for the
// database.
func (s *Service) Buffered() (events int, bytes int64) {
	s.buf.mu.Lock()
	defer s.buf.mu.Unlock()
	return s.buf.events, s.buf.bytes
}

// BufferMax is the bound of the buffer, in bytes (Config.BufferBytes).
func (s *Service) BufferMax() int64 { return s.buf.max }

// RunBuffer writes the buffered events to the database, oldest first, as
// soon as it takes them, until ctx ends; then it tries once more for at
// most finalFlush and logs what could not be written.
func (s *Service) RunBuffer(ctx context.Context) {
	t := time.NewTicker(flushRetry)
	defer t.Stop()
	for {
		s.flush(ctx)
		select {
		case <-ctx.Done():
			s.finalFlush(ctx)
			return
		case <-t.C:
		case <-s.buf.wake:
		}
	}
}

// finalFlush keeps offering the buffer to the database, for at most
// finalFlush, when latchd stops: a database just back may still be behind
// its breaker for a moment.
func (s *Service) finalFlush(ctx context.Context) {
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalFlush)
	defer cancel()
	t := time.NewTicker(flushRetry)
	defer t.Stop()
	for {
		s.flush(fctx)
		n, _ := s.Buffered()
		if n == 0 {
			return
		}
		select {
		case <-fctx.Done():
			slog.Error("telemetry: database still away at shutdown; buffered events lost", "events", n)
			return
		case <-t.C:
		}
	}
}

// flush writes buffered batches until the buffer is empty or the database
// fails.
func (s *Service) flush(ctx context.Context) {
	for {
		p, ok := s.buf.oldest()
		if !ok {
			return
		}
		// Rows already stored (a write that timed out but committed) are
		// skipped by the insert's ON CONFLICT.
		if _, err := s.insert(ctx, p.projectID, p.received, p.events); err != nil {
			return
		}
		s.buf.drop()
		if s.cfg.OnBufferFlush != nil {
			s.cfg.OnBufferFlush(len(p.events))
		}
	}
}
