package faulttest_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/app"
)

// The fault suite: latchd through fault proxies (proxy.go) to Postgres,
// Redis and an RPC upstream, one test per finding of issue 34 and a few
// more faults. Each fault lasts a few seconds; the nodes run with short
// bounds (harness_test.go) so that the rules hold within them:
//
//   - every answer during a fault comes within 2 s: 200 from what can still
//     be served, else 503 with Retry-After and code unavailable;
//   - the node serves normally within 2 s of the dependency's return;
//   - rate limits never fail open, and a request is charged once;
//   - nothing acknowledged is lost, and every refusal is explicit.
//
// SIGTERM drain and SIGKILL durability are in process_test.go. The tests
// run in parallel: each has its own schema, Redis prefix, proxies and
// nodes, and they spend their time waiting out faults.

// traffic sends the steady API load of the issue (RPC proxy, config,
// telemetry) from one client until stop is closed, checking each answer
// with bounded; it returns the telemetry ids acknowledged.
func traffic(t *testing.T, e *env, n *node, ip string, stop chan struct{}) (acked func() []string) {
	var mu sync.Mutex
	var ids []string
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// Four rounds a second: within the telemetry limit (60 per 10 s
		// and address), whatever the fault.
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			bounded(t, "RPC proxy (eth_blockNumber)", n.rpc(e, ip), http.StatusOK)
			bounded(t, "config", n.config(e, ip), http.StatusOK)
			id, a := n.telemetry(e, ip)
			bounded(t, "telemetry", a, http.StatusNoContent, http.StatusAccepted)
			if a.status == http.StatusNoContent || a.status == http.StatusAccepted {
				mu.Lock()
				ids = append(ids, id)
				mu.Unlock()
			}
		}
	}()
	return func() []string {
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return ids
	}
}

// runFault runs traffic through fault (a few seconds), then restores and
// checks that the node serves normally within 2 s.
func runFault(t *testing.T, e *env, n *node, fault, restore func()) []string {
	t.Helper()
	stop := make(chan struct{})
	acked := traffic(t, e, n, "203.0.113.10", stop)
	fault()
	// Long enough for every path to meet the fault, the breakers to open
	// and their probes to fail.
	time.Sleep(2500 * time.Millisecond)
	restore()
	restored := time.Now()
	waitFor(t, answerWithin, "readiness after the dependency is back", func() bool { return n.ready().status == http.StatusOK })
	close(stop)
	ids := acked()
	// Served normally again: the shared cache and limits, the database.
	for _, a := range []answer{n.rpc(e, "203.0.113.11"), n.config(e, "203.0.113.11"), n.summary(e)} {
		if a.status != http.StatusOK {
			t.Errorf("after restore: %v, want 200", a)
		}
	}
	if d := time.Since(restored); d > answerWithin+time.Second {
		t.Errorf("serving normally took %v after restore", d)
	}
	return ids
}

// Finding 1: a stalled Redis blocked the whole HTTP API (an RPC call took
// 20–30 s) and dropped busy relay sockets.
func TestFault_RedisStall(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := e.start(func(c *app.Config) { c.IPRateLimit = 100000; c.RPCProjectLimit = 100000 })

	// A busy relay socket, publishing through the stall.
	dapp, wallet := e.dialRelay(n), e.dialRelay(n)
	topic := randomHex(32)
	if _, rerr, _ := wallet.call("irn_subscribe", map[string]any{"topic": topic}); rerr != nil {
		t.Fatalf("subscribe: %v", rerr)
	}
	relayStop := make(chan struct{})
	var relayWG sync.WaitGroup
	relayWG.Add(1)
	go func() {
		defer relayWG.Done()
		for i := 0; ; i++ {
			select {
			case <-relayStop:
				return
			default:
			}
			msg := base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("busy %d", i)))
			_, _, took := dapp.call("irn_publish", map[string]any{"topic": topic, "message": msg, "ttl": 300, "tag": 1108})
			if took > answerWithin {
				t.Errorf("relay publish answered after %v", took)
			}
		}
	}()

	ids := runFault(t, e, n, e.redis.Stall, e.redis.Restore)
	close(relayStop)
	relayWG.Wait()
	if len(ids) == 0 {
		t.Fatal("no telemetry acknowledged")
	}
	// The sockets stayed up through the stall and work again.
	msg := base64.StdEncoding.EncodeToString([]byte("after the stall"))
	if _, rerr, _ := dapp.call("irn_publish", map[string]any{"topic": topic, "message": msg, "ttl": 300, "tag": 1108}); rerr != nil {
		t.Fatalf("publish after the stall: %v", rerr)
	}
	got := map[string]bool{}
	waitFor(t, answerWithin, "delivery after the stall", func() bool {
		wallet.drain(got)
		return got["after the stall"]
	})
}

