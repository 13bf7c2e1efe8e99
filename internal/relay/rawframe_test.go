package relay_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/relay"
)

// rawClient speaks websocket frames by hand, to send what a library would
// not: frames split anywhere, fragments, bad frames, requests right behind
// the upgrade.
type rawClient struct {
	t  *testing.T
	nc net.Conn
	br *bufio.Reader
}

// maskedFrame is a client frame; b0 is its first byte (FIN and opcode).
func maskedFrame(b0 byte, payload []byte) []byte {
	f := []byte{b0, 0x80}
	switch n := len(payload); {
	case n < 126:
		f[1] |= byte(n)
	case n <= 0xffff:
		f[1] |= 126
		f = binary.BigEndian.AppendUint16(f, uint16(n))
	default:
		f[1] |= 127
		f = binary.BigEndian.AppendUint64(f, uint64(n))
	}
	var key [4]byte
	binary.LittleEndian.PutUint32(key[:], rand.Uint32())
	f = append(f, key[:]...)
	for i, b := range payload {
		f = append(f, b^key[i%4])
	}
	return f
}

func textFrame(s string) []byte { return maskedFrame(0x81, []byte(s)) }

// rawDial upgrades a TCP connection and sends behind the request whatever
// follows, in the same write.
func rawDial(t *testing.T, srv *testServer, behind ...[]byte) *rawClient {
	t.Helper()
	return rawDialWith(t, &net.Dialer{}, srv, behind...)
}

// smallWindow is a dialer whose sockets have a 256 KiB receive buffer (no
// autotuning), so a client that does not read stalls the server's writes
// after a few MiB (the window is kept above the loopback MSS: a smaller one
// makes the sender wait on its persist timer).
var smallWindow = &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
	return rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 256<<10) })
}}

