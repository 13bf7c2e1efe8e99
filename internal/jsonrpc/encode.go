package jsonrpc

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// The Append functions write into a caller's buffer and allocate nothing
// when it has room: the relay answers from pooled buffers on its hot path.

// AppendError appends the error response {"jsonrpc":"2.0","id":…,"error":{…}}.
func AppendError(b []byte, id json.RawMessage, e *Error) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = AppendID(b, id)
	b = append(b, `,"error":`...)
	b = AppendErrorObject(b, e)
	return append(b, '}')
}

// AppendRawError appends an error response whose error object is already
// JSON, such as an upstream node's error passed through as it is.
func AppendRawError(b []byte, id, errObj json.RawMessage) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = AppendID(b, id)
	b = append(b, `,"error":`...)
	b = append(b, errObj...)
	return append(b, '}')
}

// AppendResult appends the response {"jsonrpc":"2.0","id":…,"result":…}; a
// nil result is written as null.
func AppendResult(b []byte, id, result json.RawMessage) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = AppendID(b, id)
	b = append(b, `,"result":`...)
	if result == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, result...)
	}
	return append(b, '}')
}

// AppendErrorObject appends the error object {"code":…,"message":…,"data":…},
// data only when e.Data is set.
func AppendErrorObject(b []byte, e *Error) []byte {
	b = append(b, `{"code":`...)
	b = strconv.AppendInt(b, int64(e.Code), 10)
	b = append(b, `,"message":`...)
	b = AppendString(b, e.Message)
	if len(e.Data) > 0 {
		b = append(b, `,"data":`...)
		b = append(b, e.Data...)
	}
	return append(b, '}')
}

// AppendID appends a request id byte for byte (clients match answers on
// it, and a big number must not be rounded), or null when it is unknown.
func AppendID(b []byte, id json.RawMessage) []byte {
	if len(id) == 0 {
		return append(b, "null"...)
	}
	return append(b, id...)
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does; HTML characters are left alone (nobody renders this).
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
