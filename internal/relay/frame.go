package relay

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// WebSocket framing (RFC 6455 §5) for the sockets the poller serves: client
// frames are parsed and unmasked in place, server frames are written
// unmasked. Sockets served by the websocket library do not use it.

// Frame opcodes.
const (
	opContinuation = 0x0
	opText         = 0x1
	opBinary       = 0x2
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xa
)

// maxFrameHeader is the longest header a client frame can have: 2 bytes, an
// 8-byte length and a 4-byte mask key.
const maxFrameHeader = 14

// frameHeader is a parsed client frame header.
type frameHeader struct {
	fin     bool
	op      byte
	size    int // header bytes, mask key included
	length  int // payload bytes
	maskKey uint32
}

// frameError is a frame the relay will not take: the socket is closed with
// its code (1002 protocol error, 1009 too big).
type frameError struct {
	code   websocket.StatusCode
	reason string
}

var (
	errUnmasked       = &frameError{websocket.StatusProtocolError, "Client frames must be masked"}
	errReservedBits   = &frameError{websocket.StatusProtocolError, "Reserved bits set (no extension was negotiated)"}
	errOpcode         = &frameError{websocket.StatusProtocolError, "Unknown opcode"}
	errControlFrame   = &frameError{websocket.StatusProtocolError, "Control frames must be unfragmented and at most 125 bytes"}
	errContinuation   = &frameError{websocket.StatusProtocolError, "Continuation frame without a message to continue"}
	errInterleaved    = &frameError{websocket.StatusProtocolError, "New message before the fragmented one ended"}
	errCloseFrame     = &frameError{websocket.StatusProtocolError, "Malformed close frame"}
	errMessageTooBig  = &frameError{websocket.StatusMessageTooBig, "Message too big"}
	errNonMinimalSize = &frameError{websocket.StatusProtocolError, "Payload length not in its shortest form"}
	errServerBusy     = &frameError{websocket.StatusTryAgainLater, "Server busy: too many unfinished messages; retry"}
	errInvalidUTF8    = &frameError{websocket.StatusInvalidFramePayloadData, "Text message is not valid UTF-8"}
	errCloseReason    = &frameError{websocket.StatusInvalidFramePayloadData, "Close reason is not valid UTF-8"}
)

// parseFrameHeader parses the header at the start of b. ok is false while b
// does not hold the whole header. A payload longer than limit is an error
// (1009) as soon as its length is known.
func parseFrameHeader(b []byte, limit int) (h frameHeader, ok bool, ferr *frameError) {
	if len(b) < 2 {
		return h, false, nil
	}
	h.fin = b[0]&0x80 != 0
	h.op = b[0] & 0x0f
	if b[0]&0x70 != 0 {
		return h, false, errReservedBits
	}
	switch h.op {
	case opContinuation, opText, opBinary:
	case opClose, opPing, opPong:
		if !h.fin || b[1]&0x7f > 125 {
			return h, false, errControlFrame
		}
	default:
		return h, false, errOpcode
	}
	if b[1]&0x80 == 0 {
		return h, false, errUnmasked
	}
	h.size = 2
	var n uint64
	switch l := b[1] & 0x7f; l {
	case 126:
		h.size += 2
		if len(b) < h.size {
			return h, false, nil
		}
		n = uint64(binary.BigEndian.Uint16(b[2:]))
		if n < 126 {
			return h, false, errNonMinimalSize
		}
	case 127:
		h.size += 8
		if len(b) < h.size {
			return h, false, nil
		}
		n = binary.BigEndian.Uint64(b[2:])
		if n <= 0xffff || n>>63 != 0 {
			return h, false, errNonMinimalSize
		}
	default:
		n = uint64(l)
	}
	if n > uint64(limit) {
		return h, false, errMessageTooBig
	}
	h.length = int(n)
	if len(b) < h.size+4 {
		return h, false, nil
	}
	h.maskKey = binary.LittleEndian.Uint32(b[h.size:])
	h.size += 4
	return h, true, nil
}

// unmask XORs p with the mask key, p being the payload from its first byte.
func unmask(p []byte, key uint32) {
	k := uint64(key) | uint64(key)<<32
	for len(p) >= 8 {
		binary.LittleEndian.PutUint64(p, binary.LittleEndian.Uint64(p)^k)
		p = p[8:]
	}
	for i := range p {
		p[i] ^= byte(key)
		key = bits.RotateLeft32(key, -8)
	}
}

// appendFrameHeader appends the header of an unmasked, unfragmented server
// frame with an n-byte payload.
func appendFrameHeader(dst []byte, op byte, n int) []byte {
	dst = append(dst, 0x80|op)
	switch {
	case n < 126:
		return append(dst, byte(n))
	case n <= 0xffff:
		return binary.BigEndian.AppendUint16(append(dst, 126), uint16(n))
	default:
		return binary.BigEndian.AppendUint64(append(dst, 127), uint64(n))
	}
}

// closePayload is a close frame's payload: the status code and a reason cut
// to fit the 125 bytes a control frame may carry.
func closePayload(code websocket.StatusCode, reason string) []byte {
	reason = closeReason(reason)
	return append(binary.BigEndian.AppendUint16(make([]byte, 0, 2+len(reason)), uint16(code)), reason...)
}

// maxCloseReason is the most bytes a close frame's reason may have.
const maxCloseReason = 123

// closeReason cuts reason to maxCloseReason bytes at a character boundary:
// a close reason must be valid UTF-8 (RFC 6455 §5.5.1).
func closeReason(reason string) string {
	if len(reason) <= maxCloseReason {
		return reason
	}
	n := maxCloseReason
	for n > 0 && !utf8.RuneStart(reason[n]) {
		n--
	}
	return reason[:n]
}

// parseClose reads a peer's close frame payload: its code (1005, no status,
// when empty) or an error for a payload no valid close frame has.
func parseClose(p []byte) (websocket.StatusCode, *frameError) {
	switch {
	case len(p) == 0:
		return websocket.StatusNoStatusRcvd, nil
	case len(p) == 1:
		return 0, errCloseFrame
	}
	code := websocket.StatusCode(binary.BigEndian.Uint16(p))
	switch {
	case code >= 1000 && code <= 1014 && code != 1004 && code != 1005 && code != 1006:
	case code >= 3000 && code <= 4999:
	default:
		return 0, errCloseFrame
	}
	if !utf8.Valid(p[2:]) {
		return 0, errCloseReason
	}
	return code, nil
}
