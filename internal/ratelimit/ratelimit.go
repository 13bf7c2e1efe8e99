// Package ratelimit decides whether an event keyed by a client (an IP, a
// client id) may happen now, under a limit of at most Limit events per Window.
//
// Memory keeps its state in the process; Redis keeps it in Redis so that
// every node shares one budget. Both implement Limiter, so callers take a
// Limiter and never a concrete type.
package ratelimit

import (
	"context"
	"time"
)

// Limiter is a sliding-log rate limiter: at most Limit events per Window per key.
//
// Every implementation guarantees:
//
//   - Exactness: for each key, in any half-open interval [t, t+Window) at most
//     Limit calls to Allow return Allowed. The window slides; there are no
//     fixed window boundaries across which a client can burst 2×Limit.
//   - Only allowed calls count: a denied call does not consume budget, so a
//     client that keeps retrying is let through as soon as its oldest allowed
//     event leaves the window.
//   - RetryAfter of a denied Decision is the time until the next call would
//     be allowed (the oldest counted event's age reaching Window); it is 0
//     when Allowed. Remaining is how many more calls would be allowed now.
//   - Scope: the budget is shared by everyone calling the same state holder.
//     For Memory that is one process: with N nodes a key may get up to
//     N×Limit events per Window. Redis shares one budget across all nodes
//     that use the same Redis and key prefix, Limit in total, and measures
//     the window on the Redis server's clock so that nodes' clocks need not
//     agree.
//   - Errors: a non-nil error means the limiter could not decide (for
//     instance Redis is unreachable); the Decision is then meaningless and the
//     caller chooses whether to fail open or closed. Memory never fails.
//
// Implementations are safe for concurrent use.
type Limiter interface {
	Allow(ctx context.Context, key string) (Decision, error)
}

// Decision is the outcome of one Limiter.Allow call.
type Decision struct {
	Allowed    bool
	Remaining  int
	RetryAfter time.Duration
}
