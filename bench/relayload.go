package main

// The load generator's side of a relay run. It shares the machine's 2 cores
// with latchd, so it spends as little CPU per message as it can: once a
// pair's sockets are open (with the websocket library), their descriptors
// are served by epoll loops, with frames built and parsed by hand, instead
// of a goroutine per socket.

import (
	"bytes"
	"encoding/binary"
	"log"
	"runtime"
	"syscall"
	"time"

	"github.com/latchkit/latch/internal/sockio"
)

// loadSock is one socket of a pair during a run.
type loadSock struct {
	fd     int
	wallet bool // else the dapp
	p      *pair
	seq    int    // dapp, closed loop: the last message published
	in     []byte // bytes read and not parsed yet
	out    []byte // frames to write after this read
	done   bool   // closed by the server
}

// loadLoop serves a share of the sockets and keeps the latencies it saw.
type loadLoop struct {
	poller *sockio.Poller
	socks  []*loadSock // by descriptor; not changed during the run
	lat    []time.Duration
	run    *loadRun
	buf    []byte // read buffer
	ack    []byte
}

// loadRun is what the loops need to know about the run.
type loadRun struct {
	start, end time.Time
	closed     bool // closed loop: a publish's answer triggers the next
}

// startLoops hands the pairs' sockets to one loop per processor.
func startLoops(pairs []*pair, run *loadRun) []*loadLoop {
	loops := make([]*loadLoop, runtime.GOMAXPROCS(0))
	for i := range loops {
		p, err := sockio.NewPoller()
		if err != nil {
			log.Fatal(err)
		}
		loops[i] = &loadLoop{poller: p, run: run, lat: make([]time.Duration, 0, 1<<16), buf: make([]byte, 64<<10)}
	}
	for i, p := range pairs {
		l := loops[i%len(loops)]
		for _, s := range []*loadSock{{fd: p.dappFD, p: p}, {fd: p.walletFD, wallet: true, p: p}} {
			if s.fd >= len(l.socks) {
				l.socks = append(l.socks, make([]*loadSock, s.fd+1-len(l.socks))...)
			}
			l.socks[s.fd] = s
			if err := l.poller.Add(s.fd, sockio.In|sockio.ET); err != nil {
				log.Fatal(err)
			}
		}
	}
	for _, l := range loops {
		go l.poller.Run(l.serve)
	}
	return loops
}

func (l *loadLoop) serve(events []syscall.EpollEvent) {
	for _, ev := range events {
		if int(ev.Fd) >= len(l.socks) {
			continue
		}
		s := l.socks[ev.Fd]
		if s == nil || s.done {
			continue
		}
		l.read(s, ev.Events&(syscall.EPOLLHUP|syscall.EPOLLERR|syscall.EPOLLRDHUP) != 0)
		if len(s.out) > 0 {
			writeAll(s.fd, s.out)
			s.out = s.out[:0]
		}
	}
}

// read reads a socket until a read comes back short (it is watched
// edge-triggered: sockio.ET), or to its end once the server closed it (hup).
func (l *loadLoop) read(s *loadSock, hup bool) {
	for {
		n, err := sockio.Read(s.fd, l.buf)
		if err == syscall.EAGAIN {
			return
		}
		if err != nil || n == 0 {
			s.done = true
			l.poller.Remove(s.fd)
			return
		}
		if len(s.in) == 0 {
			// The usual case: whole frames, parsed where they were read.
			s.in = append(s.in, l.frames(s, l.buf[:n])...)
		} else {
			s.in = append(s.in, l.buf[:n]...)
			rest := l.frames(s, s.in)
			s.in = s.in[:copy(s.in, rest)]
		}
		if n < len(l.buf) && !hup {
			return
		}
	}
}

// frames handles the complete server frames in b (servers neither mask
// nor, for these small frames, fragment) and returns the bytes after them.
func (l *loadLoop) frames(s *loadSock, b []byte) []byte {
	for len(b) >= 2 {
		size, n := 2, int(b[1]&0x7f)
		switch n {
		case 126:
			size = 4
			if len(b) >= size {
				n = int(binary.BigEndian.Uint16(b[2:]))
			}
		case 127:
			size = 10
			if len(b) >= size {
				n = int(binary.BigEndian.Uint64(b[2:]))
			}
		}
		if len(b) < size+n {
			break
		}
		op, payload := b[0]&0x0f, b[size:size+n]
		b = b[size+n:]
		switch op {
		case 0x1:
			l.text(s, payload)
		case 0x9: // the relay's ping (every 30 s): pong
			s.out = appendClientFrame(s.out, 0xa, payload)
		}
	}
	return b
}

func (l *loadLoop) text(s *loadSock, data []byte) {
	if s.wallet {
		// A delivery: note its latency and acknowledge it, as
		// @walletconnect/core does.
		now := time.Now()
		if due := messageDue(data); !due.IsZero() && !due.Before(l.run.start) && due.Before(l.run.end) {
			l.lat = append(l.lat, now.Sub(due))
		}
		i := bytes.IndexByte(data, ',')
		if i < 0 {
			log.Fatalf("relay bench: delivery %q", data)
		}
		l.ack = append(append(l.ack[:0], data[:i]...), `,"jsonrpc":"2.0","result":true}`...)
		s.out = appendClientFrame(s.out, 0x1, l.ack)
		return
	}
	// A publish answered.
	if bytes.Contains(data, []byte(`"error"`)) {
		log.Fatalf("relay bench: publish refused: %s", data)
	}
	if now := time.Now(); l.run.closed && now.Before(l.run.end) {
		s.seq++
		s.out = appendPublish(s.out, s.p, s.seq, now)
	}
}

// stop ends the loops and closes the sockets; it returns the latencies.
func stopLoops(loops []*loadLoop) []time.Duration {
	var lat []time.Duration
	for _, l := range loops {
		l.poller.Stop()
	}
	time.Sleep(50 * time.Millisecond) // the loops finish their batch
	for _, l := range loops {
		for _, s := range l.socks {
			if s != nil {
				syscall.Close(s.fd)
			}
		}
		lat = append(lat, l.lat...)
	}
	return lat
}

// appendClientFrame appends a client frame. Client frames must be masked;
// a zero key leaves the payload as it is.
func appendClientFrame(dst []byte, op byte, payload []byte) []byte {
	dst = append(dst, 0x80|op)
	switch n := len(payload); {
	case n < 126:
		dst = append(dst, 0x80|byte(n))
	case n <= 0xffff:
		dst = binary.BigEndian.AppendUint16(append(dst, 0x80|126), uint16(n))
	default:
		dst = binary.BigEndian.AppendUint64(append(dst, 0x80|127), uint64(n))
	}
	return append(append(dst, 0, 0, 0, 0), payload...)
}

// writeAll writes b to a non-blocking socket, waiting briefly when its
// buffer is full.
func writeAll(fd int, b []byte) {
	for len(b) > 0 {
		n, err := sockio.Write(fd, b)
		switch {
		case err == syscall.EAGAIN:
			time.Sleep(50 * time.Microsecond)
		case err != nil:
			return // the socket is gone; the run reports what arrived
		default:
			b = b[n:]
		}
	}
}
