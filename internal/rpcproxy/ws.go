package rpcproxy

// Subscriptions over WebSocket: GET /v1?chainId=<caip2>&projectId=<id> (and
// GET /ws, api-shapes §3.8) upgraded to a WebSocket. Each client socket gets
// one socket to the network's WebSocket upstream (--rpc-ws-upstream, the
// Solana dev network's own); latchd forwards the namespace's subscription
// methods only (wsMethods), answers everything else itself with a JSON-RPC
// error, charges every client message to the same rate limits as POST /v1,
// and bounds sockets per client IP and live subscriptions per socket.
// Upstream messages (answers and notifications) reach the client as they are.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/jsonrpc"
)

const (
	// DefaultWSMaxConnsPerIP bounds a client IP's sockets.
	DefaultWSMaxConnsPerIP = 32
	// DefaultWSMaxSubscriptions bounds one socket's live subscriptions.
	DefaultWSMaxSubscriptions = 64
	// wsMaxClientMessage bounds a client message: subscription requests are small.
	wsMaxClientMessage = 16 << 10
	// wsMaxUpstreamMessage bounds one upstream message (an account notification carries its data).
	wsMaxUpstreamMessage = 8 << 20
	wsDialTimeout        = 5 * time.Second
	wsWriteTimeout       = 10 * time.Second
)

// wsMethods are, per namespace, the subscribe methods the WebSocket proxy
// forwards, each with its unsubscribe method.
var wsMethods = map[string]map[string]string{
	"solana": {
		"accountSubscribe":   "accountUnsubscribe",
		"signatureSubscribe": "signatureUnsubscribe",
		"slotSubscribe":      "slotUnsubscribe",
		"rootSubscribe":      "rootUnsubscribe",
	},
	"eip155": {"eth_subscribe": "eth_unsubscribe"},
}

// oneShotNotifications end their subscription when they arrive (Solana's
// signatureNotification): it no longer counts against the socket's limit.
var oneShotNotifications = map[string]bool{"signatureNotification": true}

// wsMessage is what the proxy reads of a message in either direction.
type wsMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

