//go:build linux

package relay

import (
	"bytes"
	"errors"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/sockio"
)

// A poller serves relay sockets from a few epoll loops (one per processor,
// at most maxPollLoops). A socket is a non-blocking file descriptor taken
// over from the HTTP server after the upgrade; its loop reads it and parses
// the frames. With a broker whose calls never wait on the network (Memory)
// the loop answers them itself; otherwise (Redis) a socket's messages go to
// a worker goroutine of its own, started while it has some, so a round trip
// never stalls the loop's other sockets.
type poller struct {
	loops []*pollLoop
	next  atomic.Uint32
}

const (
	// pollSupported: Linux serves sockets from poll loops.
	pollSupported = true
	maxPollLoops  = 8
	// maxInbox and maxInboxBytes bound the messages a socket's worker has not
	// taken yet; past them the socket is not read until it has.
	maxInbox      = 64
	maxInboxBytes = 1 << 20
	// maxReadsPerReady bounds the reads of one socket each time the loop
	// finds it ready (see onReadable).
	maxReadsPerReady = 4
	// closeHandshakeTimeout is how long the peer has to answer a close
	// frame before the connection is closed anyway.
	closeHandshakeTimeout = 5 * time.Second
)

var (
	errClosing    = errors.New("relay: socket is closing")
	errOverBudget = errors.New("relay: socket write buffer over budget")
)

func newPoller() (*poller, error) {
	n := min(runtime.GOMAXPROCS(0), maxPollLoops)
	p := &poller{}
	for range n {
		l, err := newPollLoop()
		if err != nil {
			p.stop()
			return nil, err
		}
		p.loops = append(p.loops, l)
		go l.run()
	}
	return p, nil
}

// stop ends the loops; their sockets must be closed already.
func (p *poller) stop() {
	for _, l := range p.loops {
		l.stop()
	}
}

// adopt takes the socket under sc over for c: a duplicate of its file
// descriptor, with the bytes already read behind the upgrade request. The
// caller then closes sc and calls start.
func (p *poller) adopt(c *conn, sc *sockConn) (*pollSocket, error) {
	tc, ok := sc.Conn.(syscall.Conn)
	if !ok {
		return nil, errors.New("not a socket")
	}
	fd, err := sockio.Dup(tc)
	if err != nil {
		return nil, err
	}
	ps := &pollSocket{c: c, loop: p.loops[p.next.Add(1)%uint32(len(p.loops))], fd: fd, limit: c.readLimit(), budget: c.s.limits.MaxSocketBuffer, offload: !c.s.inline}
	if len(sc.unread) > 0 {
		ps.getIn()
		ps.in = append(ps.in, sc.unread...)
	}
	return ps, nil
}

// servePolled serves c's socket from a poll loop; false (and nothing done)
// when its descriptor cannot be taken over.
func (s *Server) servePolled(c *conn, ws *websocket.Conn, sc *sockConn) bool {
	p, err := s.poller.adopt(c, sc)
	if err != nil {
		s.log.Warn("relay: poll socket; serving it with a goroutine", "err", err)
		return false
	}
	ws.CloseNow() // closes the HTTP server's descriptor; p has its own
	c.sock = p
	if !s.register(c) {
		p.discard(websocket.StatusGoingAway, "server shutting down")
		s.mu.Lock()
		s.releaseIP(c.ip)
		s.mu.Unlock()
		return true
	}
	s.m.connects.Inc("accepted")
	p.start()
	return true
}

// pollLoop is one epoll loop and the sockets it serves.
type pollLoop struct {
	poller *sockio.Poller
	mu     sync.Mutex
	socks  map[int32]*pollSocket
}

func newPollLoop() (*pollLoop, error) {
	p, err := sockio.NewPoller()
	if err != nil {
		return nil, err
	}
	return &pollLoop{poller: p, socks: map[int32]*pollSocket{}}, nil
}

func (l *pollLoop) stop() { l.poller.Stop() }

func (l *pollLoop) run() { l.poller.Run(l.serve) }

