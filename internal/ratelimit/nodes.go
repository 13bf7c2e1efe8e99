package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Heartbeats of Nodes.
const (
	// DefaultHeartbeat is how often a node says it is alive.
	DefaultHeartbeat = 2 * time.Second
	// heartbeatMisses is how many heartbeats a node may miss before the
	// others stop counting it.
	heartbeatMisses = 3
)

// heartbeatScript records a node as alive until ARGV[2] µs from now (on
// Redis's clock), forgets the nodes whose time has passed, and returns
// {live nodes, Redis's time in µs}.
var heartbeatScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) / 1000))
return {redis.call('ZCARD', KEYS[1]), now}
`)

// Nodes tells a node how many latchd nodes share its Redis, and how far
// Redis's clock is from its own. Each node writes a heartbeat to Redis
// (Run); the count it last read is what a Fallback divides a limit by when
// Redis is away, so that the nodes together still allow the shared limit.
type Nodes struct {
	client   redis.UniversalClient
	key      string
	id       string
	interval time.Duration
	// configured, when positive, is the count instead of the heartbeats'.
	configured int

	count  atomic.Int64
	offset atomic.Int64
	known  atomic.Bool
}

// NewNodes returns the node counter for the nodes using client with key
// prefix prefix. configured > 0 fixes the count (an operator who knows it
// better: nodes that cannot all reach Redis); heartbeats still measure
// Redis's clock.
func NewNodes(client redis.UniversalClient, prefix string, configured int) *Nodes {
	var id [8]byte
	rand.Read(id[:])
	n := &Nodes{client: client, key: prefix + "nodes", id: hex.EncodeToString(id[:]), interval: DefaultHeartbeat, configured: configured}
	n.count.Store(1)
	return n
}

// Count is how many nodes share the limits: the configured count, else the
// live nodes at the last heartbeat (1 before the first).
func (n *Nodes) Count() int {
	if n.configured > 0 {
		return n.configured
	}
	return int(n.count.Load())
}

// Offset is how far Redis's clock is ahead of this node's, and whether a
// heartbeat has measured it yet.
func (n *Nodes) Offset() (time.Duration, bool) {
	return time.Duration(n.offset.Load()), n.known.Load()
}

// Beat writes one heartbeat and reads the live count and Redis's clock.
func (n *Nodes) Beat(ctx context.Context) error {
	ttl := heartbeatMisses * n.interval
	sent := time.Now()
	res, err := heartbeatScript.Run(ctx, n.client, []string{n.key}, n.id, ttl.Microseconds()).Int64Slice()
	if err != nil {
		return fmt.Errorf("ratelimit: heartbeat: %w", err)
	}
	if len(res) != 2 {
		return fmt.Errorf("ratelimit: heartbeat: script returned %d values, want 2", len(res))
	}
	got := time.Now()
	// Redis read its clock about halfway through the round trip.
	mid := sent.Add(got.Sub(sent) / 2)
	n.offset.Store(int64(time.UnixMicro(res[1]).Sub(mid)))
	n.known.Store(true)
	n.count.Store(max(res[0], 1))
	return nil
}

// Run beats now and then every interval until ctx ends, then removes this
// node from the count (a node shut down stops counting at once; one that
// dies stops after heartbeatMisses intervals). A failed beat keeps the last
// count: that is the count an outage of Redis is met with.
func (n *Nodes) Run(ctx context.Context, log *slog.Logger) {
	t := time.NewTicker(n.interval)
	defer t.Stop()
	failing := false
	for {
		bctx, cancel := context.WithTimeout(ctx, n.interval)
		err := n.Beat(bctx)
		cancel()
		switch {
		case err != nil && !failing && ctx.Err() == nil:
			log.Warn("rate limits: Redis heartbeat failed; keeping the last node count", "nodes", n.Count(), "err", err)
			failing = true
		case err == nil && failing:
			log.Info("rate limits: Redis heartbeat back", "nodes", n.Count())
			failing = false
		}
		select {
		case <-ctx.Done():
			lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			n.client.ZRem(lctx, n.key, n.id)
			cancel()
			return
		case <-t.C:
		}
	}
}