// ServeWS serves GET /v1 and GET /ws: a WebSocket upgrade for a network with
// a WebSocket upstream; anything else is refused before the upgrade with a
// JSON-RPC error and an HTTP status.
func (p *Proxy) ServeWS(w http.ResponseWriter, r *http.Request) {
	if !isUpgrade(r) {
		w.Header().Set("Upgrade", "websocket")
		writeRequestError(w, http.StatusUpgradeRequired, jsonrpc.CodeInvalidRequest,
			"GET on the RPC proxy opens a WebSocket for subscriptions; send JSON-RPC requests with POST")
		return
	}
	chain := r.URL.Query().Get("chainId")
	id, err := caip.ParseChainID(chain)
	if err != nil {
		writeRequestError(w, http.StatusBadRequest, jsonrpc.CodeInvalidParams, err.Error())
		return
	}
	urls := p.cfg.Networks.WSUpstreams(chain)
	if p.cfg.Networks.Get(chain) == nil || len(urls) == 0 || wsMethods[id.Namespace] == nil {
		writeRequestError(w, http.StatusNotFound, jsonrpc.CodeInvalidParams, fmt.Sprintf("Chain %s has no WebSocket subscriptions on this latchd", chain))
		return
	}
	ip := p.cfg.ClientIP(r)
	if !p.reserveWS(ip) {
		jsonrpc.WriteRateLimited(w, nil, time.Second, "WebSocket connections from this address")
		return
	}
	defer p.releaseWS(ip)

	// The upstream first, so a client is never upgraded to a socket that cannot work.
	dialCtx, cancel := context.WithTimeout(r.Context(), wsDialTimeout)
	up, err := p.dialWS(dialCtx, urls)
	cancel()
	if err != nil {
		p.cfg.Logger.WarnContext(r.Context(), "rpc proxy: WebSocket upstream unreachable", "network", chain, "err", err)
		writeRequestError(w, http.StatusBadGateway, jsonrpc.CodeUnavailable, fmt.Sprintf("The WebSocket upstream of %s cannot be reached", chain))
		return
	}
	up.SetReadLimit(wsMaxUpstreamMessage)
	// Origin was checked by the project guard in front (a dapp's origin is not this host).
	client, err := websocket.Accept(deadlineFreeWriter{w}, r, &websocket.AcceptOptions{InsecureSkipVerify: true, CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		up.CloseNow()
		return // Accept answered the request
	}
	client.SetReadLimit(wsMaxClientMessage)
	s := &wsSession{p: p, r: r, client: client, up: up, methods: wsMethods[id.Namespace],
		pending: map[string]bool{}, subs: map[string]bool{}}
	s.serve()
}

func isUpgrade(r *http.Request) bool {
	return headerHas(r.Header, "Connection", "upgrade") && headerHas(r.Header, "Upgrade", "websocket")
}

func headerHas(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// dialWS connects to the first upstream that answers.
func (p *Proxy) dialWS(ctx context.Context, urls []string) (*websocket.Conn, error) {
	var errs []error
	for _, u := range urls {
		c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{CompressionMode: websocket.CompressionDisabled})
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

func (p *Proxy) reserveWS(ip string) bool {
	p.wsMu.Lock()
	defer p.wsMu.Unlock()
	if p.wsConns[ip] >= p.cfg.WSMaxConnsPerIP {
		return false
	}
	p.wsConns[ip]++
	return true
}

func (p *Proxy) releaseWS(ip string) {
	p.wsMu.Lock()
	defer p.wsMu.Unlock()
	if p.wsConns[ip]--; p.wsConns[ip] <= 0 {
		delete(p.wsConns, ip)
	}
}

// deadlineFreeWriter clears the server's read and write deadlines on the
// hijacked connection: a subscription socket lives longer than a request.
type deadlineFreeWriter struct{ http.ResponseWriter }

func (w deadlineFreeWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil {
		if err = nc.SetDeadline(time.Time{}); err != nil {
			nc.Close()
		}
	}
	return nc, brw, err
}

// wsSession is one client socket and its upstream socket.
type wsSession struct {
	p       *Proxy
	r       *http.Request
	client  *websocket.Conn
	up      *websocket.Conn
	methods map[string]string

	writeMu sync.Mutex // client writes: answers from latchd and from upstream
	mu      sync.Mutex
	pending map[string]bool // ids of subscribe requests not answered yet
	subs    map[string]bool // live subscription ids, as their JSON
}

func (s *wsSession) serve() {
	ctx, cancel := context.WithCancel(context.WithoutCancel(s.r.Context()))
	defer cancel()
	go func() {
		defer cancel()
		s.fromUpstream(ctx)
	}()
	s.fromClient(ctx)
	cancel()
	s.up.Close(websocket.StatusNormalClosure, "")
	s.client.Close(websocket.StatusNormalClosure, "")
}

// fromClient reads the client's requests: allowed ones go upstream, the rest
// are answered here.
func (s *wsSession) fromClient(ctx context.Context) {
	for {
		typ, data, err := s.client.Read(ctx)
		if err != nil {
			return
		}
		var m wsMessage
		switch {
		case typ != websocket.MessageText || !json.Valid(data):
			s.answer(ctx, nil, &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "Parse error"})
			continue
		case len(data) > 0 && data[0] == '[':
			s.answer(ctx, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Batches are not taken on the WebSocket; send one request per message"})
			continue
		}
		if err := json.Unmarshal(data, &m); err != nil || m.Method == "" || len(m.ID) == 0 || string(m.ID) == "null" {
			s.answer(ctx, m.ID, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "A request needs an id and a method"})
			continue
		}
		if len(m.Method) > maxMethodLen {
			m.Method = m.Method[:maxMethodLen]
		}
		if !s.allowed(m.Method) {
			s.answer(ctx, m.ID, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("%s is not allowed on the WebSocket; it takes subscriptions only (send other requests with POST)", m.Method)})
			continue
		}
		if !s.charge(ctx) {
			s.answer(ctx, m.ID, &jsonrpc.Error{Code: jsonrpc.CodeLimitExceeded, Message: "Rate limit exceeded"})
			continue
		}
		if rerr := s.track(m); rerr != nil {
			s.answer(ctx, m.ID, rerr)
			continue
		}
		wctx, cancel := context.WithTimeout(ctx, wsWriteTimeout)
		err = s.up.Write(wctx, websocket.MessageText, data)
		cancel()
		if err != nil {
			return
		}
	}
}

// fromUpstream passes the upstream's messages to the client, keeping the
// count of live subscriptions.
func (s *wsSession) fromUpstream(ctx context.Context) {
	for {
		_, data, err := s.up.Read(ctx)
		if err != nil {
			s.client.Close(websocket.StatusGoingAway, "The upstream closed the connection")
			return
		}
		var m wsMessage
		if json.Unmarshal(data, &m) == nil {
			s.observe(m)
		}
		if s.write(ctx, data) != nil {
			return
		}
	}
}

func (s *wsSession) allowed(method string) bool {
	if _, ok := s.methods[method]; ok {
		return true
	}
	for _, unsub := range s.methods {
		if unsub == method {
			return true
		}
	}
	return false
}

// track counts a subscribe request against the socket's limit (refusing it
// past the limit) and drops the subscription an unsubscribe names.
func (s *wsSession) track(m wsMessage) *jsonrpc.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, subscribe := s.methods[m.Method]; subscribe {
		if len(s.subs)+len(s.pending) >= s.p.cfg.WSMaxSubscriptions {
			return &jsonrpc.Error{Code: jsonrpc.CodeLimitExceeded, Message: fmt.Sprintf("This connection already holds %d subscriptions; unsubscribe first", s.p.cfg.WSMaxSubscriptions)}
		}
		s.pending[string(m.ID)] = true
		return nil
	}
	var params []json.RawMessage
	if json.Unmarshal(m.Params, &params) == nil && len(params) > 0 {
		delete(s.subs, string(params[0]))
	}
	return nil
}

