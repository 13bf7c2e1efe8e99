// Package faulttest puts faults between latchd and what it depends on: a
// TCP proxy in front of Postgres, Redis or an RPC upstream that the test
// can cut, stall, slow down or reset, and restore. The fault suite
// (faults_test.go) runs latchd through such proxies.
package faulttest

import (
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// Proxy forwards TCP connections from its address to a target, with the
// faults of its current mode.
//
//   - Pass: bytes flow both ways as they come.
//   - Cut: the listener is closed, so new connections are refused, and every
//     open connection is closed: the dependency is down.
//   - Stall: connections are accepted (and the target dialled) but no byte
//     is forwarded either way; bytes sent meanwhile wait in the proxy and go
//     on when the stall ends, as after a network partition heals (a command
//     sent into a stall runs late, when its client may have given up).
//   - Slow: every chunk of bytes waits the given delay before it is forwarded.
//   - Reset (a one-off, not a mode): every open connection is reset (RST)
//     on both sides; new connections pass.
type Proxy struct {
	tb     testing.TB
	target string
	addr   string

	mu      sync.Mutex
	ln      net.Listener
	mode    mode
	delay   time.Duration
	resume  chan struct{} // closed when a stall ends
	links   map[*link]struct{}
	closing bool
	// held counts chunks read but not yet forwarded because of a stall;
	// drained is signalled when it drops to 0.
	held    int
	drained *sync.Cond
	wg      sync.WaitGroup
}

type mode int

const (
	modePass mode = iota
	modeCut
	modeStall
	modeSlow
)

// link is one proxied connection: the client's and the target's sides.
type link struct {
	client, target net.Conn
}

// Start starts a proxy to target (host:port) on a loopback port; it is
// closed when the test ends.
func Start(tb testing.TB, target string) *Proxy {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p := &Proxy{tb: tb, target: target, addr: ln.Addr().String(), ln: ln, links: map[*link]struct{}{}}
	p.drained = sync.NewCond(&p.mu)
	p.serve(ln)
	tb.Cleanup(p.close)
	return p
}

// Addr is the proxy's address (host:port), where latchd is pointed instead
// of the target.
func (p *Proxy) Addr() string { return p.addr }

// Cut refuses new connections and closes the open ones.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endStallLocked()
	p.mode = modeCut
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for l := range p.links {
		l.client.Close()
		l.target.Close()
	}
}

// Stall stops every byte, on open and new connections, until Restore.
func (p *Proxy) Stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.relistenLocked()
	if p.mode != modeStall {
		p.resume = make(chan struct{})
	}
	p.mode = modeStall
}

// Slow delays every chunk of bytes by d, until Restore.
func (p *Proxy) Slow(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.relistenLocked()
	p.endStallLocked()
	p.mode, p.delay = modeSlow, d
}

// Reset resets every open connection (an RST to both sides); new
// connections pass.
func (p *Proxy) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for l := range p.links {
		for _, c := range []net.Conn{l.client, l.target} {
			if tc, ok := c.(*net.TCPConn); ok {
				tc.SetLinger(0)
			}
			c.Close()
		}
	}
}

// Restore ends the fault: connections are accepted and bytes flow (those
// held by a stall first).
func (p *Proxy) Restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.relistenLocked()
	p.endStallLocked()
	p.mode = modePass
}

// WaitDrained waits until every chunk a stall held has been forwarded
// (after Restore): what was sent into the stall, such as a command whose
// client gave up, has then reached the target.
func (p *Proxy) WaitDrained() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.held > 0 {
		p.drained.Wait()
	}
}

// Conns is the number of open proxied connections.
func (p *Proxy) Conns() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.links)
}

func (p *Proxy) endStallLocked() {
	if p.mode == modeStall {
		close(p.resume)
	}
}

// relistenLocked listens again on the proxy's address after a cut.
func (p *Proxy) relistenLocked() {
	if p.ln != nil || p.closing {
		return
	}
	var ln net.Listener
	var err error
	// The port was ours a moment ago; on a busy machine the kernel may take
	// a moment to let it go.
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp", p.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		p.tb.Errorf("faulttest: listen again on %s: %v", p.addr, err)
		return
	}
	p.ln = ln
	p.serve(ln)
}

func (p *Proxy) serve(ln net.Listener) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				p.handle(c)
			}()
		}
	}()
}

func (p *Proxy) handle(client net.Conn) {
	target, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		client.Close()
		return
	}
	l := &link{client: client, target: target}
	p.mu.Lock()
	if p.mode == modeCut || p.closing {
		p.mu.Unlock()
		client.Close()
		target.Close()
		return
	}
	p.links[l] = struct{}{}
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	go func() { p.pipe(target, client); done <- struct{}{} }()
	go func() { p.pipe(client, target); done <- struct{}{} }()
	<-done
	<-done
	client.Close()
	target.Close()
	p.mu.Lock()
	delete(p.links, l)
	p.mu.Unlock()
}

// pipe copies src to dst chunk by chunk, each chunk waiting for the mode
// to let it through. When src ends, what it sent is still delivered
// (after a stall, if one holds) before dst's writing side is closed.
func (p *Proxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			stalled := p.hold()
			ok := p.wait()
			var werr error
			if ok {
				_, werr = dst.Write(buf[:n])
			}
			if stalled {
				p.release()
			}
			if !ok {
				return
			}
			if werr != nil {
				src.Close()
				return
			}
		}
		if err != nil {
			if tc, ok := dst.(*net.TCPConn); ok && errors.Is(err, io.EOF) {
				tc.CloseWrite()
			} else {
				dst.Close()
			}
			return
		}
	}
}

// hold counts a chunk about to wait for a stall to end.
func (p *Proxy) hold() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode != modeStall {
		return false
	}
	p.held++
	return true
}

func (p *Proxy) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held--; p.held == 0 {
		p.drained.Broadcast()
	}
}

// wait holds a chunk as the mode says; false: the proxy is closing.
func (p *Proxy) wait() bool {
	p.mu.Lock()
	m, delay, resume, closing := p.mode, p.delay, p.resume, p.closing
	p.mu.Unlock()
	switch {
	case closing:
		return false
	case m == modeStall:
		<-resume
		return p.wait()
	case m == modeSlow:
		time.Sleep(delay)
	}
	return true
}

func (p *Proxy) close() {
	p.mu.Lock()
	p.closing = true
	p.endStallLocked()
	p.mode = modePass
	if p.ln != nil {
		p.ln.Close()
	}
	for l := range p.links {
		l.client.Close()
		l.target.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
