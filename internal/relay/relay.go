// Package relay is latchd's WalletConnect v2 relay ("irn"): the websocket
// that dapps and wallets built on @walletconnect/core connect to with
// ?auth=<EdDSA JWT>&projectId=…, the irn_* JSON-RPC methods plus
// wc_proposeSession and wc_approveSession, per-topic mailboxes kept until each
// message's TTL, and at-least-once delivery of irn_subscription messages,
// acknowledged by the client (spec/appkit-relay.md).
//
// Mailboxes and fan-out live behind Broker: Memory for one node, Redis for
// several nodes behind one load balancer.
package relay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/metrics"
)

// Defaults of Limits and the protocol's timings.
const (
	// PingInterval: the Node client drops a socket that has not been pinged
	// for 35 s (relayer.ts heartBeatTimeout), so the relay pings every 30 s.
	PingInterval = 30 * time.Second
	// PongTimeout is how long a ping may go unanswered before the socket is
	// considered dead and closed.
	PongTimeout = 15 * time.Second
	// WriteTimeout bounds one websocket write; a peer that stops reading is
	// disconnected after it (its messages stay in the mailbox).
	WriteTimeout = 15 * time.Second
	// DefaultFragmentTimeout bounds how long a client may take to send one
	// message once it has started it (a fragmented message, or a frame whose
	// bytes trickle in): like WriteTimeout, a peer too slow to send a message
	// in 15 s is as good as gone, and each unfinished message holds up to
	// MaxMessageBytes of memory meanwhile.
	DefaultFragmentTimeout = 15 * time.Second
	// DefaultMaxUnfinishedBytes bounds the bytes all of a node's sockets hold
	// in unfinished messages (beyond each socket's 4 KiB read buffer): 64 MiB
	// takes a hundred maximal messages in flight at once, far more than
	// WalletConnect's few-KiB messages ever need; a socket that would go over
	// it is closed with 1013.
	DefaultMaxUnfinishedBytes = 64 << 20
	// IdleTimeout closes a socket that has no subscription and has sent no
	// request for this long.
	IdleTimeout = 10 * time.Minute
	// MaxBatch is the most topics or messages one batch request may carry
	// (the WalletConnect relay's MAX_SUBSCRIPTION_BATCH_SIZE).
	MaxBatch = 500
	// MaxFetch is the most messages one fetch answer carries; hasMore says
	// whether to ask again.
	MaxFetch = 500
	// MaxFetchBytes bounds the messages (bodies and attestations) one fetch
	// answer carries, beyond its first message: a full mailbox (1000 ×
	// 512 KiB) is handed out in pages instead of being framed at once.
	MaxFetchBytes = 256 << 10
	// DefaultMaxSocketBuffer bounds the bytes framed for one socket that its
	// peer has not taken yet. 1 MiB holds the largest delivery (512 KiB plus
	// the frame's overhead) with room for answers, while 1,000 stalled
	// sockets cost at most 1 GiB; deliveries to a socket that stops reading
	// wait as references in its queue, not as framed bytes, so an honest
	// slow reader never reaches it.
	DefaultMaxSocketBuffer = 1 << 20
	// DefaultMaxMessagesPerTopic bounds a topic's mailbox.
	DefaultMaxMessagesPerTopic = 1000
	// DefaultMaxTTL is the longest a message may be kept (30 days).
	DefaultMaxTTL = 30 * 24 * time.Hour
	// DefaultMaxMessageBytes bounds the message (envelope) of one publish.
	DefaultMaxMessageBytes = 512 << 10
	// DefaultMaxTopicsPerConn bounds one socket's subscriptions.
	DefaultMaxTopicsPerConn = 2000
	// DefaultPublishRate is how many messages one socket may publish per
	// second (bursts of as many again are allowed).
	DefaultPublishRate = 100
	// DefaultMaxConnsPerIP bounds sockets per client address on one node.
	DefaultMaxConnsPerIP = 1000
	// maxPendingAcks bounds deliveries a socket has not acknowledged; a client
	// that never acknowledges is disconnected rather than grow without bound.
	maxPendingAcks = 10000
	// maxQueued bounds deliveries waiting to be written to one socket.
	maxQueued = 10000
	// closeGrace is how long Close waits for peers to answer the close frame.
	closeGrace = 2 * time.Second
	// attestationMax bounds the attestation (a verify-server JWT) stored with
	// a message.
	attestationMax = 8 << 10
	// statusUnauthorized is the close code the client treats as a fatal
	// relay error (jsonrpc-provider: "closed abnormally with code: 3000").
	statusUnauthorized websocket.StatusCode = 3000
)

