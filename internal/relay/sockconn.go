package relay

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/latchkit/latch/internal/sockio"
)

// Buffer sizes of a relay socket. Most WalletConnect frames are 0.5–4 KiB.
const (
	// ioChunk is the size of the pooled buffers a socket borrows to read and
	// to gather a frame's writes.
	ioChunk = 4096
	// maxGather is how many bytes writes are gathered to before they are sent
	// even though a hold is open; it is also the largest buffer put back in
	// the pool (the odd huge frame's buffer is left to the collector).
	maxGather = 64 << 10
	// fallbackBufferSize is the bufio size for a connection that is not a
	// socket (it keeps its buffers for its lifetime).
	fallbackBufferSize = 2048
)

var chunkPool = sync.Pool{New: func() any { b := make([]byte, ioChunk); return &b }}

// sockConn is the connection a relay websocket runs on. An idle relay socket
// should cost little more than its goroutine, so sockConn owns no buffer while
// idle:
//
//   - Reads wait for the socket to become readable without a buffer, then
//     borrow a pooled one, read what is there and return the buffer once its
//     bytes have been handed out.
//   - Writes made while a hold is open are gathered in a pooled buffer and
//     sent with one write when the last hold is released: the websocket
//     library writes a frame's header and payload separately, and frames
//     written back to back (a batch of deliveries, the answers to requests
//     that arrived together) leave in one system call. Other writes go
//     straight to the socket.
//
// The websocket library's own bufio buffers over it are the minimum 16 bytes.
type sockConn struct {
	net.Conn
	raw syscall.RawConn

	// Read side; the websocket library serializes reads.
	unread  []byte      // bytes read and not yet handed out
	rchunk  *[]byte     // the pooled buffer unread lives in, if any
	pending atomic.Bool // len(unread) > 0, for inputPending

	wmu   sync.Mutex
	wbuf  *[]byte // gathered writes (pooled), nil when empty
	holds int
	werr  error // sticky: a failed write fails every later one

	readerHeld   atomic.Bool // the reader's hold (holdReader) is open
	now          func() time.Time
	writingSince atomic.Int64 // unix nanos a socket write started; 0 when none
}

// newSocketIO wraps a hijacked connection for the websocket library: the
// connection to hand it and the bufio pair over that connection. pending are
// bytes the client sent right behind its upgrade request. A connection that
// is not a socket gets ordinary buffers.
func newSocketIO(nc net.Conn, pending []byte, now func() time.Time) (net.Conn, *bufio.ReadWriter) {
	sc, ok := nc.(syscall.Conn)
	var raw syscall.RawConn
	if ok {
		var err error
		raw, err = sc.SyscallConn()
		ok = err == nil
	}
	if !ok {
		var r io.Reader = nc
		if len(pending) > 0 {
			r = io.MultiReader(bytes.NewReader(bytes.Clone(pending)), nc)
		}
		return nc, bufio.NewReadWriter(bufio.NewReaderSize(r, fallbackBufferSize), bufio.NewWriterSize(nc, fallbackBufferSize))
	}
	c := &sockConn{Conn: nc, raw: raw, now: now}
	if len(pending) > 0 {
		c.unread = bytes.Clone(pending)
		c.pending.Store(true)
	}
	return c, bufio.NewReadWriter(bufio.NewReaderSize(c, 16), bufio.NewWriterSize(c, 16))
}

// inputPending reports whether bytes the client sent are already read and
// waiting to be handed to the websocket library: the next frame (or its
// start) is here. The few bytes the library's own 16-byte buffer may hold
// are not counted; it is a hint for gathering answers, never for
// correctness.
func (c *sockConn) inputPending() bool { return c.pending.Load() }

// Read implements io.Reader.
func (c *sockConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(c.unread) == 0 {
		// About to wait for the client: what the reader gathered goes out
		// first.
		c.releaseReader()
		if len(p) >= ioChunk {
			return c.Conn.Read(p) // the caller's buffer is big enough: read into it
		}
		if err := c.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, c.unread)
	c.unread = c.unread[n:]
	if len(c.unread) == 0 {
		c.pending.Store(false)
		c.unread = nil
		if c.rchunk != nil {
			chunkPool.Put(c.rchunk)
			c.rchunk = nil
		}
	}
	return n, nil
}