// observe records the subscription id an answer gives and forgets one a
// one-shot notification ends.
func (s *wsSession) observe(m wsMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(m.ID) > 0 && s.pending[string(m.ID)] {
		delete(s.pending, string(m.ID))
		if len(m.Result) > 0 && string(m.Result) != "null" {
			s.subs[string(m.Result)] = true
		}
		return
	}
	if oneShotNotifications[m.Method] {
		var p struct {
			Subscription json.RawMessage `json:"subscription"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			delete(s.subs, string(p.Subscription))
		}
	}
}

// charge takes one event of the client IP's and the project's rate limits;
// a limiter that cannot decide lets the message through, as POST /v1 does.
func (s *wsSession) charge(ctx context.Context) bool {
	cfg := s.p.cfg
	if cfg.IPLimiter != nil {
		if d, err := cfg.IPLimiter.AllowN(ctx, cfg.ClientIP(s.r), 1); err == nil && !d.Allowed {
			return false
		}
	}
	if cfg.ProjectLimiter != nil {
		if pid := s.r.URL.Query().Get("projectId"); pid != "" {
			if d, err := cfg.ProjectLimiter.AllowN(ctx, pid, 1); err == nil && !d.Allowed {
				return false
			}
		}
	}
	return true
}

// answer sends latchd's own error answer to the client.
func (s *wsSession) answer(ctx context.Context, id json.RawMessage, e *jsonrpc.Error) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	out := []byte(`{"jsonrpc":"2.0","id":`)
	out = append(out, id...)
	out = append(out, `,"error":`...)
	out = jsonrpc.AppendErrorObject(out, e)
	out = append(out, '}')
	_ = s.write(ctx, out)
}

func (s *wsSession) write(ctx context.Context, data []byte) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	wctx, cancel := context.WithTimeout(ctx, wsWriteTimeout)
	defer cancel()
	return s.client.Write(wctx, websocket.MessageText, data)
}