// rawDialWith is rawDial over a connection from d.
func rawDialWith(t *testing.T, d *net.Dialer, srv *testServer, behind ...[]byte) *rawClient {
	t.Helper()
	nc, err := d.Dial("tcp", srv.http.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	u := strings.TrimPrefix(connectURL(srv.url, newIdentity(t), srv.url), srv.url)
	req := "GET " + u + " HTTP/1.1\r\nHost: " + nc.RemoteAddr().String() +
		"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	if _, err := nc.Write(append([]byte(req), bytes.Join(behind, nil)...)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(nc)
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	return &rawClient{t: t, nc: nc, br: br}
}

func (c *rawClient) write(b []byte) {
	c.t.Helper()
	if _, err := c.nc.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

// read returns the next server frame (servers do not mask).
func (c *rawClient) read() (op byte, payload []byte, err error) {
	c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	var h [2]byte
	if _, err := io.ReadFull(c.br, h[:]); err != nil {
		return 0, nil, err
	}
	if h[1]&0x80 != 0 || h[0]&0x80 == 0 {
		return 0, nil, fmt.Errorf("server frame % x: masked or fragmented", h)
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var l [2]byte
		_, err = io.ReadFull(c.br, l[:])
		n = uint64(binary.BigEndian.Uint16(l[:]))
	case 127:
		var l [8]byte
		_, err = io.ReadFull(c.br, l[:])
		n = binary.BigEndian.Uint64(l[:])
	}
	if err != nil {
		return 0, nil, err
	}
	payload = make([]byte, n)
	_, err = io.ReadFull(c.br, payload)
	return h[0] & 0x0f, payload, err
}

// next reads frames until one with opcode op.
func (c *rawClient) next(op byte, what string) []byte {
	c.t.Helper()
	for {
		got, p, err := c.read()
		if err != nil {
			c.t.Fatalf("waiting for %s: %v", what, err)
		}
		if got == op {
			return p
		}
	}
}

// answer reads frames until the JSON-RPC answer with the given id.
func (c *rawClient) answer(id int) frame {
	c.t.Helper()
	for {
		var f frame
		if err := json.Unmarshal(c.next(0x1, fmt.Sprint("answer ", id)), &f); err != nil {
			c.t.Fatal(err)
		}
		if string(f.ID) != fmt.Sprint(id) {
			continue
		}
		if f.Error != nil {
			c.t.Fatalf("answer %d: error %d %s", id, f.Error.Code, f.Error.Message)
		}
		return f
	}
}

// closedWith reads until the server's close frame, checks its code, and
// checks the server then closes the connection.
func (c *rawClient) closedWith(code websocket.StatusCode) {
	c.t.Helper()
	p := c.next(0x8, fmt.Sprint("close ", code))
	if len(p) < 2 || websocket.StatusCode(binary.BigEndian.Uint16(p)) != code {
		c.t.Fatalf("close frame % x, want code %d", p, code)
	}
	if _, _, err := c.read(); err == nil {
		c.t.Fatal("a frame after the close frame")
	}
}

func subscribeFrame(id int, topic string) []byte {
	return textFrame(fmt.Sprintf(`{"id":%d,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"%s"}}`, id, topic))
}

func TestServer_RawFrames(t *testing.T) {
	t.Run("RequestsBehindTheUpgrade", func(t *testing.T) {
		srv := newTestServer(t)
		c := rawDial(t, srv, subscribeFrame(1, newTopic(t)), subscribeFrame(2, newTopic(t)))
		c.answer(1)
		c.answer(2)
	})
	t.Run("SplitAnywhere", func(t *testing.T) {
		srv := newTestServer(t)
		c := rawDial(t, srv)
		if tcp, ok := c.nc.(*net.TCPConn); ok {
			tcp.SetNoDelay(true)
		}
		f := append(subscribeFrame(1, newTopic(t)), subscribeFrame(2, newTopic(t))...)
		for i := range f {
			c.write(f[i : i+1])
			if i%16 == 0 {
				time.Sleep(time.Millisecond)
			}
		}
		c.answer(1)
		c.answer(2)
	})
	t.Run("FragmentedWithAPingBetween", func(t *testing.T) {
		srv := newTestServer(t)
		c := rawDial(t, srv)
		req := fmt.Sprintf(`{"id":7,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"%s"}}`, newTopic(t))
		c.write(maskedFrame(0x01, []byte(req[:20])))        // text, not final
		c.write(maskedFrame(0x89, []byte("are you there"))) // ping between fragments
		c.write(maskedFrame(0x00, []byte(req[20:40])))      // continuation
		c.write(maskedFrame(0x80, []byte(req[40:])))        // final continuation
		op, p, err := c.read()
		if err != nil || op != 0xa || string(p) != "are you there" {
			t.Fatalf("pong: op %x %q %v", op, p, err)
		}
		c.answer(7)
	})
	t.Run("EmptyFirstFragment", func(t *testing.T) {
		srv := newTestServer(t)
		c := rawDial(t, srv)
		c.write(maskedFrame(0x01, nil))
		c.write(maskedFrame(0x80, []byte(fmt.Sprintf(`{"id":8,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"%s"}}`, newTopic(t)))))
		c.answer(8)
	})
	t.Run("FrameLargerThanABuffer", func(t *testing.T) {
		srv := newTestServer(t, withLimits(relay.Limits{PublishRate: -1}))
		c := rawDial(t, srv)
		msg := strings.Repeat("m", 300<<10)
		c.write(textFrame(fmt.Sprintf(`{"id":3,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"%s","message":"%s","ttl":300,"tag":1}}`, newTopic(t), msg)))
		c.answer(3)
	})
	// How the websocket library fails bad frames is its own business (an
	// unmasked frame gets no close frame, an oversized one is refused once
	// it has arrived); these two check the relay's framing.
	ownFraming := func(t *testing.T) {
		if withoutPoll || !relay.Polls() {
			t.Skip("socket served by the websocket library")
		}
	}
	t.Run("Unmasked", func(t *testing.T) {
		ownFraming(t)
		srv := newTestServer(t)
		c := rawDial(t, srv)
		c.write([]byte{0x81, 0x02, '{', '}'})
		c.closedWith(websocket.StatusProtocolError)
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 0 })
	})
	t.Run("ContinuationWithoutAStart", func(t *testing.T) {
		srv := newTestServer(t)
		c := rawDial(t, srv)
		c.write(maskedFrame(0x80, []byte("{}")))
		c.closedWith(websocket.StatusProtocolError)
	})
	t.Run("TooBig", func(t *testing.T) {
		ownFraming(t)
		srv := newTestServer(t, withLimits(relay.Limits{MaxMessageBytes: 1024}))
		c := rawDial(t, srv)
		// Only the header: the length alone is enough to refuse it.
		f := maskedFrame(0x81, make([]byte, 1024+64<<10+1))
		c.write(f[:14])
		c.closedWith(websocket.StatusMessageTooBig)
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 0 })
	})
	t.Run("ClientCloses", func(t *testing.T) {
		srv := newTestServer(t)
		c := rawDial(t, srv, subscribeFrame(1, newTopic(t)))
		c.answer(1)
		c.write(maskedFrame(0x88, append(binary.BigEndian.AppendUint16(nil, 1000), "done"...)))
		c.closedWith(websocket.StatusNormalClosure)
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 0 })
	})
	t.Run("PeerVanishes", func(t *testing.T) {
		srv := newTestServer(t)
		c := rawDial(t, srv, subscribeFrame(1, newTopic(t)))
		c.answer(1)
		c.nc.Close()
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 0 })
	})
}