// Finding 2: a stalled Postgres held requests for as long as the stall
// lasted. The project cache has expired (as in an outage longer than its
// 10 s): the RPC proxy and config are served from the last known project,
// telemetry is buffered (202) and written once Postgres is back, and a
// route only the database can answer says 503 at once.
func TestFault_PostgresStall(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := e.start(nil)
	if a := n.config(e, ""); a.status != http.StatusOK {
		t.Fatalf("config before the stall: %v", a)
	}
	ids := runFault(t, e, n, func() {
		e.pg.Stall()
		n.expireProjects()
		bounded(t, "analytics summary (database only)", n.summary(e))
	}, e.pg.Restore)
	waitFor(t, answerWithin, "buffered telemetry written", func() bool { return e.storedEvents(ids) == len(ids) })
	if got := n.metric(t, "latch_project_stale_lookups_total"); got == "" || got == "0" {
		t.Errorf("latch_project_stale_lookups_total = %q, want stale lookups counted", got)
	}
}

// Finding 3: while Postgres was away (once the project cache expired),
// every guarded route answered 500 internal, the RPC proxy included. Now
// what needs only the project is served, and the rest is 503 unavailable
// with Retry-After; so is a project never seen, and one whose last known
// settings are older than --project-max-stale.
func TestFault_PostgresCut(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := e.start(func(c *app.Config) { c.Dependencies.ProjectMaxStale = time.Minute })
	if a := n.rpc(e, ""); a.status != http.StatusOK {
		t.Fatalf("RPC before the cut: %v", a)
	}
	e.pg.Cut()
	n.expireProjects()
	for i := 0; i < 10; i++ { // through the breaker's opening
		bounded(t, "RPC proxy", n.rpc(e, ""), http.StatusOK)
		bounded(t, "config", n.config(e, ""), http.StatusOK)
		a := n.summary(e)
		bounded(t, "analytics summary", a)
		if a.status != http.StatusServiceUnavailable {
			t.Fatalf("analytics summary without a database: %v, want 503", a)
		}
	}
	unknown := call("GET", n.api+"/appkit/v1/config?projectId="+randomHex(16), "", "")
	if unknown.status != http.StatusServiceUnavailable || !strings.Contains(string(unknown.body), `"unavailable"`) {
		t.Errorf("a project not in the cache: %v, want 503 unavailable", unknown)
	}
	r := n.ready()
	if r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.body), `"down":["postgres"]`) {
		t.Errorf("readiness: %v, want 503 naming postgres", r)
	}
	n.skew.Add(int64(2 * time.Minute)) // past --project-max-stale
	bounded(t, "RPC proxy past max-stale", n.rpc(e, ""))
	if a := n.rpc(e, ""); a.status != http.StatusServiceUnavailable {
		t.Errorf("RPC past --project-max-stale: %v, want 503", a)
	}
	e.pg.Restore()
	waitFor(t, answerWithin, "readiness after the cut", func() bool { return n.ready().status == http.StatusOK })
	if a := n.rpc(e, ""); a.status != http.StatusOK {
		t.Errorf("RPC after the cut: %v", a)
	}
}

