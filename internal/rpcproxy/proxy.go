// Package rpcproxy is the chain RPC proxy, POST /v1?chainId=<caip2>&projectId=<id>
// (api-shapes §3.8): it answers JSON-RPC requests and batches from the
// upstream nodes the operator configured for a network, with a method
// allowlist per namespace (allowlist.go), failover with retries (spec §7, §9), caching and coalescing.
//
// HTTP statuses: request-level failures (bad chainId, unsupported network,
// oversized body, unparseable JSON) get a 4xx status and one JSON-RPC error
// (internal/jsonrpc) with id null; a rate limit gets 429, Retry-After and an
// error per request id; once the body is a JSON-RPC request, the answer is
// 200 with JSON-RPC results and errors per entry, as JSON-RPC over HTTP
// expects.
//
// Rate limits (per client IP and per project) count one event per request
// object: a batch of 1,000 entries costs 1,000, refused entries included.
package rpcproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/metrics"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/ratelimit"
)

const (
	// DefaultTimeout is the budget of one request across all attempts (spec §9: RPC timeout 10000 ms).
	DefaultTimeout = 10 * time.Second
	// DefaultMaxBatch is the largest batch accepted (spec §9: batch size 1000).
	DefaultMaxBatch = 1000
	// DefaultMaxBody bounds a request body.
	DefaultMaxBody = 2 << 20
	// maxRetries and baseBackoff are spec §9: RPC retries 3, base delay 150 ms, exponential.
	maxRetries  = 3
	baseBackoff = 150 * time.Millisecond
	// maxMethodLen bounds a method name, which refusals echo back.
	maxMethodLen = 128
)

// msgTimeout is spec §8's timeout message.
const msgTimeout = "The request took too long to respond."

// Config configures a Proxy. Networks is required; the rest have defaults.
type Config struct {
	Networks *network.Registry
	Client   *http.Client // default: a client with pooled keep-alive connections and no own timeout
	// DisableFastPath sends reads from plain-http upstreams through Client
	// too (see h1.go); a custom Client always disables it.
	DisableFastPath bool
	Metrics         *metrics.Registry // default: a private registry
	Now             func() time.Time  // clock for Retry-After, set-asides and cache expiry
	// Sleep waits d or until ctx is done (injected in tests).
	Sleep          func(ctx context.Context, d time.Duration) error
	ProjectLimiter ratelimit.Limiter // keyed by project id; nil: no limit
	IPLimiter      ratelimit.Limiter // keyed by ClientIP; nil: no limit
	// IPChargedAhead says a middleware in front already charged IPLimiter
	// one event for each request (before the project guard, so requests for
	// unknown projects are limited too): the proxy charges only the further
	// entries of a batch.
	IPChargedAhead bool
	// ClientIP is the rate-limit key of a request; default: the peer's
	// address, an IPv6 one as its /64 (httpx.RateKey).
	ClientIP       func(*http.Request) string
	Timeout        time.Duration // whole-request budget, DefaultTimeout
	AttemptTimeout time.Duration // per-attempt bound within Timeout; 0: none
	MaxBatch       int           // DefaultMaxBatch
	MaxBody        int64         // DefaultMaxBody
	MaxResponse    int64         // bound on one upstream answer, 64 MiB

	Cache             Cache         // default: NewMemoryCache(10000, 64 MiB, Now)
	NearHeadTTL       time.Duration // answers that change with each block, 1 s
	ImmutableTTL      time.Duration // answers pinned below the confirmed head, 1 h
	ConfirmationDepth uint64        // blocks below the head considered final, 12
	// SolanaFinalizedTTL caches Solana reads at finalized commitment (solana_cache.go), DefaultSolanaFinalizedTTL.
	SolanaFinalizedTTL time.Duration
	PaymentSetAside    time.Duration // a 402 without Retry-After sets an upstream aside this long, 1 min
	// Health probes (see health.go): every ProbeInterval (0: never) the
	// upstreams of networks used within ProbeIdle (default 5 min) are asked
	// for their head; one more than MaxLag blocks behind (default 5) ranks lower.
	ProbeInterval time.Duration
	ProbeIdle     time.Duration
	MaxLag        uint64
	Logger        *slog.Logger
	// Local answers the methods it handles in latchd (local.go); nil: none.
	Local LocalMethods
	// WebSocket subscriptions (ws.go): sockets per client IP (DefaultWSMaxConnsPerIP)
	// and live subscriptions per socket (DefaultWSMaxSubscriptions).
	WSMaxConnsPerIP    int
	WSMaxSubscriptions int
}

