package relay_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/relay"
)

// BenchmarkServer_ClosedLoop is bench/relay.go's closed loop in one process:
// pairs of raw sockets, a dapp publishing to its wallet's topic as soon as
// its last publish is answered and the wallet acknowledging every delivery.
// One op is one message published, delivered and acknowledged. The clients
// allocate nothing per message, so allocs/op is the relay's; cpu-µs/msg is
// the whole process's (relay and clients). Profile the relay with
// -cpuprofile / -memprofile.
func BenchmarkServer_ClosedLoop(b *testing.B) {
	// TestMain runs the benchmark once per way of serving sockets.
	mode := "polled"
	switch {
	case withoutPoll:
		mode = "goroutines"
	case offloaded:
		mode = "polled-workers"
	}
	b.Run(mode, benchmarkClosedLoop)
}

func benchmarkClosedLoop(b *testing.B) {
	srv := newTestServer(b, withLimits(relay.Limits{PublishRate: -1, MaxConnsPerIP: -1}))
	const pairs = 64
	ps := make([]*loopPair, pairs)
	for i := range ps {
		ps[i] = openLoopPair(b, srv)
	}
	var left atomic.Int64 // publishes still to start
	left.Store(int64(b.N))
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	var acks sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() { defer wg.Done(); p.publishLoop(b, &left) }()
		acks.Add(1)
		go func() { defer acks.Done(); p.ackLoop(b) }()
	}
	wg.Wait()
	// Every delivery acknowledged: then the wallets' reads are ended.
	for _, p := range ps {
		for p.acked.Load() < p.published.Load() && !b.Failed() {
			time.Sleep(100 * time.Microsecond)
		}
	}
	b.StopTimer()
	for _, p := range ps {
		p.wallet.nc.Close()
	}
	acks.Wait()
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-µs/msg")
}

// loopPair is a dapp socket and the wallet socket subscribed to its topic.
type loopPair struct {
	topic        string
	dapp, wallet *loopSock
	published    atomic.Int64
	acked        atomic.Int64
}

type loopSock struct {
	nc  net.Conn
	br  *bufio.Reader
	in  []byte // the frame read last
	out []byte // the frame written last
}

func openLoopPair(tb testing.TB, srv *testServer) *loopPair {
	tb.Helper()
	p := &loopPair{topic: newTopic(tb), dapp: dialLoopSock(tb, srv), wallet: dialLoopSock(tb, srv)}
	p.wallet.send(tb, []byte(`{"id":1,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"`+p.topic+`"}}`))
	if f := p.wallet.frame(tb); !bytes.HasPrefix(f, []byte(`{"id":1,`)) || bytes.Contains(f, []byte(`"error"`)) {
		tb.Fatalf("subscribe: %s", f)
	}
	return p
}

func dialLoopSock(tb testing.TB, srv *testServer) *loopSock {
	tb.Helper()
	nc, err := net.Dial("tcp", srv.http.Listener.Addr().String())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { nc.Close() })
	u := strings.TrimPrefix(connectURL(srv.url, newIdentity(tb), srv.url), srv.url)
	req := "GET " + u + " HTTP/1.1\r\nHost: " + nc.RemoteAddr().String() +
		"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	if _, err := nc.Write([]byte(req)); err != nil {
		tb.Fatal(err)
	}
	br := bufio.NewReaderSize(nc, 16<<10)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		tb.Fatalf("upgrade: %v %v", resp, err)
	}
	return &loopSock{nc: nc, br: br, in: make([]byte, 0, 4096), out: make([]byte, 0, 4096)}
}

// send writes one masked text frame (a zero key: the payload as it is).
func (s *loopSock) send(tb testing.TB, payload []byte) {
	s.out = append(s.out[:0], 0x81)
	switch n := len(payload); {
	case n < 126:
		s.out = append(s.out, 0x80|byte(n))
	default:
		s.out = binary.BigEndian.AppendUint16(append(s.out, 0x80|126), uint16(n))
	}
	s.out = append(append(s.out, 0, 0, 0, 0), payload...)
	if _, err := s.nc.Write(s.out); err != nil {
		tb.Error(err)
	}
}

// frame reads the next text frame (answering pings); nil once the socket
// is closed.
func (s *loopSock) frame(tb testing.TB) []byte {
	for {
		// The header byte by byte: a local array read through io.ReadFull
		// would be allocated.
		var h [4]byte
		for i := range 2 {
			b, err := s.br.ReadByte()
			if err != nil {
				return nil
			}
			h[i] = b
		}
		n := int(h[1] & 0x7f)
		if n == 126 {
			for i := 2; i < 4; i++ {
				b, err := s.br.ReadByte()
				if err != nil {
					return nil
				}
				h[i] = b
			}
			n = int(binary.BigEndian.Uint16(h[2:4]))
		}
		if n > cap(s.in) {
			tb.Errorf("frame of %d bytes", n)
			return nil
		}
		s.in = s.in[:n]
		if _, err := io.ReadFull(s.br, s.in); err != nil {
			return nil
		}
		if h[0]&0x0f == 0x1 {
			return s.in
		}
	}
}

// publishLoop publishes until left runs out, each publish once the last
// is answered.
func (p *loopPair) publishLoop(tb testing.TB, left *atomic.Int64) {
	req := make([]byte, 0, 256)
	for seq := int64(1); left.Add(-1) >= 0; seq++ {
		req = append(req[:0], `{"id":`...)
		req = strconv.AppendInt(req, seq, 10)
		req = append(req, `,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"`...)
		req = append(req, p.topic...)
		req = append(req, `","message":"t`...)
		req = strconv.AppendInt(req, time.Now().UnixNano(), 10)
		req = append(req, '.')
		req = strconv.AppendInt(req, seq, 10)
		req = append(req, `","ttl":300,"tag":1108,"prompt":true}}`...)
		p.published.Add(1)
		p.dapp.send(tb, req)
		f := p.dapp.frame(tb)
		if f == nil || bytes.Contains(f, []byte(`"error"`)) {
			tb.Errorf("publish %d: %s", seq, f)
			return
		}
	}
}

// ackLoop acknowledges deliveries until the wallet's socket is closed.
func (p *loopPair) ackLoop(tb testing.TB) {
	ack := make([]byte, 0, 256)
	for {
		f := p.wallet.frame(tb)
		if f == nil {
			return
		}
		i := bytes.IndexByte(f, ',')
		if i < 0 {
			tb.Errorf("delivery %s", f)
			return
		}
		ack = append(append(ack[:0], f[:i]...), `,"jsonrpc":"2.0","result":true}`...)
		p.wallet.send(tb, ack)
		p.acked.Add(1)
	}
}

// processCPU is the user and system time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
