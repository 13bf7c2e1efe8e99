package relay

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/httpx"
)

var errTooManyConns = errors.New("too many connections from this address")

// ServeHTTP upgrades a relay request: it verifies the auth token and the
// project, then serves the socket until either side closes it.
//
// A refused client that asked for useOnCloseEvent=true (every
// @walletconnect/core does: a browser cannot read a failed upgrade's status)
// gets the upgrade and then a close frame: 3000 with "Unauthorized: …" for a
// bad token or project, 1013 when its address has too many sockets, 1011 for
// a server failure. Other clients get 401, 429 or 503.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		w.Header().Set("Upgrade", "websocket")
		httpx.JSON(w, http.StatusUpgradeRequired, httpx.ErrorBody{Status: "ERROR", Code: apperr.Unsupported,
			Reasons: []httpx.Reason{{Field: "Upgrade", Description: "The WalletConnect relay is a websocket: connect with ws:// or wss://"}}})
		return
	}
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		httpx.Error(w, r, apperr.Errorf(apperr.Unavailable, "The relay is shutting down; reconnect"))
		return
	}
	q := r.URL.Query()
	onClose := q.Get("useOnCloseEvent") == "true"
	token := q.Get("auth")
	if token == "" {
		// The relay spec allows the token as a bearer header instead.
		if h := r.Header.Get("Authorization"); len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
			token = h[7:]
		}
	}
	aud, err := s.audience()
	if err != nil {
		s.refuse(w, r, onClose, err)
		return
	}
	claims, err := TokenPolicy{MaxLifetime: s.cfg.TokenMaxLifetime}.Verify(token, s.now(), audienceMatcher(aud, r.URL.Path))
	if err == nil {
		err = s.cfg.Authorize(r.Context(), q.Get("projectId"), r.Header.Get("Origin"))
	}
	if err != nil {
		s.refuse(w, r, onClose, err)
		return
	}
	ip := s.cfg.ClientIP(r)
	if !s.reserveIP(ip) {
		s.refuse(w, r, onClose, errTooManyConns)
		return
	}
	hw := &hijackWriter{ResponseWriter: w, now: s.now}
	ws, err := websocket.Accept(hw, r, acceptOptions)
	if err != nil {
		s.mu.Lock()
		s.releaseIP(ip)
		s.mu.Unlock()
		s.m.connects.Inc("failed")
		return // Accept answered the request
	}
	c := newConn(s, claims.ClientID, ip)
	if s.poller != nil && hw.sock != nil && s.servePolled(c, ws, hw.sock) {
		return
	}
	c.sock = &libSocket{ws: ws, out: hw.out}
	if !s.register(c) {
		s.mu.Lock()
		s.releaseIP(ip)
		s.mu.Unlock()
		ws.Close(websocket.StatusGoingAway, "server shutting down")
		return
	}
	s.m.connects.Inc("accepted")
	// Serve on a fresh goroutine so the server's request goroutine (and its
	// stack) is released; an idle socket then costs one small goroutine.
	go c.serve(ws, hw.out)
}

// acceptOptions: Origin is checked against the project's allowlist by
// Authorize (a wallet page's origin is not this host), and WalletConnect
// payloads are encrypted, so compression would only cost memory.
var acceptOptions = &websocket.AcceptOptions{InsecureSkipVerify: true, CompressionMode: websocket.CompressionDisabled}

// refuse answers a connection the relay will not serve (see ServeHTTP).
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, onClose bool, err error) {
	var (
		code     websocket.StatusCode
		reason   string
		apperror error
		result   string
	)
	var authErr *AuthError
	switch {
	case errors.As(err, &authErr):
		code, reason, result = statusUnauthorized, authErr.Error(), "unauthorized"
		apperror = apperr.Errorf(apperr.Unauthorized, "%s", reason)
	case errors.Is(err, errTooManyConns):
		code, reason, result = websocket.StatusTryAgainLater, "Too many connections from this address", "limited"
		apperror = apperr.Errorf(apperr.RateLimited, "%s", reason)
	default:
		s.log.Error("relay: authorize connection", "err", err)
		code, reason, result = websocket.StatusInternalError, "Internal error", "error"
		apperror = apperr.Errorf(apperr.Unavailable, "The relay cannot check this connection now; retry later")
	}
	s.m.connects.Inc(result)
	if !onClose {
		httpx.Error(w, r, apperror)
		return
	}
	ws, err := websocket.Accept(&hijackWriter{ResponseWriter: w, now: s.now}, r, acceptOptions)
	if err != nil {
		return
	}
	reason = closeReason(reason) // at most 123 bytes, cut at a character boundary
	// Close waits (up to 5 s) for the peer's close frame; the request
	// goroutine can afford it.
	ws.Close(code, reason)
}

// hijackWriter hands the websocket library a hijacked connection that is
// ready to live for hours: the API server's read and write deadlines are
// cleared (the relay runs its own liveness checks), and the connection is a
// sockConn, which holds no buffer while the socket is idle. It reaches the
// server's writer through Unwrap (the observe middleware's statusWriter).
type hijackWriter struct {
	http.ResponseWriter
	now  func() time.Time
	out  gatherer  // set by Hijack
	sock *sockConn // set by Hijack when the connection is a socket
}

func (w *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := nc.SetDeadline(time.Time{}); err != nil {
		nc.Close()
		return nil, nil, err
	}
	// Bytes the client sent right behind its upgrade request stay readable.
	pending, _ := brw.Reader.Peek(brw.Reader.Buffered())
	conn, rw := newSocketIO(nc, pending, w.now)
	w.out = noGather{}
	if sc, ok := conn.(*sockConn); ok {
		w.out, w.sock = sc, sc
	}
	return conn, rw, nil
}