// Proxy serves the chain RPC proxy. It is safe for concurrent use.
type Proxy struct {
	cfg     Config
	flights flightGroup
	metrics proxyMetrics

	h1 *h1Client // fast path for reads from plain-http upstreams; nil with a custom Client

	mu    sync.Mutex
	pools map[string]*pool
	heads map[string]uint64 // latest block number seen per network

	wsMu    sync.Mutex
	wsConns map[string]int // open WebSocket sockets per client IP
}

type proxyMetrics struct {
	requests *metrics.CounterVec
	errors   *metrics.CounterVec
	latency  *metrics.HistogramVec
	cache    *metrics.CounterVec
}

// New returns a Proxy; zero Config fields take their defaults.
func New(cfg Config) *Proxy {
	var h1 *h1Client
	if cfg.Client == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 64
		cfg.Client = &http.Client{Transport: tr}
		if !cfg.DisableFastPath {
			h1 = newH1Client(64)
		}
	}
	if cfg.Metrics == nil {
		cfg.Metrics = metrics.NewRegistry()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	if cfg.ClientIP == nil {
		cfg.ClientIP = func(r *http.Request) string {
			return httpx.RateKey(httpx.ClientIP(r, nil), httpx.DefaultIPv6Prefix)
		}
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = DefaultMaxBatch
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.MaxResponse <= 0 {
		cfg.MaxResponse = 64 << 20
	}
	if cfg.NearHeadTTL <= 0 {
		cfg.NearHeadTTL = time.Second
	}
	if cfg.ImmutableTTL <= 0 {
		cfg.ImmutableTTL = time.Hour
	}
	if cfg.SolanaFinalizedTTL <= 0 {
		cfg.SolanaFinalizedTTL = DefaultSolanaFinalizedTTL
	}
	if cfg.ConfirmationDepth == 0 {
		cfg.ConfirmationDepth = 12
	}
	if cfg.PaymentSetAside <= 0 {
		cfg.PaymentSetAside = time.Minute
	}
	if cfg.ProbeIdle <= 0 {
		cfg.ProbeIdle = 5 * time.Minute
	}
	if cfg.MaxLag == 0 {
		cfg.MaxLag = 5
	}
	if cfg.Cache == nil {
		cfg.Cache = NewMemoryCache(10000, 64<<20, cfg.Now)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.WSMaxConnsPerIP <= 0 {
		cfg.WSMaxConnsPerIP = DefaultWSMaxConnsPerIP
	}
	if cfg.WSMaxSubscriptions <= 0 {
		cfg.WSMaxSubscriptions = DefaultWSMaxSubscriptions
	}
	m := cfg.Metrics
	return &Proxy{
		cfg:     cfg,
		h1:      h1,
		pools:   map[string]*pool{},
		heads:   map[string]uint64{},
		wsConns: map[string]int{},
		metrics: proxyMetrics{
			requests: m.Counter("latch_rpc_upstream_requests_total", "RPC proxy calls to upstream nodes.", "network", "upstream"),
			errors:   m.Counter("latch_rpc_upstream_errors_total", "RPC proxy upstream failures by class (timeout, http_5xx, http_429, http_4xx, http_402, transport, malformed, node_error).", "network", "upstream", "class"),
			latency:  m.Histogram("latch_rpc_upstream_duration_seconds", "RPC proxy upstream call latency.", metrics.DefaultLatencyBuckets, "network", "upstream"),
			cache:    m.Counter("latch_rpc_cache_total", "RPC proxy read entries by outcome (hit, miss, coalesced).", "network", "outcome"),
		},
	}
}

// Close closes the idle upstream connections of the fast path. The Proxy
// stays usable; Close is for shutdown.
func (p *Proxy) Close() {
	if p.h1 != nil {
		p.h1.close()
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// entry is one request object of the body and, once handled, its answer.
type entry struct {
	id     json.RawMessage // the client's bytes, echoed as they are; nil for a notification
	notify bool
	method string
	params json.RawMessage
	kind   methodKind
	key    string // cache and coalescing key of reads
	pinned bool   // eip155 filter methods: a filter lives on the node that made it
	// refused: answered -32601 by the allowlist, which Config.Local may override.
	refused bool
	done    bool
	res     entryResult
}

// entryResult is the answer to one entry: a result or an error object.
type entryResult struct {
	Result json.RawMessage
	Error  json.RawMessage
}

func errorResult(code int, msg string) entryResult {
	return entryResult{Error: jsonrpc.AppendErrorObject(nil, &jsonrpc.Error{Code: code, Message: msg})}
}

// Register mounts the proxy on POST /v1 and POST /v1/ (AppKit posts to
// "/v1/?chainId=…", api-shapes §3.8) and its subscriptions on GET /v1, GET
// /v1/ and GET /ws (ws.go), each wrapped by mw (the project guard).
func (p *Proxy) Register(mux *http.ServeMux, mw func(http.Handler) http.Handler) {
	if mw == nil {
		mw = func(next http.Handler) http.Handler { return next }
	}
	mux.Handle("POST /v1", mw(p))
	mux.Handle("POST /v1/{$}", mw(p))
	ws := mw(http.HandlerFunc(p.ServeWS))
	mux.Handle("GET /v1", ws)
	mux.Handle("GET /v1/{$}", ws)
	mux.Handle("GET /ws", ws)
}

// ServeHTTP serves POST /v1?chainId=<caip2>&projectId=<id>.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeRequestError(w, http.StatusMethodNotAllowed, jsonrpc.CodeInvalidRequest, "The RPC proxy takes POST requests")
		return
	}
	chain := r.URL.Query().Get("chainId")
	id, chainErr := caip.ParseChainID(chain)
	var nw *network.Network
	var urls []string
	if chainErr == nil {
		nw, urls = p.cfg.Networks.Get(chain), p.cfg.Networks.Upstreams(chain)
	}
	body, status, bodyErr := p.readBody(w, r)
	var entries []*entry
	var batch bool
	var perr *jsonrpc.Error
	served := chainErr == nil && nw != nil && len(urls) > 0
	if served && bodyErr == nil {
		entries, batch, perr = p.parse(body, id.Namespace, nw.Dev)
	}
	// Every request is charged, refused ones too, and a batch costs one
	// event per entry: the work it asks of the upstreams.
	if !p.allow(w, r, body, max(len(entries), 1)) {
		return
	}
	switch {
	case chainErr != nil:
		writeRequestError(w, http.StatusBadRequest, jsonrpc.CodeInvalidParams, chainErr.Error())
		return
	case !served:
		writeRequestError(w, http.StatusNotFound, jsonrpc.CodeInvalidParams, fmt.Sprintf("Chain %s is not supported by this latchd", chain))
		return
	case bodyErr != nil:
		writeRequestError(w, status, jsonrpc.CodeInvalidRequest, bodyErr.Error())
		return
	case perr != nil:
		jsonrpc.WriteHTTPError(w, http.StatusBadRequest, nil, perr)
		return
	}
	// The budget is not cut short when this client goes away: it may lead a
	// flight other requests wait on, and they must not inherit its cancellation.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), p.cfg.Timeout)
	defer cancel()
	if p.cfg.Local != nil {
		p.serveLocal(ctx, chain, entries)
	}
	p.execute(ctx, p.poolFor(chain, urls), entries)
	writeAnswers(w, entries, batch)
}

// allow charges cost events (the entries of the body) to the per-IP and
// per-project rate limits. A limiter that cannot decide fails open: the RPC
// proxy stays up when Redis is not. A refused request is answered as a
// JSON-RPC client can read it: 429, a Retry-After header and a
// CodeLimitExceeded error for each id of body (id null when body is nil).
func (p *Proxy) allow(w http.ResponseWriter, r *http.Request, body []byte, cost int) bool {
	check := func(l ratelimit.Limiter, key, what string, cost int) bool {
		if l == nil || key == "" || cost < 1 {
			return true
		}
		d, err := l.AllowN(r.Context(), key, cost)
		if err != nil {
			p.cfg.Logger.WarnContext(r.Context(), "rpc proxy rate limiter failed; allowing", "limit", what, "err", err)
			return true
		}
		if !d.Allowed {
			jsonrpc.WriteRateLimited(w, body, d.RetryAfter, what)
			return false
		}
		return true
	}
	ipCost := cost
	if p.cfg.IPChargedAhead {
		ipCost--
	}
	if !check(p.cfg.IPLimiter, p.cfg.ClientIP(r), "too many RPC requests from this address", ipCost) {
		return false
	}
	projectID := r.URL.Query().Get("projectId")
	if pr := project.FromContext(r.Context()); pr != nil {
		projectID = pr.ID
	}
	return check(p.cfg.ProjectLimiter, projectID, "too many RPC requests for this project", cost)
}

func (p *Proxy) readBody(w http.ResponseWriter, r *http.Request) ([]byte, int, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		// viem posts text/plain to avoid a CORS preflight (api-shapes §3.8).
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && mt != "text/plain") {
			return nil, http.StatusUnsupportedMediaType, errors.New("Content-Type must be application/json or text/plain")
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, p.cfg.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("Request body is larger than %d bytes", p.cfg.MaxBody)
		}
		return nil, http.StatusBadRequest, errors.New("Request body could not be read")
	}
	return body, 0, nil
}

