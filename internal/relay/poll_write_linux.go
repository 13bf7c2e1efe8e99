//go:build linux

// The write side of a polled socket: frames gathered into its buffer, sent
// as far as the socket takes them, the rest on EPOLLOUT; the write buffer
// budget; closing and shutting down.

package relay

import (
	"net"
	"os"
	"syscall"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/sockio"
)

func (p *pollSocket) writeText(b []byte) error { return p.writeFrame(opText, b) }

// writeFrame writes a frame now, or gathers it while a hold is open. Bytes
// the socket does not take wait in the buffer until it is writable again;
// only a failed connection is an error.
func (p *pollSocket) writeFrame(op byte, payload []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.werr != nil {
		return p.werr
	}
	if p.closeSent {
		return errClosing // nothing follows a close frame
	}
	if p.out == nil {
		p.out = chunkPool.Get().(*[]byte)
		*p.out = (*p.out)[:0]
	}
	if op != opClose && len(*p.out)+maxFrameHeader+len(payload) > p.budget {
		// The peer is not taking what it asked for (pipelined fetches, say):
		// nothing more is framed for it, only a close frame, and the socket
		// is closed once that is sent or the handshake times out.
		op, payload = opClose, closePayload(websocket.StatusPolicyViolation, "Write buffer over budget: the client is not reading what it asked for")
		p.closeDeadline.CompareAndSwap(0, time.Now().Add(closeHandshakeTimeout).UnixNano())
		p.c.s.log.Debug("relay: socket over its write buffer budget; closing", "buffered", len(*p.out), "budget", p.budget)
		*p.out = append(appendFrameHeader(*p.out, op, len(payload)), payload...)
		p.closeSent, p.shutWhenSent = true, true
		p.overBudget.Store(true)
		p.flushLocked()
		return errOverBudget
	}
	*p.out = append(appendFrameHeader(*p.out, op, len(payload)), payload...)
	if op == opClose {
		p.closeSent = true
	}
	if p.holds == 0 || len(*p.out) >= maxGather {
		p.flushLocked()
	}
	return p.werr
}

func (p *pollSocket) hold() {
	p.wmu.Lock()
	p.holds++
	p.wmu.Unlock()
}

func (p *pollSocket) release() error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.holds--; p.holds == 0 {
		p.flushLocked()
	}
	return p.werr
}

// flushLocked writes what the socket takes of p.out; the rest waits for
// EPOLLOUT.
func (p *pollSocket) flushLocked() {
	if p.out == nil || p.armed || p.fd < 0 || p.werr != nil {
		return
	}
	b := *p.out
	for len(b) > 0 {
		n, err := sockio.Write(p.fd, b)
		if err == syscall.EAGAIN {
			break
		}
		if err != nil {
			p.werr = os.NewSyscallError("write", err)
			p.shutLocked()
			p.putOut()
			return
		}
		b = b[n:]
	}
	if len(b) == 0 {
		p.putOut()
		p.stuck.Store(0)
		if p.shutWhenSent {
			p.shutLocked()
		}
		return
	}
	// The peer is not reading: wait until it does.
	*p.out = (*p.out)[:copy(*p.out, b)]
	p.armed = true
	if p.stuck.Load() == 0 {
		p.stuck.Store(p.c.s.now().UnixNano())
	}
	p.watchLocked()
}

func (p *pollSocket) putOut() {
	if p.out == nil {
		return
	}
	if cap(*p.out) <= maxGather {
		*p.out = (*p.out)[:cap(*p.out)]
		chunkPool.Put(p.out)
	}
	p.out = nil
}

// onWritable sends what waited for the socket; once all is sent, queued
// deliveries follow.
func (p *pollSocket) onWritable() {
	p.wmu.Lock()
	if !p.armed || p.fd < 0 {
		p.wmu.Unlock()
		return
	}
	p.armed = false
	p.flushLocked()
	drained := !p.armed && p.werr == nil
	if drained {
		p.watchLocked()
	}
	p.wmu.Unlock()
	if drained {
		p.c.resumeWriter()
	}
}

func (p *pollSocket) close(code websocket.StatusCode, reason string) {
	p.closeDeadline.CompareAndSwap(0, time.Now().Add(closeHandshakeTimeout).UnixNano())
	if err := p.writeFrame(opClose, closePayload(code, reason)); err != nil && err != errClosing {
		p.closeNow()
	}
}

// closeNow shuts the connection down; the loop then sees it end and tears
// the socket down.
func (p *pollSocket) closeNow() {
	p.wmu.Lock()
	p.shutLocked()
	if p.werr == nil {
		p.werr = net.ErrClosed
	}
	p.wmu.Unlock()
}

func (p *pollSocket) shutLocked() {
	if p.fd >= 0 && !p.shut {
		p.shut = true
		syscall.Shutdown(p.fd, syscall.SHUT_RDWR)
	}
}

func (p *pollSocket) ping(timeout time.Duration) {
	if p.pingDeadline.CompareAndSwap(0, time.Now().Add(timeout).UnixNano()) {
		p.writeFrame(opPing, nil)
	}
}

func (p *pollSocket) overdue() bool {
	now := time.Now().UnixNano()
	late := func(deadline int64) bool { return deadline != 0 && now > deadline }
	return late(p.pingDeadline.Load()) || late(p.closeDeadline.Load())
}

func (p *pollSocket) nonBlocking() bool { return true }

func (p *pollSocket) blocked() bool {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	return p.armed
}

func (p *pollSocket) stuckSince() int64 { return p.stuck.Load() }

func (p *pollSocket) unfinishedSince() int64 { return p.unfinished.Load() }

// abort sends a close frame, if the socket takes it, and shuts the
// connection down right after; the loop then tears the socket down.
func (p *pollSocket) abort(code websocket.StatusCode, reason string) {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.werr != nil || p.fd < 0 {
		return
	}
	if !p.closeSent {
		if p.out == nil {
			p.out = chunkPool.Get().(*[]byte)
			*p.out = (*p.out)[:0]
		}
		*p.out = append(appendFrameHeader(*p.out, opClose, len(closePayload(code, reason))), closePayload(code, reason)...)
		p.closeSent = true
	}
	p.shutWhenSent = true
	p.flushLocked()
	p.shutLocked() // sent or not: a peer that is not reading gets no more time
}

// buffered is how many framed bytes wait for the peer.
func (p *pollSocket) buffered() int {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.out == nil {
		return 0
	}
	return len(*p.out)
}
