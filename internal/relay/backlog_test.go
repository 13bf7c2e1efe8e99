package relay_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/relay"
)

// bigMessage is a distinct message of n bytes.
func bigMessage(i, n int) string {
	head := fmt.Sprintf("big%06d", i)
	return head + strings.Repeat("A", n-len(head))
}

// fillTopic publishes n messages of size bytes to a fresh topic.
func fillTopic(t *testing.T, srv *testServer, n, size int) string {
	t.Helper()
	topic := newTopic(t)
	p := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
	for i := range n {
		p.ok("irn_publish", publishParams(topic, bigMessage(i, size), 300, 0))
	}
	return topic
}

// TestServer_UnreadBacklog: sockets that ask for a large backlog and never
// read it cannot make the relay frame it for them (issue 15, finding 1).
func TestServer_UnreadBacklog(t *testing.T) {
	const size = 400 << 10
	t.Run("StalledSubscribersHoldBoundedBuffers", func(t *testing.T) {
		srv := newTestServer(t, withLimits(relay.Limits{PublishRate: -1}))
		topic := fillTopic(t, srv, 30, size) // 12 MB of backlog
		for i := range 5 {
			rawDialWith(t, smallWindow, srv).write(subscribeFrame(i+1, topic))
		}
		if relay.Polls() && !withoutPoll {
			// Each socket takes a few hundred KiB, then stops reading.
			poll.For(t, 5*time.Second, func() bool { return srv.WritesWaiting() == 5 })
		}
		if got := srv.MaxBuffered(); got > relay.DefaultMaxSocketBuffer {
			t.Fatalf("a stalled socket holds %d framed bytes, over its budget of %d", got, relay.DefaultMaxSocketBuffer)
		}
	})
	t.Run("PipelinedFetchesCloseOverBudget", func(t *testing.T) {
		if !relay.Polls() || withoutPoll {
			t.Skip("sockets served by the websocket library block on write instead of buffering")
		}
		srv := newTestServer(t, withLimits(relay.Limits{PublishRate: -1}))
		topic := fillTopic(t, srv, 30, size)
		var frames []byte
		for i := range 30 {
			frames = append(frames, textFrame(fmt.Sprintf(`{"id":%d,"jsonrpc":"2.0","method":"irn_fetchMessages","params":{"topic":"%s"}}`, i+1, topic))...)
		}
		c := rawDialWith(t, smallWindow, srv)
		c.write(frames)
		// Not read until the relay has framed about its budget.
		poll.For(t, 5*time.Second, func() bool { return srv.MaxBuffered() > relay.DefaultMaxSocketBuffer-size-4096 })
		// Still unread: the next answer cannot fit, so the relay gives up on
		// the socket. (Reading now could drain it faster than a loaded relay
		// frames, and then nothing would ever go over the budget.)
		poll.For(t, 10*time.Second, func() bool { return srv.OverBudget() == 1 })
		if got := srv.MaxBuffered(); got > relay.DefaultMaxSocketBuffer+128 {
			t.Fatalf("the socket holds %d framed bytes, over its budget of %d", got, relay.DefaultMaxSocketBuffer)
		}
		c.closedWith(websocket.StatusPolicyViolation)
	})
	t.Run("FetchIsPagedByBytes", func(t *testing.T) {
		srv := newTestServer(t, withLimits(relay.Limits{PublishRate: -1}))
		topic := fillTopic(t, srv, 12, size)
		s := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
		seen := 0
		for page := 0; ; page++ {
			var res struct {
				Messages []struct{ Message string } `json:"messages"`
				HasMore  bool                       `json:"hasMore"`
			}
			raw := s.ok("irn_fetchMessages", map[string]any{"topic": topic})
			if len(raw) > relay.MaxFetchBytes+size+4096 {
				t.Fatalf("page %d is %d bytes", page, len(raw))
			}
			json.Unmarshal(raw, &res)
			if len(res.Messages) == 0 {
				t.Fatalf("page %d is empty", page)
			}
			for _, m := range res.Messages {
				if m.Message != bigMessage(seen, size) {
					t.Fatalf("page %d: message %.9s, want big%06d", page, m.Message, seen)
				}
				seen++
			}
			s.sync()
			if !res.HasMore {
				break
			}
		}
		if seen != 12 {
			t.Fatalf("fetched %d messages, want 12", seen)
		}
	})
}
