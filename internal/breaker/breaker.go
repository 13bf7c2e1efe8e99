// Package breaker is the circuit breaker latchd puts in front of each
// dependency (Postgres, Redis): after consecutive failures it opens, and
// while open every call fails at once instead of waiting on a dependency
// that is not answering; after a pause it lets one call through as a probe,
// and closes again when the probe succeeds.
//
// It is small and written here rather than taken from sony/gobreaker for
// two reasons: an answer refused while the breaker is open carries a
// Retry-After, which needs the time the breaker will probe again (gobreaker
// keeps that unexported); and the closed state, the one every request
// meets, costs one atomic load before a call and one after it, where
// gobreaker takes a mutex twice per call.
package breaker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/latchkit/latch/internal/apperr"
)

// State is a breaker's state.
type State int32

// The states. Closed lets every call through; Open refuses every call;
// HalfOpen lets one probe through and refuses the others.
const (
	Closed State = iota
	Open
	HalfOpen
)

func (s State) String() string {
	switch s {
	case Closed:
		return "closed"
	case Open:
		return "open"
	}
	return "half-open"
}

// Defaults of Config.
const (
	// DefaultFailures consecutive failures open the breaker: enough that a
	// single lost packet does not, few enough that a stalled dependency
	// costs a handful of requests their full timeout before the rest fail
	// fast.
	DefaultFailures = 5
	// DefaultOpenFor is how long the breaker stays open before it probes:
	// the node serves normally again within about this long of the
	// dependency coming back.
	DefaultOpenFor = time.Second
)

// Config configures a Breaker. Zero values get the defaults.
type Config struct {
	// Name names the dependency in errors, logs and metrics ("postgres").
	Name string
	// Failures is how many consecutive failures open the breaker.
	Failures int
	// OpenFor is how long it stays open before letting a probe through.
	OpenFor time.Duration
	// OnChange, when set, is called on every change of state, from the
	// goroutine of the call that changed it and under the breaker's lock:
	// it must be quick and must not call the breaker.
	OnChange func(from, to State)
	// Now is the clock; tests replace it.
	Now func() time.Time
}

// Breaker is a circuit breaker for one dependency. It is safe for
// concurrent use.
type Breaker struct {
	cfg Config

	state    atomic.Int32
	failures atomic.Int32
	// openUntil is when an open breaker lets its next probe through (unix
	// nanoseconds).
	openUntil atomic.Int64
	// probing: a half-open breaker has let its probe through.
	probing atomic.Bool
	// mu serialises state changes (the fast paths never take it).
	mu sync.Mutex
}

