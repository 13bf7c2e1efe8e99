package rpcproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Error classes of an upstream attempt, used in metrics and retry decisions.
const (
	classTimeout   = "timeout"
	classTransport = "transport"
	classMalformed = "malformed"
	classHTTP429   = "http_429"
	classHTTP402   = "http_402"
	classHTTP4xx   = "http_4xx"
	classHTTP5xx   = "http_5xx"
	classNodeError = "node_error"
)

const (
	ewmaAlpha = 0.3
	// errorPenalty turns an error rate into latency for ranking: an upstream
	// failing half its calls ranks like one 500 ms slower.
	errorPenalty = time.Second
	// errorHalfLife makes the error rate recent: an upstream that failed
	// and was then left unused is forgiven over time and tried again.
	errorHalfLife = 30 * time.Second
	// maxRetryAfter bounds how long an upstream's Retry-After can keep it aside.
	maxRetryAfter = 10 * time.Minute
)

// upstream is one node URL of a network with its recent health.
type upstream struct {
	url   string
	label string // scheme://host: metrics and logs never show the path, which often holds an API key
	// local upstreams (loopback or private network) are asked for
	// uncompressed answers: bandwidth is free there, gzip's CPU is not.
	local bool
	// fast is set for plain-http upstreams: reads use the h1Client fast path.
	fast   h1Request
	isFast bool

	mu         sync.Mutex
	latency    float64   // EWMA of successful call latency in seconds; 0 = not measured yet
	errRate    float64   // EWMA of failures (1) and successes (0), as of errAt
	errAt      time.Time // when errRate was last updated
	notBefore  time.Time // Retry-After of a 429/503…: the minimum wait before the next call
	asideUntil time.Time // a 402 (payment required) sets the upstream aside until then
	head       uint64    // block (or slot) last reported by a health probe; 0 = unknown
}

// score ranks upstreams, lower is better; u.mu must be held.
func (u *upstream) score(now time.Time) float64 {
	return u.latency + u.recentErrRate(now)*errorPenalty.Seconds()
}

func (u *upstream) recentErrRate(now time.Time) float64 {
	if u.errRate == 0 || !now.After(u.errAt) {
		return u.errRate
	}
	return u.errRate * math.Exp2(-now.Sub(u.errAt).Seconds()/errorHalfLife.Seconds())
}

func (u *upstream) record(ok bool, elapsed time.Duration, now time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	e := 1.0
	if ok {
		e = 0
		s := elapsed.Seconds()
		if u.latency == 0 {
			u.latency = s
		} else {
			u.latency += ewmaAlpha * (s - u.latency)
		}
	}
	u.errRate = u.recentErrRate(now)
	u.errRate += ewmaAlpha * (e - u.errRate)
	u.errAt = now
}

// pool is the upstreams of one network.
type pool struct {
	network  string
	urls     []string
	ups      []*upstream
	lastUsed atomic.Int64 // unix nanoseconds of the last request for the network
}

func newPool(network string, urls []string) *pool {
	p := &pool{network: network, urls: slices.Clone(urls)}
	for _, raw := range urls {
		up := &upstream{url: raw, label: raw}
		if u, err := url.Parse(raw); err == nil {
			up.label = u.Scheme + "://" + u.Host
			up.local = isLocalHost(u.Hostname())
		}
		up.fast, up.isFast = newH1Request(raw)
		p.ups = append(p.ups, up)
	}
	return p
}

// pick returns the upstream for the next attempt, or nil when none may be
// used. Upstreams set aside (402) and, for transactions, every upstream
// already tried are skipped. Among the rest, an upstream not tried in this
// request and not inside its Retry-After wins; ties go to the best score
// (latency EWMA plus error penalty, plus a lag penalty for an upstream more
// than maxLag blocks behind the best head a probe saw), then to
// configuration order.
func (p *pool) pick(now time.Time, maxLag uint64, tried map[*upstream]bool, excluded map[*upstream]bool) *upstream {
	var top uint64
	for _, u := range p.ups {
		u.mu.Lock()
		top = max(top, u.head)
		u.mu.Unlock()
	}
	var best *upstream
	bestRank, bestScore := 0, 0.0
	for _, u := range p.ups {
		if excluded[u] {
			continue
		}
		u.mu.Lock()
		aside := now.Before(u.asideUntil)
		waiting := now.Before(u.notBefore)
		score := u.score(now)
		if u.head > 0 && top-u.head > maxLag {
			score += lagPenalty.Seconds()
		}
		u.mu.Unlock()
		if aside {
			continue
		}
		rank := 0
		if tried[u] {
			rank += 2
		}
		if waiting {
			rank++
		}
		if best == nil || rank < bestRank || (rank == bestRank && score < bestScore) {
			best, bestRank, bestScore = u, rank, score
		}
	}
	return best
}

// attemptResult is the outcome of one HTTP call to one upstream.
type attemptResult struct {
	class      string // "" when a JSON-RPC answer was parsed
	retryable  bool   // spec §7: 403, 408, 413, 429, 500, 502, 503, 504 and transport failures
	retryAfter time.Duration
	status     int
	answers    []rpcAnswer
	single     *rpcAnswer // a lone error object answering a batch
}