// Limits bound what one client can make the relay do. Zero fields take the
// defaults; a negative MaxConnsPerIP or PublishRate turns that limit off.
type Limits struct {
	MaxMessageBytes     int           // one publish's message
	MaxTTL              time.Duration // longest message TTL accepted
	MaxTopicsPerConn    int           // subscriptions per socket
	PublishRate         int           // messages published per second per socket
	MaxConnsPerIP       int           // sockets per client IP on this node
	MaxMessagesPerTopic int           // mailbox size (applied by the broker)
	// MaxSocketBuffer bounds the bytes framed for one socket and not yet
	// taken by its peer (answers, deliveries, control frames). A socket
	// about to go over it is not written to again: it gets a close frame
	// (1008) and is closed. At least MaxMessageBytes + 64 KiB (the default
	// when larger than DefaultMaxSocketBuffer).
	MaxSocketBuffer int
	// FragmentTimeout is how long a socket may hold an unfinished message
	// (fragments, or a frame still arriving); past it the socket is closed
	// with 1008.
	FragmentTimeout time.Duration
	// MaxUnfinishedBytes bounds the bytes of unfinished messages all polled
	// sockets hold together; a socket taking it over is closed with 1013.
	MaxUnfinishedBytes int64
}

func (l *Limits) defaults() {
	if l.MaxMessageBytes <= 0 {
		l.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if l.MaxTTL <= 0 {
		l.MaxTTL = DefaultMaxTTL
	}
	if l.MaxTopicsPerConn <= 0 {
		l.MaxTopicsPerConn = DefaultMaxTopicsPerConn
	}
	if l.PublishRate == 0 {
		l.PublishRate = DefaultPublishRate
	}
	if l.MaxConnsPerIP == 0 {
		l.MaxConnsPerIP = DefaultMaxConnsPerIP
	}
	if l.MaxMessagesPerTopic <= 0 {
		l.MaxMessagesPerTopic = DefaultMaxMessagesPerTopic
	}
	if l.FragmentTimeout <= 0 {
		l.FragmentTimeout = DefaultFragmentTimeout
	}
	if l.MaxUnfinishedBytes <= 0 {
		l.MaxUnfinishedBytes = DefaultMaxUnfinishedBytes
	}
	if l.MaxSocketBuffer <= 0 {
		l.MaxSocketBuffer = max(DefaultMaxSocketBuffer, l.MaxMessageBytes+frameOverhead)
	}
}

// check reports limits that cannot work together.
func (l *Limits) check() error {
	if min := l.MaxMessageBytes + frameOverhead; l.MaxSocketBuffer < min {
		return fmt.Errorf("relay: the socket buffer (%d bytes) must hold the largest message and its frame (%d bytes)", l.MaxSocketBuffer, min)
	}
	return nil
}

// Config configures a Server.
type Config struct {
	Broker Broker
	// Authorize checks a connection's project id and Origin header (empty for
	// non-browser clients). An *AuthError refuses the connection with its
	// reason; any other error is a server failure.
	Authorize func(ctx context.Context, projectID, origin string) error
	// ClientIP is the address connections are counted by (honours trusted
	// proxies); default: the request's remote address.
	ClientIP func(r *http.Request) string
	// PublicURL is the relay's public websocket URL (wss://relay.example),
	// which clients sign as the token's aud. Empty: ListenerURL's. The aud
	// is never taken from a request (its Host header is the client's to
	// choose).
	PublicURL string
	// ListenerURL returns the URL of the listener the relay is served on
	// (ws://host:port), when there is no PublicURL: latchd dev's API
	// listener. Called once, on the first connection.
	ListenerURL func() string
	// TokenMaxLifetime bounds an auth token's exp − iat (default
	// DefaultTokenMaxLifetime).
	TokenMaxLifetime time.Duration
	Limits           Limits
	Metrics          *metrics.Registry // nil: no metrics
	Logger           *slog.Logger
	// Now is the clock (default time.Now); tests inject one.
	Now func() time.Time
	// PingInterval, PongTimeout and IdleTimeout override the defaults of the
	// same names (tests shorten them).
	PingInterval, PongTimeout, IdleTimeout time.Duration

	// noPoll serves every socket with a goroutine, and offload hands every
	// polled socket's messages to a worker as a shared broker's are (tests
	// run all three ways).
	noPoll, offload bool
	// maintainEvery is the maintenance loop's period (default 1 s), and
	// maintained, if set, is called after each of its rounds: tests shorten
	// the one and wait on the other rather than sleep.
	maintainEvery time.Duration
	maintained    func()
}

// Server is the relay: an http.Handler that upgrades requests to relay
// sockets and serves them until Close.
type Server struct {
	cfg       Config
	limits    Limits
	broker    Broker
	log       *slog.Logger
	now       func() time.Time
	publicURL atomic.Pointer[url.URL] // set by New, or from ListenerURL on the first connection
	poller    *poller                 // nil: every socket is served by a goroutine
	inline    bool                    // broker calls never wait on the network: poll loops answer frames themselves
	m         serverMetrics
	subs      atomic.Int64 // subscriptions held by this node's sockets
	// unfinished is the bytes polled sockets hold in unfinished messages.
	unfinished atomic.Int64

	mu       sync.Mutex
	conns    map[*conn]struct{}
	perIP    map[string]int
	closed   bool
	closing  chan struct{}
	handlers sync.WaitGroup // sockets being served (and refusals being closed)
	done     chan struct{}  // maintenance loop exited
}

// New returns a relay server on cfg.Broker and starts its maintenance loop
// (pings, reaping, mailbox sweeps). Close stops it.
func New(cfg Config) (*Server, error) {
	if cfg.Broker == nil || cfg.Authorize == nil {
		return nil, errors.New("relay: Broker and Authorize are required")
	}
	cfg.Limits.defaults()
	if err := cfg.Limits.check(); err != nil {
		return nil, err
	}
	if cfg.PublicURL == "" && cfg.ListenerURL == nil {
		return nil, errors.New("relay: PublicURL or ListenerURL is required (the URL clients sign as their token's audience)")
	}
	if cfg.TokenMaxLifetime <= 0 {
		cfg.TokenMaxLifetime = DefaultTokenMaxLifetime
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.PingInterval <= 0 {
		cfg.PingInterval = PingInterval
	}
	if cfg.PongTimeout <= 0 {
		cfg.PongTimeout = PongTimeout
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = IdleTimeout
	}
	if cfg.maintainEvery <= 0 {
		cfg.maintainEvery = time.Second
	}
	if cfg.ClientIP == nil {
		cfg.ClientIP = func(r *http.Request) string {
			host := r.RemoteAddr
			if i := strings.LastIndexByte(host, ':'); i >= 0 {
				host = host[:i]
			}
			return host
		}
	}
	s := &Server{
		cfg: cfg, limits: cfg.Limits, broker: cfg.Broker, log: cfg.Logger, now: cfg.Now,
		conns: map[*conn]struct{}{}, perIP: map[string]int{},
		closing: make(chan struct{}), done: make(chan struct{}),
	}
	if cfg.PublicURL != "" {
		u, err := ParsePublicURL(cfg.PublicURL)
		if err != nil {
			return nil, err
		}
		s.publicURL.Store(u)
	}
	s.m = newServerMetrics(cfg.Metrics, s)
	_, inProcess := cfg.Broker.(*Memory)
	s.inline = inProcess && !cfg.offload
	if !cfg.noPoll {
		p, err := newPoller()
		if err != nil {
			return nil, err
		}
		s.poller = p
	}
	go s.maintain()
	return s, nil
}

// ParsePublicURL checks a configured relay URL: ws:// or wss:// with a host.
func ParsePublicURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("relay URL must be ws://host[:port][/path] or wss://…")
	}
	return u, nil
}