// serve handles a batch of ready sockets.
func (l *pollLoop) serve(events []syscall.EpollEvent) {
	for i := range events {
		ev := &events[i]
		l.mu.Lock()
		ps := l.socks[ev.Fd]
		l.mu.Unlock()
		// An event for a socket closed earlier in this batch may reach the
		// socket that took its descriptor number since: its read or write
		// then finds nothing to do.
		if ps == nil {
			continue
		}
		if ev.Events&syscall.EPOLLOUT != 0 {
			ps.onWritable()
		}
		if ev.Events&(syscall.EPOLLIN|syscall.EPOLLHUP|syscall.EPOLLERR|syscall.EPOLLRDHUP) != 0 {
			ps.onReadable(ev.Events&(syscall.EPOLLHUP|syscall.EPOLLERR|syscall.EPOLLRDHUP) != 0)
		}
	}
}

// add starts serving ps. Once it is in the epoll set the loop owns ps.fd,
// so the descriptor is read before.
func (l *pollLoop) add(ps *pollSocket) error {
	fd := ps.fd
	l.mu.Lock()
	l.socks[int32(fd)] = ps
	l.mu.Unlock()
	if err := l.poller.Add(fd, sockio.In|sockio.ET); err != nil {
		l.remove(fd)
		return err
	}
	return nil
}

func (l *pollLoop) remove(fd int) {
	l.poller.Remove(fd)
	l.mu.Lock()
	delete(l.socks, int32(fd))
	l.mu.Unlock()
}

// pollSocket is a relay socket served by a poll loop (see socket).
type pollSocket struct {
	c       *conn
	loop    *pollLoop
	limit   int  // the largest message a client may send
	budget  int  // the most bytes out may hold (Limits.MaxSocketBuffer)
	offload bool // messages are handled by the worker, not the loop

	// Owned by the loop (by the upgrading goroutine until start).
	in       []byte  // bytes read and not parsed yet; nil when none
	inBuf    *[]byte // the pooled buffer in lives in, if it is one
	frag     []byte  // a fragmented message so far; nil when none
	fragText bool    // frag is a text message (checked for UTF-8 once whole)
	held     int     // bytes of in (grown past a pooled buffer) and frag counted in Server.unfinished
	done     bool    // a message was completed since frames last looked

	wmu       sync.Mutex
	fd        int     // -1 once closed: only the loop closes it, under wmu
	out       *[]byte // written and not yet taken by the socket (pooled)
	holds     int
	armed     bool // the socket's send buffer is full: waiting for EPOLLOUT
	paused    bool // the worker is behind: the socket is not read
	shut      bool // closeNow has shut the connection down
	closeSent bool
	// shutWhenSent: the connection is shut down once out is sent (a close
	// frame the relay does not wait to be answered).
	shutWhenSent bool
	werr         error // sticky: a failed write fails every later one

	overBudget    atomic.Bool  // closed for going over budget: its requests are no longer served
	unfinished    atomic.Int64 // server-clock unix nanos the message under way began; 0 when none
	stuck         atomic.Int64 // server-clock unix nanos the socket stopped taking writes; 0 when it takes them
	pingDeadline  atomic.Int64 // unix nanos; 0 when no ping waits for its pong
	closeDeadline atomic.Int64 // unix nanos; 0 when no close frame waits for its answer

	// The worker (offload): messages it has not taken yet, in order.
	imu        sync.Mutex
	inbox      [][]byte
	inboxBytes int
	working    bool // a worker goroutine runs
	finished   bool // torn down: the worker, if one runs, cleans the conn up
}

// start serves what the client sent behind its upgrade request, then hands
// the socket to its loop.
func (p *pollSocket) start() {
	if len(p.in) > 0 && p.frames() {
		p.teardown()
		return
	}
	if err := p.loop.add(p); err != nil {
		p.c.s.log.Error("relay: poll socket", "err", err)
		p.teardown()
	}
}

// discard closes a socket that was never started.
func (p *pollSocket) discard(code websocket.StatusCode, reason string) {
	p.writeFrame(opClose, closePayload(code, reason))
	p.wmu.Lock()
	fd := p.fd
	p.fd = -1
	p.putOut()
	p.wmu.Unlock()
	syscall.Close(fd)
	p.putIn()
}

// getIn borrows a pooled read buffer.
func (p *pollSocket) getIn() {
	p.inBuf = chunkPool.Get().(*[]byte)
	p.in = (*p.inBuf)[:0]
}

// putIn gives the read buffer back.
func (p *pollSocket) putIn() {
	if p.inBuf != nil {
		chunkPool.Put(p.inBuf)
		p.inBuf = nil
	}
	p.in = nil
}