// rpcAnswer is one response object of an upstream.
type rpcAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func retryableStatus(code int) bool {
	switch code {
	case 403, 408, 413, 429, 500, 502, 503, 504:
		return true
	}
	return false
}

// attempt sends body to u once and classifies the outcome. write marks a
// call carrying a transaction.
func (p *Proxy) attempt(ctx context.Context, pl *pool, u *upstream, body []byte, write bool) attemptResult {
	if p.cfg.AttemptTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.cfg.AttemptTimeout)
		defer cancel()
	}
	start := time.Now()
	res := p.roundTrip(ctx, u, body, write)
	elapsed := time.Since(start)
	now := p.cfg.Now()
	u.record(res.class == "", elapsed, now)
	p.metrics.requests.Inc(pl.network, u.label)
	p.metrics.latency.Observe(elapsed.Seconds(), pl.network, u.label)
	if res.class != "" {
		p.metrics.errors.Inc(pl.network, u.label, res.class)
	}
	switch {
	case res.class == classHTTP402:
		wait := res.retryAfter
		if wait <= 0 {
			wait = p.cfg.PaymentSetAside
		}
		u.mu.Lock()
		u.asideUntil = now.Add(wait)
		u.mu.Unlock()
	case res.retryAfter > 0:
		u.mu.Lock()
		u.notBefore = now.Add(res.retryAfter)
		u.mu.Unlock()
	}
	return res
}

func (p *Proxy) roundTrip(ctx context.Context, u *upstream, body []byte, write bool) attemptResult {
	var hr h1Response
	var err error
	if p.h1 != nil && u.isFast && !write {
		req := u.fast
		req.body, req.maxBody = body, p.cfg.MaxResponse
		hr, err = p.h1.do(ctx, req)
	} else {
		hr, err = p.httpRoundTrip(ctx, u, body)
	}
	if errors.Is(err, errTooLarge) {
		return attemptResult{class: classMalformed, retryable: true, status: hr.status}
	}
	if err != nil {
		return attemptResult{class: failureClass(ctx, err), retryable: true, status: hr.status}
	}
	res := attemptResult{status: hr.status, retryAfter: p.parseRetryAfter(hr.retryAfter)}
	ok := hr.status >= 200 && hr.status < 300
	switch {
	case hr.status == http.StatusPaymentRequired:
		res.class, res.retryable = classHTTP402, true
		return res
	case !ok && retryableStatus(hr.status):
		res.class, res.retryable = statusClass(hr.status), true
		return res
	}
	if !parseAnswers(hr.body, &res) {
		if ok {
			res.class, res.retryable = classMalformed, true
		} else {
			// Another status without a JSON-RPC body (401, 404…): this
			// upstream cannot serve us; move on without retrying it.
			res.class = statusClass(hr.status)
		}
	}
	// A non-2xx status with a JSON-RPC body is the node's own answer (some
	// providers answer invalid params with 400): returned as it is.
	return res
}

// httpRoundTrip makes one call through the configured *http.Client.
func (p *Proxy) httpRoundTrip(ctx context.Context, u *upstream, body []byte) (h1Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.url, bytes.NewReader(body))
	if err != nil {
		return h1Response{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if u.local {
		// Setting it ourselves also stops the transport adding gzip.
		req.Header.Set("Accept-Encoding", "identity")
	}
	resp, err := p.cfg.Client.Do(req)
	if err != nil {
		return h1Response{}, err
	}
	defer resp.Body.Close()
	res := h1Response{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After")}
	res.body, err = io.ReadAll(io.LimitReader(resp.Body, p.cfg.MaxResponse+1))
	if err == nil && int64(len(res.body)) > p.cfg.MaxResponse {
		err = errTooLarge
	}
	return res, err
}

// isLocalHost reports whether host is loopback or on a private network.
func isLocalHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && (ip.IsLoopback() || ip.IsPrivate())
}

func statusClass(code int) string {
	switch {
	case code == 429:
		return classHTTP429
	case code >= 500:
		return classHTTP5xx
	}
	return classHTTP4xx
}

func failureClass(ctx context.Context, err error) string {
	var ne net.Error
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return classTimeout
	}
	return classTransport
}

// parseAnswers parses a JSON-RPC response or batch of responses.
func parseAnswers(data []byte, res *attemptResult) bool {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return false
	}
	switch data[0] {
	case '[':
		return json.Unmarshal(data, &res.answers) == nil
	case '{':
		var a rpcAnswer
		if json.Unmarshal(data, &a) != nil || (a.Result == nil && a.Error == nil) {
			return false
		}
		res.single = &a
		return true
	}
	return false
}

// parseRetryAfter reads Retry-After as seconds or an HTTP date, relative to
// the proxy clock; 0 when absent or invalid.
func (p *Proxy) parseRetryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.Atoi(v); err == nil {
		d = time.Duration(secs) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(p.cfg.Now())
	}
	return min(max(d, 0), maxRetryAfter)
}
