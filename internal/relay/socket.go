package relay

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// socket is how a conn writes to and closes its websocket. There are two:
//
//   - pollSocket (Linux): the relay's own framing on a non-blocking socket
//     read by one of a few epoll loops. An idle socket costs no goroutine and
//     no buffer, and a write never blocks: what the socket cannot take now
//     waits in its buffer (answers) or in the conn's queue (deliveries). With
//     the memory broker the loop answers frames itself, so a frame costs no
//     goroutine wake-up; with a shared broker, whose calls make network round
//     trips, a worker goroutine does, while the socket has messages.
//   - libSocket: the websocket library, with one reading goroutine per socket
//     (conn.serve), on other systems and for a connection that is not a
//     socket.
type socket interface {
	// writeText writes one text frame; while a hold is open it is gathered
	// and leaves with the others when the last hold is released.
	writeText(b []byte) error
	hold()
	release() error
	// close starts the closing handshake and returns at once.
	close(code websocket.StatusCode, reason string)
	// closeNow closes the connection without a handshake.
	closeNow()
	// ping pings the peer; no pong within timeout closes the socket.
	ping(timeout time.Duration)
	// overdue reports a pong or a close answer that is late: the
	// maintenance loop then closes the socket.
	overdue() bool
	// nonBlocking: writes never wait for the peer, so a delivery can be
	// written on the delivering goroutine.
	nonBlocking() bool
	// blocked: the peer is not taking writes now; deliveries wait queued.
	blocked() bool
	// stuckSince is when a write that is still waiting for the peer started
	// (unix nanos of the server clock), or 0.
	stuckSince() int64
	// buffered is how many framed bytes wait for the peer in the relay's
	// own buffer (bounded by Limits.MaxSocketBuffer).
	buffered() int
	// unfinishedSince is when the message the peer is sending began to
	// arrive (unix nanos of the server clock), or 0 when none is under way.
	unfinishedSince() int64
	// abort sends a close frame if the socket takes it now, and closes the
	// connection without waiting for the peer's answer.
	abort(code websocket.StatusCode, reason string)
}

// libSocket is a socket served by the websocket library.
type libSocket struct {
	ws      *websocket.Conn
	out     gatherer
	pinging atomic.Bool
}

func (l *libSocket) writeText(b []byte) error {
	return l.ws.Write(context.Background(), websocket.MessageText, b)
}

func (l *libSocket) hold()          { l.out.hold() }
func (l *libSocket) release() error { return l.out.release() }

// close runs the library's handshake, which waits for the peer's answer, on
// a goroutine of its own.
func (l *libSocket) close(code websocket.StatusCode, reason string) {
	go l.ws.Close(code, reason)
}

func (l *libSocket) closeNow() { l.ws.CloseNow() }

func (l *libSocket) ping(timeout time.Duration) {
	if !l.pinging.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer l.pinging.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		if err := l.ws.Ping(ctx); err != nil {
			l.ws.CloseNow()
		}
	}()
}

func (l *libSocket) overdue() bool     { return false } // the library times its own handshakes
func (l *libSocket) nonBlocking() bool { return false }
func (l *libSocket) blocked() bool     { return false }
func (l *libSocket) stuckSince() int64 { return l.out.stuckSince() }

// buffered: the library writes through to the socket, blocking; what is
// gathered meanwhile is flushed at maxGather.
func (l *libSocket) buffered() int { return 0 }

// unfinishedSince: conn.serve times the library's messages itself.
func (l *libSocket) unfinishedSince() int64 { return 0 }

// abort closes with the library's handshake, which gives up after 5 s.
func (l *libSocket) abort(code websocket.StatusCode, reason string) { l.close(code, reason) }