// onReadable reads what the socket holds and serves the frames it
// completes. The socket is watched edge-triggered (reported once when bytes
// arrive), so it is read until a read comes back short of the room it had:
// the socket is then empty, and bytes that arrive later report it again.
// An emptied socket costs no extra read. Once the peer has closed (hup), it
// is read until the end. Reading stops early while the socket is not to be
// read (its worker is behind, or its peer is not reading the answers);
// changing its watch back re-arms it. A socket that still has bytes after
// maxReadsPerReady reads is re-armed instead, so the loop's other sockets get
// their turn before it is read again (as level-triggered, one read each).
func (p *pollSocket) onReadable(hup bool) {
	for reads := 1; p.fd >= 0; reads++ {
		if p.in == nil {
			p.getIn()
		}
		room := cap(p.in) - len(p.in)
		n, err := sockio.Read(p.fd, p.in[len(p.in):cap(p.in)])
		if err == syscall.EAGAIN {
			if len(p.in) == 0 {
				p.putIn()
			}
			return
		}
		if err != nil || n == 0 {
			p.teardown()
			return
		}
		p.in = p.in[:len(p.in)+n]
		if p.frames() {
			p.teardown()
			return
		}
		if n < room && !hup || !p.reading() {
			return
		}
		if reads == maxReadsPerReady {
			p.wmu.Lock()
			p.watchLocked() // reported again on the loop's next wait
			p.wmu.Unlock()
			return
		}
	}
}

// reading reports whether the loop reads the socket now (see watchLocked).
func (p *pollSocket) reading() bool {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	return p.fd >= 0 && !p.armed && !p.paused
}

// frames serves the complete frames in p.in and keeps the rest, making room
// for a frame larger than the buffer. The answers to frames read together
// leave in one write. It reports whether the connection is done.
func (p *pollSocket) frames() (done bool) {
	p.hold()
	defer p.release()
	b := p.in
	need := 0
	for len(b) > 0 {
		h, ok, ferr := parseFrameHeader(b, p.limit)
		if ferr != nil {
			p.fail(ferr)
			return true
		}
		if !ok {
			break
		}
		if end := h.size + h.length; len(b) < end {
			need = end
			break
		}
		payload := b[h.size : h.size+h.length]
		unmask(payload, h.maskKey)
		b = b[h.size+h.length:]
		if p.frame(h, payload) {
			return true
		}
	}
	switch {
	case len(b) == 0:
		p.putIn()
	case need > cap(p.in):
		grown := make([]byte, len(b), need)
		copy(grown, b)
		p.putIn()
		p.in = grown
	default:
		p.in = p.in[:copy(p.in, b)]
	}
	return p.track()
}

// track times the message under way, if any, and counts what it holds
// against the server's MaxUnfinishedBytes; true when the socket must close.
func (p *pollSocket) track() (done bool) {
	if p.frag == nil && p.in == nil {
		if p.held != 0 {
			p.c.s.unfinished.Add(-int64(p.held))
			p.held = 0
		}
		if p.unfinished.Load() != 0 {
			p.unfinished.Store(0)
		}
		p.done = false
		return false
	}
	if p.done || p.unfinished.Load() == 0 {
		p.unfinished.Store(p.c.s.now().UnixNano())
	}
	p.done = false
	held := cap(p.frag)
	if p.inBuf == nil {
		held += cap(p.in) // grown for a large frame: not a pooled buffer
	}
	if held == p.held {
		return false
	}
	total := p.c.s.unfinished.Add(int64(held - p.held))
	grew := held > p.held
	p.held = held
	if grew && total > p.c.s.limits.MaxUnfinishedBytes {
		// Let go of it now, not at teardown, so the bound holds throughout.
		p.c.s.unfinished.Add(-int64(held))
		p.held, p.frag = 0, nil
		p.fail(errServerBusy)
		return true
	}
	return false
}

