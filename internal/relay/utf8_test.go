package relay_test

import (
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/relay"
)

// TestServer_UTF8: text messages and close reasons must be UTF-8 (RFC 6455
// §8.1: close 1007), and the relay's own close reasons are cut at a
// character boundary (issue 15, finding 9).
func TestServer_UTF8(t *testing.T) {
	bad := []byte(`{"id":1,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"` + "\xff\xfe" + `"}}`)
	t.Run("TextFrame", func(t *testing.T) {
		c := rawDial(t, newTestServer(t))
		c.write(maskedFrame(0x81, bad))
		if code := c.closeCode(); code != websocket.StatusInvalidFramePayloadData {
			t.Fatalf("close %d, want 1007", code)
		}
	})
	t.Run("FragmentedText", func(t *testing.T) {
		// "é" split between two fragments is valid; a lone byte is not.
		srv := newTestServer(t)
		ok := rawDial(t, srv)
		req := []byte(`{"id":1,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"` + newTopic(t) + `","x":"é"}}`)
		cut := strings.Index(string(req), "é") + 1
		ok.write(append(maskedFrame(0x01, req[:cut]), maskedFrame(0x80, req[cut:])...))
		ok.answer(1)
		c := rawDial(t, srv)
		c.write(append(maskedFrame(0x01, bad[:10]), maskedFrame(0x80, bad[10:])...))
		if code := c.closeCode(); code != websocket.StatusInvalidFramePayloadData {
			t.Fatalf("close %d, want 1007", code)
		}
	})
	t.Run("CloseReason", func(t *testing.T) {
		if !relay.Polls() || withoutPoll {
			t.Skip("close frames are read by the websocket library here")
		}
		c := rawDial(t, newTestServer(t))
		c.write(maskedFrame(0x88, append(binary.BigEndian.AppendUint16(nil, 1000), 0xc3)))
		if code := c.closeCode(); code != websocket.StatusInvalidFramePayloadData {
			t.Fatalf("close %d, want 1007", code)
		}
	})
	t.Run("ReasonCut", func(t *testing.T) {
		reason := strings.Repeat("é", 100) // 200 bytes
		for _, r := range []string{relay.CloseReason(reason), relay.CloseReason("a" + reason)} {
			if len(r) > 123 || !utf8.ValidString(r) {
				t.Fatalf("cut reason %q (%d bytes)", r, len(r))
			}
		}
	})
}
