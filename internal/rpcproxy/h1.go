package rpcproxy

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// h1Client is the fast path for reads from plain-http upstreams, which are
// nodes near latchd (the dev chains, an operator's own node on the host or
// the LAN): there the proxy's own overhead is most of the added latency, and
// net/http's transport hands every call to a writer and a reader goroutine
// and back (about 35 µs per call on the 2-core reference machine). h1Client
// writes the request and reads the answer on the calling goroutine over
// pooled keep-alive connections.
//
// It speaks only what upstream JSON-RPC needs: POST with a Content-Length
// body; answers with Content-Length, chunked or until close (http.ReadResponse
// parses them). TLS upstreams, proxies from the environment and transactions
// go through the configured *http.Client: a transaction must never be sent
// twice, and h1Client re-sends a read when a kept-alive connection turns out
// to have been closed by the node.
type h1Client struct {
	dialer  net.Dialer
	maxIdle int // idle connections kept per host

	mu   sync.Mutex
	idle map[string][]*h1Conn // by host:port, most recently used last
}

type h1Conn struct {
	net.Conn
	br *bufio.Reader
	bw *bufio.Writer
}

// h1Request is one call prepared for h1Client.
type h1Request struct {
	addr    string // host:port to dial
	head    []byte // request line and headers up to Content-Length's value
	body    []byte
	maxBody int64 // larger answers fail with errTooLarge
}

// h1Response is an upstream's answer.
type h1Response struct {
	status     int
	retryAfter string
	body       []byte
}

var errTooLarge = errors.New("rpcproxy: upstream answer too large")

func newH1Client(maxIdle int) *h1Client {
	return &h1Client{maxIdle: maxIdle, idle: map[string][]*h1Conn{}, dialer: net.Dialer{KeepAlive: 30 * time.Second}}
}

// newH1Request prepares a POST of a JSON body to a plain-http URL; ok is
// false for URLs h1Client does not serve (https, or unparseable).
func newH1Request(rawURL string) (h1Request, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return h1Request{}, false
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	for i := 0; i < len(path); i++ {
		if path[i] <= ' ' || path[i] >= 0x7f {
			return h1Request{}, false // not a valid request target as written; net/http will say so
		}
	}
	head := "POST " + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\nUser-Agent: latchd\r\n" +
		"Content-Type: application/json\r\nAccept: application/json\r\nAccept-Encoding: identity\r\n"
	if u.User != nil {
		pass, _ := u.User.Password()
		req := http.Request{Header: http.Header{}}
		req.SetBasicAuth(u.User.Username(), pass)
		head += "Authorization: " + req.Header.Get("Authorization") + "\r\n"
	}
	return h1Request{addr: addr, head: []byte(head + "Content-Length: ")}, true
}

// do sends req and reads the answer. A kept-alive connection the node
// closed while idle fails before any answer arrives; the call is then made
// once more on a new connection.
func (c *h1Client) do(ctx context.Context, req h1Request) (h1Response, error) {
	for try := 0; ; try++ {
		conn, reused, err := c.get(ctx, req.addr)
		if err != nil {
			return h1Response{}, err
		}
		res, keep, answered, err := c.exchange(ctx, conn, req)
		if keep {
			c.put(req.addr, conn)
		} else {
			conn.Close()
		}
		if err != nil && reused && !answered && try == 0 && ctx.Err() == nil {
			continue
		}
		return res, err
	}
}

// exchange makes one call on conn. keep says whether conn may be reused;
// answered whether any byte of an answer arrived.
func (c *h1Client) exchange(ctx context.Context, conn *h1Conn, req h1Request) (res h1Response, keep, answered bool, err error) {
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	} else {
		conn.SetDeadline(time.Time{})
	}
	// Cancellation unblocks the read or write in progress.
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer func() {
		if !stop() {
			keep = false // the deadline may have fired: the connection is spoiled
		}
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			} else if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
				err = context.DeadlineExceeded // the socket's deadline fired a moment before ctx's timer
			}
		}
	}()

	bw := conn.bw
	bw.Write(req.head)
	bw.Write(strconv.AppendInt(nil, int64(len(req.body)), 10))
	bw.WriteString("\r\n\r\n")
	bw.Write(req.body)
	if err = bw.Flush(); err != nil {
		return res, false, false, err
	}
	if _, err = conn.br.Peek(1); err != nil {
		return res, false, false, err
	}
	resp, err := http.ReadResponse(conn.br, nil)
	if err != nil {
		return res, false, true, err
	}
	defer resp.Body.Close()
	res.status = resp.StatusCode
	res.retryAfter = resp.Header.Get("Retry-After")
	if resp.ContentLength > req.maxBody {
		return res, false, true, errTooLarge
	}
	res.body, err = io.ReadAll(io.LimitReader(resp.Body, req.maxBody+1))
	if err != nil {
		return res, false, true, err
	}
	if int64(len(res.body)) > req.maxBody {
		return res, false, true, errTooLarge
	}
	// Whatever remains of the body after the limit (none, here) and the
	// node's wish decide whether the connection can carry another call.
	return res, !resp.Close, true, nil
}

func (c *h1Client) get(ctx context.Context, addr string) (*h1Conn, bool, error) {
	c.mu.Lock()
	if conns := c.idle[addr]; len(conns) > 0 {
		conn := conns[len(conns)-1]
		c.idle[addr] = conns[:len(conns)-1]
		c.mu.Unlock()
		return conn, true, nil
	}
	c.mu.Unlock()
	nc, err := c.dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, false, err
	}
	return &h1Conn{Conn: nc, br: bufio.NewReaderSize(nc, 16<<10), bw: bufio.NewWriterSize(nc, 4<<10)}, false, nil
}

func (c *h1Client) put(addr string, conn *h1Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.idle[addr]) >= c.maxIdle {
		conn.Close()
		return
	}
	c.idle[addr] = append(c.idle[addr], conn)
}

// close closes every idle connection.
func (c *h1Client) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for addr, conns := range c.idle {
		for _, conn := range conns {
			conn.Close()
		}
		delete(c.idle, addr)
	}
}