// frame serves one frame; true when the connection is done.
func (p *pollSocket) frame(h frameHeader, payload []byte) bool {
	switch h.op {
	case opText, opBinary:
		if p.frag != nil {
			p.fail(errInterleaved)
			return true
		}
		if !h.fin {
			p.frag = append(make([]byte, 0, len(payload)), payload...) // not nil, even when empty
			p.fragText = h.op == opText
			return false
		}
		if h.op == opText && !utf8.Valid(payload) {
			p.fail(errInvalidUTF8)
			return true
		}
		p.message(payload)
	case opContinuation:
		if p.frag == nil {
			p.fail(errContinuation)
			return true
		}
		if len(p.frag)+len(payload) > p.limit {
			p.fail(errMessageTooBig)
			return true
		}
		p.frag = append(p.frag, payload...)
		if h.fin {
			msg := p.frag
			p.frag = nil
			if p.fragText && !utf8.Valid(msg) {
				p.fail(errInvalidUTF8)
				return true
			}
			p.message(msg)
		}
	case opPing:
		p.writeFrame(opPong, payload)
	case opPong:
		p.pingDeadline.Store(0)
	case opClose:
		code, ferr := parseClose(payload)
		if ferr != nil {
			p.fail(ferr)
			return true
		}
		p.c.s.log.Debug("relay: socket closed by peer", "code", int(code))
		if code == websocket.StatusNoStatusRcvd {
			p.writeFrame(opClose, nil)
		} else {
			p.writeFrame(opClose, closePayload(code, ""))
		}
		return true
	}
	return false
}

func (p *pollSocket) message(b []byte) {
	p.done = true
	if p.overBudget.Load() {
		return // nothing it asks for could be sent
	}
	p.c.lastActive.Store(p.c.s.now().UnixNano())
	if !p.offload {
		p.c.handle(b)
		return
	}
	p.imu.Lock()
	p.inbox = append(p.inbox, bytes.Clone(b))
	p.inboxBytes += len(b)
	full := len(p.inbox) >= maxInbox || p.inboxBytes >= maxInboxBytes
	start := !p.working
	p.working = true
	p.imu.Unlock()
	if full {
		p.setPaused(true)
	}
	if start {
		go p.work()
	}
}

// work handles the inbox in order until it is empty; the answers to
// messages taken together leave in one write.
func (p *pollSocket) work() {
	for {
		p.imu.Lock()
		batch := p.inbox
		p.inbox, p.inboxBytes = nil, 0
		if len(batch) == 0 || p.finished {
			p.working = false
			finished := p.finished
			p.imu.Unlock()
			if finished {
				p.c.cleanup()
			}
			return
		}
		p.imu.Unlock()
		p.setPaused(false)
		p.hold()
		for _, m := range batch {
			p.c.handle(m)
		}
		p.release()
	}
}

// setPaused stops or resumes reading the socket.
func (p *pollSocket) setPaused(paused bool) {
	p.wmu.Lock()
	if p.paused != paused {
		p.paused = paused
		p.watchLocked()
	}
	p.wmu.Unlock()
}

// watchLocked sets what the loop waits for: writability while the peer is
// not reading (and then no reading of its requests, so answers cannot pile
// up here), else readability unless the worker is behind.
func (p *pollSocket) watchLocked() {
	if p.fd < 0 {
		return
	}
	var events uint32 = syscall.EPOLLRDHUP
	switch {
	case p.armed:
		events = sockio.Out
	case !p.paused:
		events = sockio.In
	}
	p.loop.poller.Modify(p.fd, events|sockio.ET) // re-armed: reported now if ready
}

// fail closes the connection for a frame the relay will not take.
func (p *pollSocket) fail(ferr *frameError) {
	p.c.s.log.Debug("relay: closing socket", "code", int(ferr.code), "reason", ferr.reason)
	p.writeFrame(opClose, closePayload(ferr.code, ferr.reason))
}

// teardown closes the connection (on the loop, or before start) and cleans
// the conn up.
func (p *pollSocket) teardown() {
	p.wmu.Lock()
	if p.fd < 0 {
		p.wmu.Unlock()
		return
	}
	p.flushLocked() // a close frame, say, if the socket takes it
	fd := p.fd
	p.fd = -1
	if p.werr == nil {
		p.werr = net.ErrClosed
	}
	p.putOut()
	p.wmu.Unlock()
	p.loop.remove(fd)
	syscall.Close(fd)
	p.putIn()
	p.frag = nil
	p.track()
	if !p.offload {
		p.c.cleanup()
		return
	}
	// Cleaning up calls the broker: on a goroutine, after the worker.
	p.imu.Lock()
	p.finished = true
	p.inbox = nil
	working := p.working
	p.imu.Unlock()
	if !working {
		go p.c.cleanup()
	}
}