// Finding 4: with Redis cut, no request was ever refused (the limiters
// failed open). Now each node falls back to its share of the limit, known
// from the heartbeats of the two nodes; with Redis back, the limit is
// shared again.
func TestFault_RedisCutKeepsLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const limit = 200 // per minute and client address
	limited := func(c *app.Config) { c.IPRateLimit = limit }
	a := e.start(limited)
	b := e.start(limited)
	// Both heartbeats counted on both nodes (each beats on start).
	waitFor(t, 5*time.Second, "two nodes counted", func() bool {
		return a.metric(t, "latch_ratelimit_nodes") == "2" && b.metric(t, "latch_ratelimit_nodes") == "2"
	})

	e.redis.Cut()
	allowed, refused := 0, 0
	start := time.Now()
	for i := 0; i < 1500; i++ {
		r := a.config(e, "198.51.100.7")
		switch r.status {
		case http.StatusOK:
			allowed++
		case http.StatusTooManyRequests:
			refused++
		default:
			t.Fatalf("request %d with Redis cut: %v", i, r)
		}
	}
	t.Logf("Redis cut: %d allowed, %d refused (429) in %v", allowed, refused, time.Since(start).Round(time.Millisecond))
	if refused == 0 {
		t.Fatal("with Redis cut, 1,500 rapid requests from one address were all allowed: the limit failed open")
	}
	// Each of two nodes allows half the limit, plus what the budget earns
	// back while the burst runs.
	earned := int(time.Since(start).Minutes()*limit/2) + 1
	if allowed > limit/2+earned {
		t.Errorf("with Redis cut, %d allowed; want at most the node's share, %d (+%d earned)", allowed, limit/2, earned)
	}
	if got := a.metric(t, "latch_ratelimit_local"); got != "1" {
		t.Errorf("latch_ratelimit_local = %q during the cut, want 1", got)
	}
	// What needs Redis itself (sign-in nonces) is 503, not 500.
	bounded(t, "sign-in nonce with Redis cut", call("GET", a.api+"/auth/v1/nonce?projectId="+e.project, "198.51.100.9", ""))

	e.redis.Restore()
	waitFor(t, answerWithin, "readiness after the cut", func() bool { return a.ready().status == http.StatusOK })
	// Shared again: a new client's budget is spent across both nodes, the
	// limit in total (and what it earns back meanwhile), not per node.
	ip := "198.51.100.8"
	total, start2 := 0, time.Now()
	refusedBy := map[*node]bool{}
	for i := 0; len(refusedBy) < 2 && i < 3*limit; i++ {
		n := []*node{a, b}[i%2]
		switch r := n.config(e, ip); r.status {
		case http.StatusOK:
			total++
		case http.StatusTooManyRequests:
			refusedBy[n] = true
		default:
			t.Fatalf("after the cut: %v", r)
		}
	}
	earned = int(time.Since(start2).Minutes()*limit) + 1
	if len(refusedBy) < 2 || total < limit || total > limit+earned {
		t.Errorf("after the cut: %d allowed across both nodes before both refused (%d refused); want the shared limit, %d (+%d earned)", total, len(refusedBy), limit, earned)
	}
	if got := a.metric(t, "latch_ratelimit_local"); got != "0" {
		t.Errorf("latch_ratelimit_local = %q after the cut, want 0", got)
	}
}