// Conns is the number of open relay sockets on this node.
func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Close closes every socket with 1001 (going away), waits briefly for the
// peers' answers, and stops the maintenance loop. The broker is not closed:
// it belongs to the caller.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.closing)
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	<-s.done

	for _, c := range conns {
		c.close(websocket.StatusGoingAway, "server shutting down")
	}
	finished := make(chan struct{})
	go func() {
		s.handlers.Wait()
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(closeGrace):
		for _, c := range conns {
			c.sock.closeNow()
		}
		<-finished
	}
	if s.poller != nil {
		s.poller.stop()
	}
	return nil
}

// maintain runs once a second: pings sockets due for one, closes sockets
// that are dead (unanswered ping, stuck write) or idle, and sweeps expired
// messages out of a memory broker. One loop for all sockets keeps idle
// sockets free of timers and goroutines of their own.
func (s *Server) maintain() {
	defer close(s.done)
	tick := time.NewTicker(s.cfg.maintainEvery)
	defer tick.Stop()
	var conns []*conn
	sweep := 0
	for {
		select {
		case <-s.closing:
			return
		case <-tick.C:
		}
		now := s.now()
		s.mu.Lock()
		conns = conns[:0]
		for c := range s.conns {
			conns = append(conns, c)
		}
		s.mu.Unlock()
		for _, c := range conns {
			c.maintain(now)
		}
		clear(conns)
		if sweep++; sweep%10 == 0 {
			if m, ok := s.broker.(*Memory); ok {
				m.Sweep()
			}
		}
		if s.cfg.maintained != nil {
			s.cfg.maintained()
		}
	}
}

