package relay

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"github.com/latchkit/latch/internal/jsonrpc"
)

// frameOverhead is what a frame may carry beyond one maximal message: the
// JSON-RPC wrapper and the other params. A larger frame closes the socket
// with 1009 (message too big); a message over the limit inside a frame that
// fits gets a JSON-RPC error instead.
const frameOverhead = 64 << 10

// conn is one relay socket: the JSON-RPC methods, subscriptions and
// deliveries of one client, over a socket (see socket). An idle conn holds no
// I/O buffer, and on Linux no goroutine either; pings and timeouts are driven
// by the server's single maintenance loop.
type conn struct {
	s        *Server
	sock     socket
	clientID string
	ip       string

	// Owned by whoever reads the socket (its goroutine or its poll loop).
	tokens   float64
	refilled time.Time

	lastActive  atomic.Int64 // unix nanos of the last request
	replySince  atomic.Int64 // unix nanos a reply write that may block started (libSocket); 0 when none
	readSince   atomic.Int64 // unix nanos conn.serve began reading a message; 0 when not
	deliverFrom atomic.Int64 // unix nanos a delivery write that may block started (libSocket); 0 when none
	nsubs       atomic.Int32
	nextPing    time.Time // owned by the maintenance loop

	mu      sync.Mutex
	subs    map[string]string   // topic → subscription id
	pending map[uint64]*Message // irn_subscription id → message, until acknowledged
	queue   []*Message          // deliveries waiting for the writer
	spare   []*Message
	writing bool // a writer is running
	parked  bool // the socket is not taking writes: the writer resumes once it does
	closed  bool
	nextID  uint64
}

func newConn(s *Server, clientID, ip string) *conn {
	now := s.now()
	c := &conn{s: s, clientID: clientID, ip: ip, refilled: now, nextPing: now.Add(s.cfg.PingInterval)}
	c.tokens = float64(s.limits.PublishRate)
	c.lastActive.Store(now.UnixNano())
	return c
}

// readLimit is the largest frame (or fragmented message) a client may send.
func (c *conn) readLimit() int { return c.s.limits.MaxMessageBytes + frameOverhead }

// ClientID implements Subscriber.
func (c *conn) ClientID() string { return c.clientID }

// subscriptionID is the id of a client's subscription to a topic. It is the
// one @walletconnect/core computes itself (sha256(topic + clientId)), so the
// ids it sends back in irn_unsubscribe are ours.
func subscriptionID(topic, clientID string) string {
	sum := sha256.Sum256([]byte(topic + clientID))
	return hex.EncodeToString(sum[:])
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer { return bufPool.Get().(*bytes.Buffer) }

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > 64<<10 { // do not keep the odd huge frame's buffer around
		return
	}
	b.Reset()
	bufPool.Put(b)
}

// scratchPool holds the buffers answers and deliveries are built in before
// they are framed. The grown buffer goes back (putScratch), so building one
// allocates nothing once the pool is warm.
var scratchPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

func getScratch() *[]byte { return scratchPool.Get().(*[]byte) }

// putScratch returns p to the pool holding b, the buffer last built in it.
func putScratch(p *[]byte, b []byte) {
	if cap(b) > 64<<10 { // do not keep the odd huge answer's buffer around
		return
	}
	*p = b[:0]
	scratchPool.Put(p)
}

// serve reads a socket served by the websocket library until it closes,
// then unsubscribes everything. While frames the client sent together are
// being answered, the answers are gathered; they leave in one write as soon
// as the reader has to wait for the client (sockConn.holdReader).
func (c *conn) serve(ws *websocket.Conn, out gatherer) {
	defer c.cleanup()
	defer out.releaseReader()
	ws.SetReadLimit(int64(c.readLimit()))
	closing := false
	for {
		typ, r, err := ws.Reader(context.Background())
		if err != nil {
			c.logClosed(err)
			return
		}
		c.readSince.Store(c.s.now().UnixNano())
		buf := getBuffer()
		_, err = buf.ReadFrom(r)
		c.readSince.Store(0)
		if err != nil {
			putBuffer(buf)
			c.logClosed(err)
			return
		}
		if closing || typ == websocket.MessageText && !utf8.Valid(buf.Bytes()) {
			// RFC 6455 §8.1: fail the connection (1007); read on until the
			// library's close handshake ends it, serving nothing more.
			putBuffer(buf)
			if !closing {
				closing = true
				c.close(errInvalidUTF8.code, errInvalidUTF8.reason)
			}
			continue
		}
		if out.inputPending() {
			out.holdReader()
		}
		c.lastActive.Store(c.s.now().UnixNano())
		c.handle(buf.Bytes())
		putBuffer(buf)
	}
}

func (c *conn) logClosed(err error) {
	if st := websocket.CloseStatus(err); st != -1 {
		c.s.log.Debug("relay: socket closed by peer", "code", int(st))
		return
	}
	if !errors.Is(err, context.Canceled) {
		c.s.log.Debug("relay: socket closed", "err", err)
	}
}