// Finding 5: requests held through a Redis stall were charged when it
// ended, all at once, and so refused although the client kept within its
// limit. Now they are decided during the stall (locally, in bounded time),
// and a decision sent into the stall that Redis only makes after its
// deadline charges nothing: the shared budget is exactly as the stall
// found it, and a client within its limit sees no 429.
func TestFault_HeldRequestsChargedOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const limit = 240 // per minute: one every 250 ms
	n := e.start(func(c *app.Config) { c.IPRateLimit = limit })
	ip := "192.0.2.55"
	// Spend all but one of the burst at once (a JSON-RPC batch: each entry
	// counts), so that a few requests charged together go over.
	entries := make([]string, limit-1)
	for i := range entries {
		entries[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"eth_chainId","params":[]}`, i)
	}
	if r := call("POST", n.api+"/v1?chainId=eip155:1&projectId="+e.project, ip, "["+strings.Join(entries, ",")+"]"); r.status != http.StatusOK {
		t.Fatalf("burst: %v", r)
	}
	// The client's shared budget: its key's theoretical arrival time.
	key := e.prefix + "ratelimit:ip:k:" + ip
	budget := func() string {
		v, err := e.rdb.Get(context.Background(), key).Result()
		if err != nil {
			t.Fatalf("read the shared budget: %v", err)
		}
		return v
	}

	// Then keep to 3.6 a second (the limit is 4) through a stall of 4 s,
	// longer than go-redis's default read timeout.
	var statuses []int
	var mu sync.Mutex
	var wg sync.WaitGroup
	send := func(during bool) {
		r := n.config(e, ip)
		if during {
			bounded(t, "request during the stall", r, http.StatusOK, http.StatusTooManyRequests)
		}
		mu.Lock()
		statuses = append(statuses, r.status)
		mu.Unlock()
	}
	tick := time.NewTicker(278 * time.Millisecond)
	defer tick.Stop()
	for i := 0; i < 2; i++ {
		send(false)
		<-tick.C
	}
	before := budget()
	e.redis.Stall()
	for i := 0; i < 15; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); send(true) }()
		<-tick.C
	}
	e.redis.Restore()
	e.redis.WaitDrained() // what was sent into the stall has run
	wg.Wait()
	if after := budget(); after != before {
		t.Errorf("the shared budget moved during the stall (%s to %s): decisions made without Redis were charged to it when it came back", before, after)
	}
	for i := 0; i < 3; i++ {
		<-tick.C
		send(false)
	}
	for i, s := range statuses {
		if s == http.StatusTooManyRequests {
			t.Fatalf("request %d of a client within its limit answered 429 (statuses %v)", i, statuses)
		}
	}
}

// Finding 6: a publish answered as failed during a Redis stall could still
// be delivered once Redis was back. Now a publish refused as not stored is
// never delivered, and one Redis may have taken is answered "outcome
// unknown" (PublishOutcomeUnknown), which the client settles by publishing
// again; every acknowledged message is delivered.
func TestFault_RelayPublishDuringRedisStall(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := e.start(nil)
	dapp, wallet := e.dialRelay(n), e.dialRelay(n)
	topic := randomHex(32)
	if _, rerr, _ := wallet.call("irn_subscribe", map[string]any{"topic": topic}); rerr != nil {
		t.Fatalf("subscribe: %v", rerr)
	}
	publish := func(body string) (ok bool, rerr map[string]any) {
		msg := base64.StdEncoding.EncodeToString([]byte(body))
		_, rerr, took := dapp.call("irn_publish", map[string]any{"topic": topic, "message": msg, "ttl": 300, "tag": 1108})
		if took > answerWithin {
			t.Errorf("publish %q answered after %v", body, took)
		}
		return rerr == nil, rerr
	}
	acked := map[string]bool{}
	notStored := map[string]bool{}
	var unknown []string
	e.redis.Stall()
	stallEnd := time.Now().Add(2500 * time.Millisecond)
	pace := time.NewTicker(20 * time.Millisecond)
	defer pace.Stop()
	for i := 0; time.Now().Before(stallEnd); i++ {
		<-pace.C
		body := fmt.Sprintf("during the stall %d", i)
		ok, rerr := publish(body)
		switch {
		case ok:
			acked[body] = true
		case rerr["data"] == "PublishOutcomeUnknown":
			unknown = append(unknown, body)
		case rerr["data"] == "StorageError" && strings.Contains(fmt.Sprint(rerr["message"]), "not stored"):
			notStored[body] = true
		default:
			t.Fatalf("publish during the stall: %v, want a refusal that says whether the message was stored", rerr)
		}
	}
	t.Logf("during the stall: %d acknowledged, %d not stored, %d outcome unknown", len(acked), len(notStored), len(unknown))
	if len(notStored)+len(unknown) == 0 {
		t.Fatal("no publish was refused during the stall")
	}
	e.redis.Restore()
	e.redis.WaitDrained() // publishes sent into the stall have run
	// The client settles every unknown outcome by publishing again.
	for _, body := range unknown {
		waitFor(t, answerWithin, "republishing "+body, func() bool {
			ok, _ := publish(body)
			return ok
		})
		acked[body] = true
	}
	marker := "after the stall"
	waitFor(t, answerWithin, "publishing after the stall", func() bool {
		ok, _ := publish(marker)
		return ok
	})
	acked[marker] = true
	got := map[string]bool{}
	defer func() {
		if t.Failed() {
			for body := range acked {
				if !got[body] {
					t.Logf("not delivered: %q", body)
				}
			}
		}
	}()
	waitFor(t, answerWithin, "every acknowledged message delivered", func() bool {
		wallet.drain(got)
		for body := range acked {
			if !got[body] {
				return false
			}
		}
		return true
	})
	// Nothing refused as not stored arrives, even from the mailbox.
	again := e.dialRelay(n)
	if _, rerr, _ := again.call("irn_subscribe", map[string]any{"topic": topic}); rerr != nil {
		t.Fatalf("subscribe after the stall: %v", rerr)
	}
	marker2 := "second marker"
	if ok, rerr := publish(marker2); !ok {
		t.Fatalf("publish: %v", rerr)
	}
	waitFor(t, answerWithin, "the second marker", func() bool {
		again.drain(got)
		return got[marker2]
	})
	for body := range notStored {
		if got[body] {
			t.Errorf("%q was refused as not stored but delivered", body)
		}
	}
}

// A dead RPC upstream (connections refused, then reset): the RPC proxy
// answers a JSON-RPC error at once (this held before issue 34; a stalled
// one takes the proxy's 10 s budget, too long for this suite).
func TestFault_RPCUpstreamDown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := e.start(nil)
	e.upstream.Cut()
	a := n.rpc(e, "")
	if a.err != nil || a.took > answerWithin || !strings.Contains(string(a.body), `"error"`) {
		t.Fatalf("RPC with its upstream down: %v, want a JSON-RPC error within %v", a, answerWithin)
	}
	e.upstream.Restore()
	waitFor(t, answerWithin, "RPC after the upstream is back", func() bool { return n.rpc(e, "").status == http.StatusOK })
}

// Connections reset under load, and a slow Redis (well within its
// timeout): answers stay bounded, and a slow dependency is not mistaken for
// a dead one.
func TestFault_ResetAndSlow(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := e.start(func(c *app.Config) { c.IPRateLimit = 100000 })
	for i := 0; i < 3; i++ {
		e.pg.Reset()
		e.redis.Reset()
		n.expireProjects()
		bounded(t, "RPC after a reset", n.rpc(e, ""), http.StatusOK)
		_, a := n.telemetry(e, "")
		bounded(t, "telemetry after a reset", a, http.StatusNoContent, http.StatusAccepted)
	}
	waitFor(t, answerWithin, "readiness after resets", func() bool { return n.ready().status == http.StatusOK })
	e.redis.Slow(redisTimeout / 5)
	for i := 0; i < 5; i++ {
		bounded(t, "RPC with Redis slow", n.rpc(e, ""), http.StatusOK)
	}
	if got := n.metric(t, "latch_dependency_up_redis"); got != "1" {
		t.Errorf("a slow Redis opened its breaker (latch_dependency_up_redis = %q)", got)
	}
	e.redis.Restore()
}
