package relay_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/relay"
)

func TestServer_PingAndReaping(t *testing.T) {
	t.Run("Pings", func(t *testing.T) {
		clock := newFakeClock()
		var m maintenance
		srv := newTestServer(t, withClock(clock), m.option(), func(cfg *relay.Config) { cfg.PingInterval = 30 * time.Second })
		pinged := make(chan struct{}, 4)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, connectURL(srv.url, newIdentity(t), srv.url), &websocket.DialOptions{
			OnPingReceived: func(context.Context, []byte) bool { pinged <- struct{}{}; return true },
		})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		answers := make(chan []byte, 4)
		go func() { // handles control frames
			for {
				_, data, err := ws.Read(context.Background())
				if err != nil {
					return
				}
				answers <- data
			}
		}()
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 1 })
		m.wait(t, 3)
		// A ping sent by those rounds comes before the answer to a request
		// sent after them, and the reader reports it first.
		ws.Write(ctx, websocket.MessageText, []byte(`{"id":1,"jsonrpc":"2.0","method":"irn_fetchMessages","params":{"topic":"`+newTopic(t)+`"}}`))
		select {
		case <-answers:
		case <-ctx.Done():
			t.Fatal("no answer")
		}
		select {
		case <-pinged:
			t.Fatal("pinged before 30 s")
		default:
		}
		clock.Advance(30 * time.Second)
		select {
		case <-pinged:
		case <-time.After(3 * time.Second):
			t.Fatal("no ping 30 s after connecting")
		}
	})
	t.Run("DeadSocketReaped", func(t *testing.T) {
		clock := newFakeClock()
		var m maintenance
		srv := newTestServer(t, withClock(clock), m.option(), func(cfg *relay.Config) { cfg.PongTimeout = 300 * time.Millisecond })
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, connectURL(srv.url, newIdentity(t), srv.url), &websocket.DialOptions{
			OnPingReceived: func(context.Context, []byte) bool { return false }, // never answers
		})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		readErr := make(chan error, 1)
		go func() { _, _, err := ws.Read(context.Background()); readErr <- err }()
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 1 }) // its clock started before the jump
		clock.Advance(31 * time.Second)
		select {
		case <-readErr:
		case <-time.After(5 * time.Second):
			t.Fatal("a socket that does not answer pings was not closed")
		}
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 0 })
	})
	t.Run("StuckWriteReaped", func(t *testing.T) {
		// A subscriber that stops reading: deliveries fill the socket buffers,
		// the writer blocks, and the socket is closed WriteTimeout later. Its
		// messages stay in the mailbox.
		clock := newFakeClock()
		var m maintenance
		srv := newTestServer(t, withClock(clock), m.option(), withLimits(relay.Limits{PublishRate: -1, MaxMessageBytes: 1 << 20}))
		topic := newTopic(t)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// A small receive buffer (no autotuning) so a few MiB fill the pipe.
		dialer := &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
			return rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		}}
		stalled, _, err := websocket.Dial(ctx, connectURL(srv.url, newIdentity(t), srv.url), &websocket.DialOptions{
			HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}},
		})
		if err != nil {
			t.Fatal(err)
		}
		defer stalled.CloseNow()
		stalled.Write(ctx, websocket.MessageText, []byte(`{"id":1,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"`+topic+`"}}`))
		if _, _, err := stalled.Read(ctx); err != nil { // the answer; then it never reads again
			t.Fatal(err)
		}
		p := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		big := strings.Repeat("A", 1<<20)
		for i := 0; i < 8; i++ { // 8 MiB: more than the server's send buffer (4 MiB at most) holds
			p.ok("irn_publish", publishParams(topic, fmt.Sprintf("%d%s", i, big[:len(big)-8]), 300, 0))
		}
		poll.For(t, 5*time.Second, func() bool { return srv.WritesWaiting() == 1 })
		m.wait(t, 3) // rounds that see the stuck write, WriteTimeout not yet passed
		if srv.Conns() != 2 || srv.WritesWaiting() != 1 {
			t.Fatalf("%d sockets before the timeout", srv.Conns())
		}
		clock.Advance(relay.WriteTimeout + time.Second)
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 1 })
	})
	t.Run("IdleReaped", func(t *testing.T) {
		clock := newFakeClock()
		var m maintenance
		srv := newTestServer(t, withClock(clock), m.option())
		idle := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		busy := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		busy.ok("irn_subscribe", map[string]any{"topic": newTopic(t)})
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 2 })
		clock.Advance(relay.IdleTimeout + time.Second)
		if err := idle.waitClosed(5 * time.Second); websocket.CloseStatus(err) != websocket.StatusNormalClosure {
			t.Fatalf("idle socket: %v, want close 1000", err)
		}
		busy.ok("irn_subscribe", map[string]any{"topic": newTopic(t)}) // a subscribed socket stays
	})
}

func TestServer_Close(t *testing.T) {
	srv := newTestServer(t)
	clients := make([]*client, 20)
	for i := range clients {
		clients[i] = dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		clients[i].ok("irn_subscribe", map[string]any{"topic": newTopic(t)})
	}
	start := time.Now()
	srv.Close()
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("Close took %v", d)
	}
	for _, c := range clients {
		if err := c.waitClosed(time.Second); websocket.CloseStatus(err) != websocket.StatusGoingAway {
			t.Fatalf("socket closed with %v, want 1001", err)
		}
	}
	if srv.Conns() != 0 {
		t.Fatalf("%d sockets left", srv.Conns())
	}
	if _, err := dialErr(connectURL(srv.url, newIdentity(t), srv.url)); err == nil {
		t.Fatal("a closed relay accepted a socket")
	}
}

// TestServer_HijackedDeadlines: the API server's read/write timeouts must not
// reach hijacked relay sockets, and a wrapping ResponseWriter with Unwrap
// (the observe middleware's) must let the upgrade through.
func TestServer_HijackedDeadlines(t *testing.T) {
	srv := newTestServer(t)
	hs := &http.Server{
		Handler:      http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { srv.ServeHTTP(&unwrapper{w}, r) }),
		ReadTimeout:  200 * time.Millisecond,
		WriteTimeout: 200 * time.Millisecond,
	}
	ln := mustListen(t)
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	base := "ws://" + ln.Addr().String()
	c := dial(t, connectURL(base, newIdentity(t), srv.url)) // the audience is the relay's configured URL
	topic := newTopic(t)
	c.ok("irn_subscribe", map[string]any{"topic": topic})
	// A connection opened now that sends nothing is closed by the server
	// once its ReadTimeout passes; the relay socket's deadlines, had they
	// stayed, were set before and have passed by then too.
	canary, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer canary.Close()
	canary.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := canary.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("idle connection: %v, want EOF after the server's ReadTimeout", err)
	}
	c.ok("irn_subscribe", map[string]any{"topic": topic})
}

type unwrapper struct{ http.ResponseWriter }

func (u *unwrapper) Unwrap() http.ResponseWriter { return u.ResponseWriter }

func TestServer_UpgradeRequired(t *testing.T) {
	srv := newTestServer(t)
	resp, err := http.Get(srv.http.URL + "/?projectId=" + testProject)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUpgradeRequired {
		t.Fatalf("plain GET: %d, want 426", resp.StatusCode)
	}
}

func mustListen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}