// New returns a closed breaker.
func New(cfg Config) *Breaker {
	if cfg.Failures <= 0 {
		cfg.Failures = DefaultFailures
	}
	if cfg.OpenFor <= 0 {
		cfg.OpenFor = DefaultOpenFor
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Breaker{cfg: cfg}
}

// Name is the dependency's name.
func (b *Breaker) Name() string { return b.cfg.Name }

// State returns the current state.
func (b *Breaker) State() State { return State(b.state.Load()) }

// Allow reports whether a call may go to the dependency now. When it may,
// the caller must report the call's outcome with Record (or Done); when it
// may not, the error is an *OpenError. A call within a Scope (ctx) whose
// earlier call to this dependency failed is refused too: one request waits
// on a failing dependency at most once.
func (b *Breaker) Allow(ctx context.Context) error {
	if sc, ok := ctx.Value(scopeKey{}).(*scope); ok && sc.saw(b) {
		return b.openError(b.cfg.OpenFor)
	}
	if State(b.state.Load()) == Closed {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch State(b.state.Load()) {
	case Closed:
		return nil
	case Open:
		until := b.openUntil.Load()
		now := b.cfg.Now().UnixNano()
		if now < until {
			return b.openError(time.Duration(until - now))
		}
		b.probing.Store(true)
		b.setLocked(HalfOpen)
		return nil
	default: // HalfOpen: one probe at a time
		if b.probing.Load() {
			return b.openError(b.cfg.OpenFor)
		}
		b.probing.Store(true)
		return nil
	}
}

// Done records the outcome of a call Allow let through: failed reports
// whether the dependency failed (a timeout, a refused or broken
// connection), not whether the call's answer was an error the dependency
// gave on purpose (no such key, a constraint violation).
func (b *Breaker) Done(failed bool) {
	if !failed {
		if b.failures.Load() != 0 {
			b.failures.Store(0)
		}
		if State(b.state.Load()) != Closed {
			b.mu.Lock()
			if State(b.state.Load()) == HalfOpen {
				b.probing.Store(false)
				b.setLocked(Closed)
			}
			b.mu.Unlock()
		}
		return
	}
	n := b.failures.Add(1)
	state := State(b.state.Load())
	if state == Closed && int(n) < b.cfg.Failures {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch State(b.state.Load()) {
	case Closed:
		if int(b.failures.Load()) >= b.cfg.Failures {
			b.openLocked()
		}
	case HalfOpen:
		b.openLocked()
	}
}

// Abandon records a call Allow let through that ended without telling
// whether the dependency works (its caller went away first): a half-open
// breaker lets another probe through.
func (b *Breaker) Abandon() {
	if State(b.state.Load()) == HalfOpen {
		b.probing.Store(false)
	}
}

// Outcome classifies a call's error: whether the dependency failed, or the
// caller went away and the call tells nothing.
type Outcome int

// The outcomes of Record.
const (
	Succeeded Outcome = iota
	Failed
	Abandoned
)

// Record records the outcome of a call Allow let through (Done or
// Abandon); a failure is also remembered by ctx's Scope.
func (b *Breaker) Record(ctx context.Context, o Outcome) {
	switch o {
	case Abandoned:
		b.Abandon()
	case Failed:
		if sc, ok := ctx.Value(scopeKey{}).(*scope); ok {
			sc.add(b)
		}
		b.Done(true)
	default:
		b.Done(false)
	}
}

type scopeKey struct{}

// scope is the dependencies that failed during one request.
type scope struct {
	any    atomic.Bool
	mu     sync.Mutex
	failed []*Breaker
}

// WithScope returns ctx carrying a scope (latchd gives one to every
// request): within it, a dependency that failed once is not waited on
// again, so a request that makes several calls to a dependency that stalls
// before its breaker opens waits one timeout, not one per call.
func WithScope(ctx context.Context) context.Context {
	return context.WithValue(ctx, scopeKey{}, &scope{})
}

func (s *scope) saw(b *Breaker) bool {
	if !s.any.Load() {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.failed {
		if f == b {
			return true
		}
	}
	return false
}

func (s *scope) add(b *Breaker) {
	s.mu.Lock()
	s.failed = append(s.failed, b)
	s.mu.Unlock()
	s.any.Store(true)
}

func (b *Breaker) openLocked() {
	b.probing.Store(false)
	b.openUntil.Store(b.cfg.Now().Add(b.cfg.OpenFor).UnixNano())
	b.setLocked(Open)
}

// setLocked changes the state, with b.mu held.
func (b *Breaker) setLocked(to State) {
	from := State(b.state.Swap(int32(to)))
	if from != to && b.cfg.OnChange != nil {
		b.cfg.OnChange(from, to)
	}
}

func (b *Breaker) openError(retry time.Duration) *OpenError {
	return &OpenError{Dependency: b.cfg.Name, RetryAfter: retry}
}

// ErrOpen is what every *OpenError is (errors.Is): the call was refused
// without reaching the dependency.
var ErrOpen = errors.New("circuit breaker open")

// OpenError is a call refused by an open breaker: it never reached the
// dependency. RetryAfter is how long until the breaker probes again.
type OpenError struct {
	Dependency string
	RetryAfter time.Duration
}

func (e *OpenError) Error() string {
	return fmt.Sprintf("%s is unavailable (circuit breaker open; retry in %s)", e.Dependency, e.RetryAfter.Round(time.Millisecond))
}

// Is makes errors.Is(err, ErrOpen) true.
func (e *OpenError) Is(target error) bool { return target == ErrOpen }

// Unavailable returns err as the apperr the API answers an outage of
// dependency with: code unavailable (HTTP 503) with a Retry-After, the
// cause kept for the log. retry is at least a second.
func Unavailable(dependency string, retry time.Duration, cause error) *apperr.Error {
	if retry < time.Second {
		retry = time.Second
	}
	return &apperr.Error{
		Code:       apperr.Unavailable,
		Message:    "Service temporarily unavailable: " + dependency + " is not answering; retry later",
		RetryAfter: retry,
		Cause:      cause,
	}
}

// Outage returns err as the apperr Unavailable it is when err is a
// dependency's failure that no service turned into an apperr: a call an
// open breaker refused, a deadline that passed, a network error (a refused,
// reset or timed-out connection). It returns nil for anything else, which
// is a bug to answer as internal.
func Outage(err error) *apperr.Error {
	var open *OpenError
	if errors.As(err, &open) {
		return Unavailable(open.Dependency, open.RetryAfter, err)
	}
	// A connection this process closed itself (net.ErrClosed) is no
	// dependency's failure.
	var opErr *net.OpError
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) ||
		errors.As(err, &opErr) && !errors.Is(err, net.ErrClosed) {
		return Unavailable("a dependency", time.Second, err)
	}
	return nil
}
