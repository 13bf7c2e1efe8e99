// Package ratelimit decides whether an event keyed by a client (an IP, a
// client id, a project) may happen now, under a limit of Limit events per
// Window.
//
// Memory keeps its state in the process; Redis keeps it in Redis so that
// every node shares one budget. Both implement Limiter with the same
// algorithm (gcra.go), so callers take a Limiter and never a concrete type.
// Fallback puts a Redis limiter in front of a local share of its limit
// (the limit divided by the live nodes, which Nodes counts), so that a limit
// never fails open while Redis is away.
package ratelimit

import (
	"context"
	"time"
)

// Limiter is a GCRA rate limiter (the generic cell rate algorithm): each key
// earns one event every Window/Limit, and may save up at most Limit of them.
// Its state per key is one timestamp, whatever the traffic.
//
// Every implementation guarantees:
//
//   - Burst and rate: a key idle for Window may spend Limit events at once;
//     after that it earns one event per Window/Limit. Over any interval of
//     length d, at most Limit + d×Limit/Window events are allowed (so at most
//     2×Limit in one Window right after an idle one, and Limit per Window on
//     average); a steady client is held to Limit per Window.
//   - Weight: AllowN(n) spends n events at once or none; Allow is AllowN(1).
//     n larger than Limit is never allowed.
//   - Only allowed calls count: a denied call does not consume budget, so a
//     client that keeps retrying is let through as soon as enough is earned.
//   - RetryAfter of a denied Decision is the time until the same call would
//     be allowed (for n > Limit, which never is: until the whole budget is
//     back); it is 0 when Allowed. Remaining is how many more single events
//     would be allowed now.
//   - Memory: constant per key (one timestamp), and a key is forgotten once
//     its budget is full again (at most Window after its last allowed event).
//   - Scope: the budget is shared by everyone calling the same state holder.
//     For Memory that is one process: with N nodes a key may get up to
//     N×Limit events per Window. Redis shares one budget across all nodes
//     that use the same Redis and key prefix, Limit in total, and measures
//     time on the Redis server's clock so that nodes' clocks need not agree.
//   - Errors: a non-nil error means the limiter could not decide (for
//     instance Redis is unreachable); the Decision is then meaningless and the
//     caller chooses whether to fail open or closed. Memory and Fallback
//     never fail.
//
// Implementations are safe for concurrent use.
type Limiter interface {
	// Allow is AllowN(ctx, key, 1).
	Allow(ctx context.Context, key string) (Decision, error)
	// AllowN records n events (n ≥ 1) for key if the key can spend them all
	// now, such as the entries of a JSON-RPC batch.
	AllowN(ctx context.Context, key string, n int) (Decision, error)
}

// Decision is the outcome of one Limiter.Allow or AllowN call.
type Decision struct {
	Allowed    bool
	Remaining  int
	RetryAfter time.Duration
}
