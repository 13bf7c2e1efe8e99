package relay_test

import (
	"bytes"
	"encoding/binary"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/relay"
)

// closeCode reads frames until the server's close frame and returns its code.
func (c *rawClient) closeCode() websocket.StatusCode {
	c.t.Helper()
	p := c.next(0x8, "close frame")
	if len(p) < 2 {
		c.t.Fatalf("close frame % x without a code", p)
	}
	return websocket.StatusCode(binary.BigEndian.Uint16(p))
}

// TestServer_UnfinishedMessages: a message a client starts and does not
// finish is timed and bounded (issue 15, finding 3).
func TestServer_UnfinishedMessages(t *testing.T) {
	big := bytes.Repeat([]byte("F"), 300<<10)
	t.Run("FragmentTimesOut", func(t *testing.T) {
		clock := newFakeClock()
		var m maintenance
		srv := newTestServer(t, withClock(clock), m.option())
		c := rawDial(t, srv)
		c.write(maskedFrame(0x01, big)) // text, FIN unset: more to come
		c.write(maskedFrame(0x00, big[:1000]))
		poll.For(t, 5*time.Second, func() bool { return srv.Unfinished() == 1 })
		m.wait(t, 2)
		if srv.Conns() != 1 {
			t.Fatal("closed before the timeout")
		}
		clock.Advance(relay.DefaultFragmentTimeout + time.Second)
		m.wait(t, 2)
		if code := c.closeCode(); code != websocket.StatusPolicyViolation {
			t.Fatalf("close %d, want 1008", code)
		}
		c.nc.Write(maskedFrame(0x88, []byte{0x03, 0xf0})) // the close answer, if the server still reads
		poll.For(t, 5*time.Second, func() bool { return srv.Conns() == 0 && srv.UnfinishedBytes() == 0 })
	})
	t.Run("TrickledFrameTimesOut", func(t *testing.T) {
		clock := newFakeClock()
		var m maintenance
		srv := newTestServer(t, withClock(clock), m.option(), withLimits(relay.Limits{FragmentTimeout: 3 * time.Second}))
		c := rawDial(t, srv)
		frame := maskedFrame(0x81, big)
		c.write(frame[:len(frame)/2])
		poll.For(t, 5*time.Second, func() bool { return srv.Unfinished() == 1 })
		clock.Advance(4 * time.Second)
		m.wait(t, 2)
		if code := c.closeCode(); code != websocket.StatusPolicyViolation {
			t.Fatalf("close %d, want 1008", code)
		}
	})
	t.Run("UnfinishedBytesBounded", func(t *testing.T) {
		if !relay.Polls() || withoutPoll {
			t.Skip("the byte bound applies to polled sockets")
		}
		srv := newTestServer(t, withLimits(relay.Limits{MaxUnfinishedBytes: 700 << 10}))
		var held []*rawClient
		for i := range 3 {
			c := rawDial(t, srv)
			c.write(maskedFrame(0x01, big))
			if i < 2 {
				want := int64(i+1) * int64(len(big))
				poll.For(t, 5*time.Second, func() bool { return srv.UnfinishedBytes() >= want })
				held = append(held, c)
				continue
			}
			if code := c.closeCode(); code != websocket.StatusTryAgainLater {
				t.Fatalf("third unfinished message: close %d, want 1013", code)
			}
		}
		if n := srv.UnfinishedBytes(); n > 700<<10 {
			t.Fatalf("%d bytes held in unfinished messages, over the 700 KiB bound", n)
		}
		for _, c := range held {
			c.write(maskedFrame(0x80, nil)) // finished: the bytes are let go
		}
		poll.For(t, 5*time.Second, func() bool { return srv.UnfinishedBytes() == 0 })
	})
}
