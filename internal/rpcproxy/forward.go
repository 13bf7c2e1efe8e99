package rpcproxy

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/latchkit/latch/internal/jsonrpc"
)

// forward sends entries to the network's upstreams as one call (one batch
// when there are several) and sets every entry's answer.
//
// Failover (spec §7–§9): the best-ranked upstream is tried first; a timeout,
// a transport failure, malformed JSON or HTTP 402/403/408/413/429/5xx moves
// to the next upstream after a backoff of 150 ms × 2^n, at most 3 retries,
// waiting at least the upstream's Retry-After. Node-level JSON-RPC errors
// (reverts, invalid params, nonce too low…) are answers, never retried. All
// attempts share the request's one budget (ctx). A call carrying a
// transaction is never sent twice to the same upstream: any attempt may have
// reached the node, even one that timed out.
//
// pinned calls (filter methods) go to the network's first upstream only: a
// filter id made on one node means nothing to another, so failing over would
// turn a slow poll into "filter not found".
func (p *Proxy) forward(ctx context.Context, pl *pool, entries []*entry, pinned bool) {
	body := upstreamBody(entries)
	sendsTx := false
	for _, e := range entries {
		sendsTx = sendsTx || e.kind == kindSend
	}
	tried := map[*upstream]bool{}
	excluded := map[*upstream]bool{}
	if pinned {
		for _, u := range pl.ups[1:] {
			excluded[u] = true
		}
	}
	last := ""
	for attempt := 0; attempt <= maxRetries; attempt++ {
		u := pl.pick(p.cfg.Now(), p.cfg.MaxLag, tried, excluded)
		if u == nil {
			break
		}
		if attempt > 0 {
			wait := baseBackoff << (attempt - 1)
			u.mu.Lock()
			if ra := u.notBefore.Sub(p.cfg.Now()); ra > wait {
				wait = ra
			}
			u.mu.Unlock()
			if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
				failAll(entries, errorResult(jsonrpc.CodeInternal, msgTimeout))
				return
			}
			if err := p.cfg.Sleep(ctx, wait); err != nil {
				failAll(entries, errorResult(jsonrpc.CodeInternal, msgTimeout))
				return
			}
		}
		tried[u] = true
		if sendsTx {
			excluded[u] = true
		}
		res := p.attempt(ctx, pl, u, body, sendsTx)
		if res.class == "" {
			p.deliver(pl, u, entries, res)
			return
		}
		if ctx.Err() != nil {
			failAll(entries, errorResult(jsonrpc.CodeInternal, msgTimeout))
			return
		}
		if !res.retryable {
			excluded[u] = true
		}
		last = res.class
		p.cfg.Logger.DebugContext(ctx, "rpc upstream attempt failed", "network", pl.network, "upstream", u.label, "class", last, "status", res.status, "attempt", attempt)
	}
	msg := "RPC request failed: no upstream is available"
	if last != "" {
		msg = "RPC request failed: the upstream nodes did not answer (" + last + ")"
	}
	failAll(entries, errorResult(jsonrpc.CodeInternal, msg))
}

func failAll(entries []*entry, res entryResult) {
	for _, e := range entries {
		e.done, e.res = true, res
	}
}

// upstreamBody builds the call with the proxy's own ids 0…n-1: clients' ids
// may repeat or be anything, and answers are matched back by position, so
// each client still gets its id byte for byte.
func upstreamBody(entries []*entry) []byte {
	buf := make([]byte, 0, 128*len(entries))
	if len(entries) > 1 {
		buf = append(buf, '[')
	}
	for i, e := range entries {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"jsonrpc":"2.0","id":`...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, `,"method":`...)
		m, _ := json.Marshal(e.method)
		buf = append(buf, m...)
		if e.params != nil {
			buf = append(buf, `,"params":`...)
			buf = append(buf, e.params...)
		}
		buf = append(buf, '}')
	}
	if len(entries) > 1 {
		buf = append(buf, ']')
	}
	return buf
}

// deliver matches an upstream answer to the entries. An entry the answer
// leaves out fails on its own; duplicates and unknown ids are ignored.
func (p *Proxy) deliver(pl *pool, u *upstream, entries []*entry, res attemptResult) {
	answers := res.answers
	if res.single != nil {
		if len(entries) > 1 && res.single.Error != nil && isNull(res.single.ID) {
			// The node refused the whole batch (e.g. too large): its error
			// is every entry's answer.
			for _, e := range entries {
				e.done, e.res = true, entryResult{Error: res.single.Error}
			}
			p.countNodeErrors(pl, u, len(entries))
			return
		}
		answers = []rpcAnswer{*res.single}
	}
	nodeErrors := 0
	for _, a := range answers {
		n, err := strconv.Atoi(string(a.ID))
		if err != nil || n < 0 || n >= len(entries) || entries[n].done {
			continue
		}
		e := entries[n]
		switch {
		case a.Error != nil && string(a.Error) != "null":
			e.done, e.res = true, entryResult{Error: a.Error}
			nodeErrors++
		case a.Result != nil:
			e.done, e.res = true, entryResult{Result: a.Result}
		}
	}
	p.countNodeErrors(pl, u, nodeErrors)
	for _, e := range entries {
		if !e.done {
			e.done, e.res = true, errorResult(jsonrpc.CodeInternal, "RPC request failed: the upstream node returned no answer for this request")
		}
	}
}

func (p *Proxy) countNodeErrors(pl *pool, u *upstream, n int) {
	if n > 0 {
		p.metrics.errors.Add(uint64(n), pl.network, u.label, classNodeError)
	}
}
