package rpcproxy

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"
)

// Health probes. Ranking learns from traffic, so an upstream that stopped
// getting calls (it failed, or another was faster) would keep a stale score,
// and a node that falls behind the chain answers "latest" with old state
// while looking fast. Every ProbeInterval the proxy asks each upstream of
// each network that served traffic in the last ProbeIdle for its head
// (eth_blockNumber; getSlot on Solana). The answer feeds the latency and
// error ranking like any call, and an upstream more than MaxLag blocks
// behind the best head ranks as if it failed half its calls. The highest
// head also tells the cache which blocks are final. Networks nobody uses are
// never probed: latchd contacts an operator's upstream only on behalf of
// traffic.

// lagPenalty is added to the score of an upstream behind the best head.
const lagPenalty = errorPenalty / 2

// headMethod is the JSON-RPC call that returns a network's head, by namespace.
var headMethod = map[string]string{
	"eip155": `{"jsonrpc":"2.0","id":0,"method":"eth_blockNumber","params":[]}`,
	"solana": `{"jsonrpc":"2.0","id":0,"method":"getSlot","params":[{"commitment":"processed"}]}`,
}

// RunProbes probes upstream health every cfg.ProbeInterval until ctx ends.
// It does nothing when ProbeInterval is 0.
func (p *Proxy) RunProbes(ctx context.Context) {
	if p.cfg.ProbeInterval <= 0 {
		return
	}
	t := time.NewTicker(p.cfg.ProbeInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			p.Probe(ctx)
		}
	}
}

// Probe asks every upstream of the recently used networks for its head,
// concurrently, and waits for the answers (each bounded by AttemptTimeout).
func (p *Proxy) Probe(ctx context.Context) {
	now := p.cfg.Now()
	p.mu.Lock()
	var pools []*pool
	for _, pl := range p.pools {
		if now.Sub(time.Unix(0, pl.lastUsed.Load())) <= p.cfg.ProbeIdle {
			pools = append(pools, pl)
		}
	}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, pl := range pools {
		ns, _, _ := strings.Cut(pl.network, ":")
		body, ok := headMethod[ns]
		if !ok {
			continue
		}
		for _, u := range pl.ups {
			wg.Go(func() { p.probe(ctx, pl, u, []byte(body)) })
		}
	}
	wg.Wait()
}

func (p *Proxy) probe(ctx context.Context, pl *pool, u *upstream, body []byte) {
	ctx, cancel := context.WithTimeout(ctx, p.probeTimeout())
	defer cancel()
	res := p.attempt(ctx, pl, u, body, false)
	if res.class != "" || res.single == nil || res.single.Error != nil {
		return
	}
	head, ok := parseHead(res.single.Result)
	if !ok {
		return
	}
	u.mu.Lock()
	u.head = head
	u.mu.Unlock()
	p.mu.Lock()
	if head > p.heads[pl.network] {
		p.heads[pl.network] = head
	}
	p.mu.Unlock()
}

func (p *Proxy) probeTimeout() time.Duration {
	if p.cfg.AttemptTimeout > 0 {
		return p.cfg.AttemptTimeout
	}
	return p.cfg.Timeout
}

// parseHead reads a head answer: a hex quantity (EVM) or a number (Solana).
func parseHead(raw json.RawMessage) (uint64, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return parseQuantity(s)
	}
	var n uint64
	if json.Unmarshal(raw, &n) == nil {
		return n, true
	}
	return 0, false
}