var errBodyNotJSON = &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "Parse error: the body is not valid JSON"}

// parse splits the body into entries. Request-level problems (not JSON, an
// empty or oversized batch) are an error for the whole body; a malformed entry gets its own
// -32600 answer and does not spoil the rest of a batch.
func (p *Proxy) parse(body []byte, namespace string, dev bool) ([]*entry, bool, *jsonrpc.Error) {
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return nil, false, errBodyNotJSON
	}
	if body[0] != '[' {
		return []*entry{p.parseEntry(body, namespace, dev)}, false, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(body, &raws); err != nil {
		return nil, false, errBodyNotJSON
	}
	if len(raws) == 0 {
		return nil, true, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid request: empty batch"}
	}
	if len(raws) > p.cfg.MaxBatch {
		return nil, true, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Invalid request: a batch holds at most %d requests, got %d", p.cfg.MaxBatch, len(raws))
	}
	entries := make([]*entry, len(raws))
	for i, raw := range raws {
		entries[i] = p.parseEntry(raw, namespace, dev)
	}
	return entries, true, nil
}

func (p *Proxy) parseEntry(raw json.RawMessage, namespace string, dev bool) *entry {
	var m struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	e := &entry{}
	invalid := func(msg string) *entry {
		e.notify = false // an invalid request is always answered (JSON-RPC 2.0 §5)
		e.done, e.res = true, errorResult(jsonrpc.CodeInvalidRequest, "Invalid request: "+msg)
		return e
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return invalid("not an object")
	}
	if m.ID != nil {
		switch m.ID[0] {
		case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'n':
			e.id = m.ID
		default:
			return invalid("id must be a string, a number or null")
		}
	} else {
		e.notify = true
	}
	if string(m.JSONRPC) != `"2.0"` {
		return invalid(`jsonrpc must be "2.0"`)
	}
	if json.Unmarshal(m.Method, &e.method) != nil || e.method == "" {
		return invalid("method must be a non-empty string")
	}
	if len(e.method) > maxMethodLen {
		return invalid(fmt.Sprintf("method is longer than %d characters", maxMethodLen))
	}
	if m.Params != nil && m.Params[0] != '[' && m.Params[0] != '{' {
		return invalid("params must be an array or an object")
	}
	e.params = m.Params
	e.kind = classify(namespace, e.method, dev)
	e.pinned = e.kind == kindStateful
	if e.kind == kindRefused {
		e.refused = true
		e.done, e.res = true, errorResult(jsonrpc.CodeMethodNotFound, fmt.Sprintf("method %s is not allowed through the latchd RPC proxy", e.method))
	}
	return e
}