// TestServer_PolledSocketsHoldNoGoroutine: where sockets are polled, an idle
// socket costs no goroutine.
func TestServer_PolledSocketsHoldNoGoroutine(t *testing.T) {
	if !relay.Polls() || withoutPoll {
		t.Skip("sockets are served by goroutines here")
	}
	srv := newTestServer(t)
	rawDial(t, srv, subscribeFrame(1, newTopic(t))).answer(1) // the server's own goroutines have started
	before := runtime.NumGoroutine()
	const n = 100
	for range n {
		rawDial(t, srv, subscribeFrame(1, newTopic(t))).answer(1)
	}
	poll.For(t, 5*time.Second, func() bool { return srv.Conns() == n+1 })
	if grown := runtime.NumGoroutine() - before; grown > n/10 {
		t.Fatalf("%d idle sockets added %d goroutines", n, grown)
	}
}

// FuzzServer_RawBytes sends any bytes behind the upgrade request and again
// on the open socket: the relay answers or closes, never crashes, and lets
// go of the socket once the client hangs up.
func FuzzServer_RawBytes(f *testing.F) {
	topic := strings.Repeat("ab", 32)
	sub := fmt.Sprintf(`{"id":1,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"%s"}}`, topic)
	f.Add(textFrame(sub))
	f.Add(append(maskedFrame(0x01, []byte(sub[:10])), maskedFrame(0x80, []byte(sub[10:]))...))
	f.Add(append(maskedFrame(0x89, []byte("hi")), maskedFrame(0x88, []byte{0x03, 0xe8})...))
	f.Add([]byte{0x81, 0xfe, 0x00, 0x05, 1, 2, 3, 4, 'x'})
	f.Add([]byte("GET / HTTP/1.1\r\n\r\n"))
	srv := newTestServer(f, withLimits(relay.Limits{PublishRate: -1, MaxMessageBytes: 1024}))
	f.Fuzz(func(t *testing.T, b []byte) {
		c := rawDial(t, srv, b)
		c.nc.Write(b) // the relay may have closed already
		c.nc.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		io.Copy(io.Discard, c.br) // whatever it answers, until it closes or goes quiet
		c.nc.Close()
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 0 })
	})
}