// audience is the relay URL tokens must name: PublicURL, or ListenerURL's.
func (s *Server) audience() (*url.URL, error) {
	if u := s.publicURL.Load(); u != nil {
		return u, nil
	}
	u, err := ParsePublicURL(s.cfg.ListenerURL())
	if err != nil {
		return nil, err
	}
	s.publicURL.Store(u)
	return u, nil
}

// register adds an accepted socket, or reports false after Close.
func (s *Server) register(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	s.handlers.Add(1) // under mu, so it happens before Close waits
	return true
}

func (s *Server) unregister(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.releaseIP(c.ip)
	s.mu.Unlock()
}

// reserveIP counts a new socket from ip; false when ip is at its limit.
func (s *Server) reserveIP(ip string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limits.MaxConnsPerIP > 0 && s.perIP[ip] >= s.limits.MaxConnsPerIP {
		return false
	}
	s.perIP[ip]++
	return true
}

// releaseIP undoes reserveIP; s.mu must be held.
func (s *Server) releaseIP(ip string) {
	if n := s.perIP[ip] - 1; n > 0 {
		s.perIP[ip] = n
	} else {
		delete(s.perIP, ip)
	}
}

// serverMetrics are the relay's counters in the metrics registry.
type serverMetrics struct {
	connects  *metrics.CounterVec // result
	published *metrics.CounterVec // result: stored, duplicate
	delivered *metrics.CounterVec
	errors    *metrics.CounterVec // code

	// The series counted per message, resolved once.
	stored, duplicate, deliveredOne metrics.Counter
}

func newServerMetrics(r *metrics.Registry, s *Server) serverMetrics {
	if r == nil {
		r = metrics.NewRegistry()
	}
	m := serverMetrics{
		connects:  r.Counter("latch_relay_connections_total", "Relay websocket connection attempts by result.", "result"),
		published: r.Counter("latch_relay_messages_published_total", "Messages published to the relay, by result (stored, duplicate).", "result"),
		delivered: r.Counter("latch_relay_messages_delivered_total", "irn_subscription messages written to relay sockets."),
		errors:    r.Counter("latch_relay_errors_total", "JSON-RPC errors the relay answered, by code.", "code"),
	}
	m.stored, m.duplicate = m.published.With("stored"), m.published.With("duplicate")
	m.deliveredOne = m.delivered.With()
	r.Gauge("latch_relay_connections", "Open relay websockets on this node.", func() float64 { return float64(s.Conns()) })
	r.Gauge("latch_relay_subscriptions", "Topic subscriptions held by relay sockets on this node.", func() float64 { return float64(s.subs.Load()) })
	return m
}