// execute answers every entry not yet done: reads from the cache, joins or
// leads flights of identical reads, forwards the rest as one upstream call,
// then collects the flights it waited on. Leaders finish before anyone
// waits, so two batches waiting on each other's reads cannot deadlock.
func (p *Proxy) execute(ctx context.Context, pl *pool, entries []*entry) {
	var send, waits []*entry
	var flights []*flight
	type lead struct {
		e *entry
		f *flight
	}
	var leads []lead
	for _, e := range entries {
		if e.done {
			continue
		}
		if e.kind != kindRead {
			send = append(send, e)
			continue
		}
		key, ok := cacheKey(pl.network, e.method, e.params)
		if !ok {
			send = append(send, e)
			continue
		}
		e.key = key
		if v, hit, err := p.cfg.Cache.Get(ctx, key); err != nil {
			p.cfg.Logger.WarnContext(ctx, "rpc cache get failed", "err", err)
		} else if hit {
			e.done, e.res = true, entryResult{Result: v}
			p.metrics.cache.Inc(pl.network, "hit")
			continue
		}
		f, leader := p.flights.join(key)
		if !leader {
			waits, flights = append(waits, e), append(flights, f)
			p.metrics.cache.Inc(pl.network, "coalesced")
			continue
		}
		p.metrics.cache.Inc(pl.network, "miss")
		leads = append(leads, lead{e, f})
		send = append(send, e)
	}
	func() {
		// Flights always finish, even if forwarding panics, so waiters never hang.
		defer func() {
			for _, l := range leads {
				if !l.e.done {
					l.e.done, l.e.res = true, errorResult(jsonrpc.CodeInternal, "Internal error")
				}
				p.flights.finish(l.e.key, l.f, l.e.res)
			}
		}()
		var free, pinned []*entry
		for _, e := range send {
			if e.pinned {
				pinned = append(pinned, e)
			} else {
				free = append(free, e)
			}
		}
		if len(free) > 0 {
			p.forward(ctx, pl, free, false)
		}
		if len(pinned) > 0 {
			p.forward(ctx, pl, pinned, true)
		}
		for _, l := range leads {
			p.store(ctx, pl.network, l.e)
		}
	}()
	for i, e := range waits {
		select {
		case <-flights[i].done:
			e.res = flights[i].res
		case <-ctx.Done():
			e.res = errorResult(jsonrpc.CodeInternal, msgTimeout)
		}
		e.done = true
	}
}