// cleanup runs on the socket's reader once the socket is done.
func (c *conn) cleanup() {
	c.mu.Lock()
	c.closed = true
	subs := c.subs
	c.subs, c.pending, c.queue, c.spare = nil, nil, nil, nil
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for topic := range subs {
		if err := c.s.broker.Unsubscribe(ctx, topic, c); err != nil && !errors.Is(err, ErrClosed) {
			c.s.log.Warn("relay: unsubscribe on close", "err", err)
		}
	}
	c.s.subs.Add(-int64(len(subs)))
	c.sock.closeNow()
	c.s.unregister(c)
	c.s.handlers.Done()
}

// close starts the close handshake and returns; the socket's reader cleans
// up once it is done.
func (c *conn) close(code websocket.StatusCode, reason string) {
	c.sock.close(code, reason)
}

// handle answers one frame.
func (c *conn) handle(data []byte) {
	var env envelope
	if perr := parseFrame(data, &env); perr != nil {
		c.replyError(env.ID, perr)
		return
	}
	if env.Method == nil {
		c.handleAck(&env)
		return
	}
	result, after, rerr := c.call(*env.Method, env.Params)
	if len(env.ID) == 0 { // a notification: no answer
		if rerr == nil && after != nil {
			after()
		}
		return
	}
	if rerr != nil {
		c.replyError(env.ID, rerr)
		return
	}
	buf := getScratch()
	b := appendResponse((*buf)[:0], env.ID, result)
	ok := c.writeReply(b)
	putScratch(buf, b)
	if ok && after != nil {
		after()
	}
}

func (c *conn) replyError(id []byte, e *jsonrpc.Error) {
	c.s.m.errors.Inc(itoa(e.Code))
	buf := getScratch()
	b := appendError((*buf)[:0], id, e)
	c.writeReply(b)
	putScratch(buf, b)
}

// writeReply writes an answer from the socket's reader. A write that may
// block is timed (maintain); one that never does is not.
func (c *conn) writeReply(b []byte) bool {
	if c.sock.nonBlocking() {
		return c.write(b) == nil
	}
	c.replySince.Store(c.s.now().UnixNano())
	err := c.write(b)
	c.replySince.Store(0)
	return err == nil
}

// write sends one text frame with one write to the socket.
func (c *conn) write(b []byte) error {
	c.sock.hold()
	err := c.sock.writeText(b)
	if rerr := c.sock.release(); err == nil {
		err = rerr
	}
	return err
}

// handleAck takes the client's answer to an irn_subscription.
func (c *conn) handleAck(env *envelope) {
	id, ok := parseAckID(env.ID)
	if !ok {
		return
	}
	c.mu.Lock()
	m := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if m == nil || len(env.Error) > 0 {
		// An error answer leaves the message unacknowledged: it is delivered
		// again when the client re-subscribes.
		return
	}
	ctx, cancel := c.s.opContext()
	defer cancel()
	if err := c.s.broker.Ack(ctx, c.clientID, m); err != nil && !errors.Is(err, ErrClosed) {
		c.s.log.Warn("relay: ack", "err", err)
	}
}

// Deliver implements Subscriber: it queues m for the writer, starting one if
// none runs. A socket that lets maxQueued deliveries pile up is closed
// (1013); its messages stay in the mailbox for its next connection.
func (c *conn) Deliver(m *Message) {
	c.mu.Lock()
	start := c.deliverLocked(m)
	c.mu.Unlock()
	if start {
		c.startWriter()
	}
}

// deliverLocked queues m and reports whether a writer must be started.
func (c *conn) deliverLocked(m *Message) bool {
	if c.closed {
		return false
	}
	if len(c.queue) >= maxQueued {
		c.closed = true
		c.close(websocket.StatusTryAgainLater, "Too many undelivered messages; reconnect to receive them")
		return false
	}
	c.queue = append(c.queue, m)
	if c.writing || c.parked {
		return false
	}
	c.writing = true
	return true
}

// deliverAll queues a backlog.
func (c *conn) deliverAll(msgs []*Message) {
	c.mu.Lock()
	start := false
	for _, m := range msgs {
		start = c.deliverLocked(m) || start
	}
	c.mu.Unlock()
	if start {
		c.startWriter()
	}
}

// startWriter runs the writer: on the delivering goroutine when the socket's
// writes never block (a poll socket), on a goroutine of its own otherwise.
func (c *conn) startWriter() {
	if c.sock.nonBlocking() {
		c.writeLoop()
		return
	}
	go c.writeLoop()
}

// resumeWriter restarts a writer parked while the socket took no writes; a
// poll socket calls it once its peer reads again.
func (c *conn) resumeWriter() {
	c.mu.Lock()
	start := c.parked && !c.closed
	if start {
		c.parked, c.writing = false, true
	}
	c.mu.Unlock()
	if start {
		c.writeLoop()
	}
}