// fill waits until the socket is readable and reads what it holds into a
// pooled buffer, which is borrowed only once there is something to read.
func (c *sockConn) fill() error {
	var (
		n    int
		rerr error
	)
	err := c.raw.Read(func(fd uintptr) bool {
		if c.rchunk == nil {
			c.rchunk = chunkPool.Get().(*[]byte)
		}
		n, rerr = sockio.Read(int(fd), *c.rchunk)
		if rerr == syscall.EAGAIN {
			chunkPool.Put(c.rchunk) // nothing to read: wait without a buffer
			c.rchunk = nil
			return false
		}
		return true
	})
	switch {
	case err == nil && rerr != nil:
		err = os.NewSyscallError("read", rerr)
	case err == nil && n <= 0:
		err = io.EOF
	}
	if err != nil {
		if c.rchunk != nil {
			chunkPool.Put(c.rchunk)
			c.rchunk = nil
		}
		return err
	}
	c.unread = (*c.rchunk)[:n]
	c.pending.Store(true)
	return nil
}

// Write implements io.Writer: gathered while a hold is open, straight to the
// socket otherwise.
func (c *sockConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr != nil {
		return 0, c.werr
	}
	if c.holds == 0 && c.wbuf == nil {
		return c.writeLocked(p)
	}
	if c.wbuf == nil {
		c.wbuf = chunkPool.Get().(*[]byte)
		*c.wbuf = (*c.wbuf)[:0]
	}
	*c.wbuf = append(*c.wbuf, p...)
	if len(*c.wbuf) >= maxGather {
		return len(p), c.flushLocked()
	}
	return len(p), nil
}

// hold gathers writes until the matching release.
func (c *sockConn) hold() {
	c.wmu.Lock()
	c.holds++
	c.wmu.Unlock()
}

// holdReader opens the reading goroutine's hold, for answering frames that
// arrived together with one write. It ends with releaseReader, or by itself
// as soon as a read has to wait for the client (so a frame still in flight,
// or a control frame the websocket library consumes, never holds answers
// back).
func (c *sockConn) holdReader() {
	if c.readerHeld.CompareAndSwap(false, true) {
		c.hold()
	}
}

// releaseReader ends the reader's hold, if open.
func (c *sockConn) releaseReader() error {
	if c.readerHeld.CompareAndSwap(true, false) {
		return c.release()
	}
	return nil
}

// release ends a hold; the last one sends what was gathered. Its error is
// that of the writes made so far.
func (c *sockConn) release() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.holds--
	if c.holds > 0 {
		return c.werr
	}
	return c.flushLocked()
}

func (c *sockConn) flushLocked() error {
	if c.wbuf == nil {
		return c.werr
	}
	b := c.wbuf
	c.wbuf = nil
	_, err := c.writeLocked(*b)
	if cap(*b) <= maxGather {
		*b = (*b)[:cap(*b)]
		chunkPool.Put(b)
	}
	return err
}

func (c *sockConn) writeLocked(p []byte) (int, error) {
	if c.werr != nil {
		return 0, c.werr
	}
	c.writingSince.Store(c.now().UnixNano())
	n, err := c.writeSocket(p)
	c.writingSince.Store(0)
	if err != nil {
		c.werr = err
	}
	return n, err
}

// stuckSince is when the socket write in progress started (unix nanos), or
// 0: the maintenance loop closes a socket whose peer stopped reading.
func (c *sockConn) stuckSince() int64 { return c.writingSince.Load() }

// Close implements net.Conn. It does not take the write lock: closing is how
// a write stuck on a peer that stopped reading is ended.
func (c *sockConn) Close() error { return c.Conn.Close() }

// gatherer is what a relay conn gathers its writes with: the sockConn, or
// nothing for a connection that is not a socket.
type gatherer interface {
	hold()
	release() error
	holdReader()
	releaseReader() error
	inputPending() bool
	stuckSince() int64
}

type noGather struct{}

func (noGather) hold()                {}
func (noGather) release() error       { return nil }
func (noGather) holdReader()          {}
func (noGather) releaseReader() error { return nil }
func (noGather) inputPending() bool   { return false }
func (noGather) stuckSince() int64    { return 0 }

// writeSocket writes all of p, waiting in the netpoller while the socket's
// send buffer is full.
func (c *sockConn) writeSocket(p []byte) (int, error) {
	var (
		n    int
		werr error
	)
	err := c.raw.Write(func(fd uintptr) bool {
		for n < len(p) {
			m, err := sockio.Write(int(fd), p[n:])
			if m > 0 {
				n += m
			}
			if err == syscall.EAGAIN {
				return false
			}
			if err != nil {
				werr = err
				return true
			}
		}
		return true
	})
	if err == nil && werr != nil {
		err = os.NewSyscallError("write", werr)
	}
	return n, err
}
