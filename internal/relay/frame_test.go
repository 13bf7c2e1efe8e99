package relay

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/coder/websocket"
)

// clientFrame is a masked client frame (what a browser sends).
func clientFrame(b0 byte, payload []byte, key uint32) []byte {
	f := appendFrameHeader(nil, 0, len(payload))
	f[0] = b0
	f[1] |= 0x80
	f = binary.LittleEndian.AppendUint32(f, key)
	start := len(f)
	f = append(f, payload...)
	unmask(f[start:], key) // masking is the same XOR
	return f
}

func TestParseFrameHeader(t *testing.T) {
	const limit = 1 << 20
	for _, n := range []int{0, 1, 125, 126, 127, 4096, 65535, 65536, limit} {
		payload := bytes.Repeat([]byte{'x'}, n)
		f := clientFrame(0x80|opText, payload, 0x01020304)
		for cut := 0; cut < len(f)-n; cut++ { // every prefix of the header is "not yet"
			if _, ok, err := parseFrameHeader(f[:cut], limit); ok || err != nil {
				t.Fatalf("length %d, %d header bytes: ok=%v err=%v", n, cut, ok, err)
			}
		}
		h, ok, err := parseFrameHeader(f, limit)
		if !ok || err != nil || !h.fin || h.op != opText || h.length != n || h.size != len(f)-n {
			t.Fatalf("length %d: %+v ok=%v err=%v", n, h, ok, err)
		}
		got := bytes.Clone(f[h.size:])
		unmask(got, h.maskKey)
		if !bytes.Equal(got, payload) {
			t.Fatalf("length %d: payload does not unmask", n)
		}
	}

	masked := func(b0 byte, lenByte byte, rest ...byte) []byte {
		return append([]byte{b0, 0x80 | lenByte}, append(rest, 1, 2, 3, 4)...)
	}
	for name, tc := range map[string]struct {
		frame []byte
		want  *frameError
	}{
		"unmasked":                 {[]byte{0x81, 0x05, 'h', 'e', 'l', 'l', 'o'}, errUnmasked},
		"reserved bit":             {masked(0xc1, 0), errReservedBits},
		"unknown opcode":           {masked(0x83, 0), errOpcode},
		"fragmented ping":          {masked(0x09, 0), errControlFrame},
		"long close":               {masked(0x88, 126, 0, 200), errControlFrame},
		"16-bit length under 126":  {masked(0x81, 126, 0, 100), errNonMinimalSize},
		"64-bit length under 64Ki": {masked(0x81, 127, 0, 0, 0, 0, 0, 0, 0xff, 0xff), errNonMinimalSize},
		"64-bit length, top bit":   {masked(0x81, 127, 0x80, 0, 0, 0, 0, 1, 0, 0), errNonMinimalSize},
		"over the limit":           {masked(0x81, 127, 0, 0, 0, 0, 0, 0x20, 0, 0), errMessageTooBig},
	} {
		if _, _, err := parseFrameHeader(tc.frame, limit); err != tc.want {
			t.Errorf("%s: error %v, want %v", name, err, tc.want)
		}
	}
}

func TestUnmask_MatchesBytewiseXOR(t *testing.T) {
	for n := range 70 {
		key := rand.Uint32()
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(rand.Uint32())
		}
		want := bytes.Clone(p)
		var k [4]byte
		binary.LittleEndian.PutUint32(k[:], key)
		for i := range want {
			want[i] ^= k[i%4]
		}
		unmask(p, key)
		if !bytes.Equal(p, want) {
			t.Fatalf("length %d: %x, want %x", n, p, want)
		}
	}
}

func TestAppendFrameHeader(t *testing.T) {
	for n, want := range map[int][]byte{
		0:      {0x81, 0},
		125:    {0x81, 125},
		126:    {0x81, 126, 0, 126},
		65535:  {0x81, 126, 0xff, 0xff},
		65536:  {0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0},
		600000: {0x81, 127, 0, 0, 0, 0, 0, 0x09, 0x27, 0xc0},
	} {
		if got := appendFrameHeader(nil, opText, n); !bytes.Equal(got, want) {
			t.Errorf("length %d: % x, want % x", n, got, want)
		}
	}
}

func TestParseClose(t *testing.T) {
	if code, err := parseClose(nil); code != websocket.StatusNoStatusRcvd || err != nil {
		t.Fatalf("empty: %v %v", code, err)
	}
	if code, err := parseClose(closePayload(websocket.StatusGoingAway, "bye")); code != websocket.StatusGoingAway || err != nil {
		t.Fatalf("1001: %v %v", code, err)
	}
	for _, p := range [][]byte{{3}, {0x03, 0xed}, {0x03, 0xe7}, {0x13, 0x88}} { // 1 byte, 1005, 999, 5000
		if _, err := parseClose(p); err != errCloseFrame {
			t.Errorf("% x: %v, want a malformed close frame", p, err)
		}
	}
	if p := closePayload(websocket.StatusNormalClosure, string(bytes.Repeat([]byte{'r'}, 200))); len(p) != 125 {
		t.Fatalf("close payload of %d bytes, want 125", len(p))
	}
}

// FuzzParseFrameHeader: any bytes give a header that lies within them and
// within the limit, "not yet", or an error; never a panic.
func FuzzParseFrameHeader(f *testing.F) {
	f.Add(clientFrame(0x81, []byte(`{"id":1}`), 7))
	f.Add(clientFrame(0x01, bytes.Repeat([]byte{'a'}, 300), 9))
	f.Add([]byte{0x88, 0x80, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		const limit = 4096
		h, ok, err := parseFrameHeader(b, limit)
		if ok && err != nil {
			t.Fatal("ok with an error")
		}
		if ok && (h.size > len(b) || h.size > maxFrameHeader || h.length > limit || h.length < 0) {
			t.Fatalf("header %+v from %d bytes", h, len(b))
		}
	})
}