// writeLoop writes queued deliveries as irn_subscription requests and exits
// when the queue is empty, or parks when the socket takes no more writes
// for now.
func (c *conn) writeLoop() {
	buf := getScratch()
	defer func() { putScratch(buf, *buf) }()
	var batch []*Message
	for {
		c.mu.Lock()
		if c.closed || len(c.queue) == 0 {
			c.writing = false
			c.mu.Unlock()
			return
		}
		if c.sock.blocked() {
			c.writing, c.parked = false, true
			c.mu.Unlock()
			return
		}
		batch, c.queue, c.spare = c.queue, c.spare[:0], nil
		c.mu.Unlock()
		if ok, parked := c.writeBatch(buf, batch); !ok || parked {
			return // closed: the reader sees it and cleans up; parked: resumeWriter goes on
		}
		c.mu.Lock()
		if c.spare == nil && cap(batch) <= 256 {
			c.spare = batch[:0]
		}
		c.mu.Unlock()
	}
}

// writeBatch writes a batch of deliveries, gathered into as few writes as
// their size allows; ok is false when the socket is done for. Once the peer
// stops taking writes, the rest of the batch goes back to the front of the
// queue and the writer parks (parked): undelivered messages wait as
// references, not as framed bytes in the socket's buffer.
func (c *conn) writeBatch(buf *[]byte, batch []*Message) (ok, parked bool) {
	c.sock.hold()
	timed := !c.sock.nonBlocking() // see writeReply
	if timed {
		c.deliverFrom.Store(c.s.now().UnixNano())
	}
	defer func() {
		if err := c.sock.release(); err != nil {
			ok = false
		}
		if timed {
			c.deliverFrom.Store(0)
		}
	}()
	for i, m := range batch {
		c.mu.Lock()
		if !c.closed && c.sock.blocked() {
			c.queue = append(slices.Clip(batch[i:]), c.queue...)
			c.writing, c.parked = false, true
			c.mu.Unlock()
			return true, true
		}
		subID, subscribed := c.subs[m.Topic]
		if c.closed || !subscribed { // unsubscribed since it was queued
			c.mu.Unlock()
			continue
		}
		if len(c.pending) >= maxPendingAcks {
			c.closed = true
			c.mu.Unlock()
			c.close(websocket.StatusPolicyViolation, "Too many unacknowledged messages")
			return false, false
		}
		c.nextID++
		id := c.nextID
		if c.pending == nil {
			c.pending = map[uint64]*Message{}
		}
		c.pending[id] = m
		c.mu.Unlock()
		*buf = appendSubscription((*buf)[:0], id, subID, m)
		if err := c.sock.writeText(*buf); err != nil {
			return false, false
		}
		c.s.m.deliveredOne.Inc()
		batch[i] = nil
	}
	return true, false
}

// maintain is called by the server's maintenance loop about once a second.
func (c *conn) maintain(now time.Time) {
	n := now.UnixNano()
	stuck := func(since int64) bool { return since != 0 && n-since > int64(WriteTimeout) }
	if stuck(c.replySince.Load()) || stuck(c.deliverFrom.Load()) || stuck(c.sock.stuckSince()) {
		c.s.log.Debug("relay: write timed out; closing socket")
		c.sock.closeNow()
		return
	}
	if since := max(c.readSince.Load(), c.sock.unfinishedSince()); since != 0 && n-since > int64(c.s.limits.FragmentTimeout) {
		c.s.log.Debug("relay: message not finished in time; closing socket")
		c.sock.abort(websocket.StatusPolicyViolation, "Message not completed within "+c.s.limits.FragmentTimeout.String())
		return
	}
	if c.sock.overdue() {
		c.s.log.Debug("relay: ping or close handshake unanswered; closing socket")
		c.sock.closeNow()
		return
	}
	if c.nsubs.Load() == 0 && n-c.lastActive.Load() > int64(c.s.cfg.IdleTimeout) {
		c.lastActive.Store(n) // close once
		c.close(websocket.StatusNormalClosure, "Idle: no subscriptions")
		return
	}
	if !now.Before(c.nextPing) {
		c.nextPing = now.Add(c.s.cfg.PingInterval)
		c.sock.ping(c.s.cfg.PongTimeout)
	}
}

// allowPublish takes n messages from the socket's publish budget (a token
// bucket refilled at PublishRate per second, holding one second's worth).
func (c *conn) allowPublish(n int) bool {
	rate := float64(c.s.limits.PublishRate)
	if rate < 0 {
		return true
	}
	now := c.s.now()
	if elapsed := now.Sub(c.refilled).Seconds(); elapsed > 0 {
		c.tokens = min(rate, c.tokens+elapsed*rate)
	}
	c.refilled = now
	if c.tokens < float64(n) {
		return false
	}
	c.tokens -= float64(n)
	return true
}