// store caches a successful read answer when its method allows, and learns
// the network head from eth_blockNumber.
func (p *Proxy) store(ctx context.Context, network string, e *entry) {
	if e.res.Error != nil || e.res.Result == nil {
		return // errors are never cached
	}
	p.mu.Lock()
	if e.method == "eth_blockNumber" {
		var s string
		if json.Unmarshal(e.res.Result, &s) == nil {
			if n, ok := parseQuantity(s); ok && n > p.heads[network] {
				p.heads[network] = n
			}
		}
	}
	var safe uint64
	if h := p.heads[network]; h > p.cfg.ConfirmationDepth {
		safe = h - p.cfg.ConfirmationDepth
	}
	p.mu.Unlock()
	ttl := p.answerTTL(network, e.method, e.params, e.res.Result, safe)
	if ttl == noCache {
		return
	}
	if err := p.cfg.Cache.Set(ctx, e.key, e.res.Result, ttl); err != nil {
		p.cfg.Logger.WarnContext(ctx, "rpc cache set failed", "err", err)
	}
}

// poolFor returns the upstream pool of a network, rebuilt when the registry's
// URLs changed.
func (p *Proxy) poolFor(network string, urls []string) *pool {
	p.mu.Lock()
	defer p.mu.Unlock()
	pl := p.pools[network]
	if pl == nil || !equalStrings(pl.urls, urls) {
		pl = newPool(network, urls)
		p.pools[network] = pl
	}
	pl.lastUsed.Store(p.cfg.Now().UnixNano())
	return pl
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// writeAnswers writes the answers in request order; notifications get none,
// and a body of notifications only gets 204 (JSON-RPC 2.0 §6).
func writeAnswers(w http.ResponseWriter, entries []*entry, batch bool) {
	buf := make([]byte, 0, 256)
	n := 0
	if batch {
		buf = append(buf, '[')
	}
	for _, e := range entries {
		if e.notify {
			continue
		}
		if n > 0 {
			buf = append(buf, ',')
		}
		n++
		buf = appendAnswer(buf, e.id, e.res)
	}
	if n == 0 {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if batch {
		buf = append(buf, ']')
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(buf)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf)
}

func appendAnswer(buf []byte, id json.RawMessage, r entryResult) []byte {
	if r.Error != nil {
		return jsonrpc.AppendRawError(buf, id, r.Error)
	}
	return jsonrpc.AppendResult(buf, id, r.Result)
}

// writeRequestError answers a request-level failure with one JSON-RPC error
// (id null) and an HTTP status that says what went wrong.
func writeRequestError(w http.ResponseWriter, status, code int, msg string) {
	jsonrpc.WriteHTTPError(w, status, nil, &jsonrpc.Error{Code: code, Message: msg})
}
