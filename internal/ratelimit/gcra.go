package ratelimit

import "math/bits"

// gcra is the decision both limiters make, in integer time units (Memory:
// nanoseconds; Redis runs the same steps in Lua, in microseconds).
//
// tat is the key's theoretical arrival time: when its budget is full again
// (≤ now when it is already full). Spending n events moves it n×window/limit
// later; the spend is allowed while the new tat stays within window of now.
// It returns the new tat (unchanged when denied), whether the spend is
// allowed, how many single events remain, and the wait before a retry.
func gcra(tat, now, window int64, limit, n int) (newTAT int64, allowed bool, remaining int, retryAfter int64) {
	if tat < now {
		tat = now
	}
	if n > limit {
		return tat, false, 0, tat - now
	}
	next := tat + mulDiv(int64(n), window, int64(limit))
	if allowAt := next - window; allowAt > now {
		return tat, false, 0, allowAt - now
	}
	return next, true, int(mulDiv(now+window-next, int64(limit), window)), 0
}

// mulDiv returns a×b/c rounded down, for non-negative a, b and positive c,
// without overflowing in a×b.
func mulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi%uint64(c), lo, uint64(c))
	return int64(q)
}
