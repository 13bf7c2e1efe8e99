package relay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// JSON-RPC error codes. The standard ones are JSON-RPC 2.0's; the others
// follow the WalletConnect relay (relay_rpc): 3001 for rate limits, -32000
// for a refused request that was well formed.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternal       = -32603
	CodeRefused        = -32000 // a limit or state refuses the request (mailbox full, too many topics)
	CodeTooManyReqs    = 3001   // rate limit
)

// RPCError is a JSON-RPC error object. Tag is a stable machine-readable name
// sent as "data", as the WalletConnect relay does.
type RPCError struct {
	Code    int
	Message string
	Tag     string
}

func (e *RPCError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

func invalidParams(format string, args ...any) *RPCError {
	return &RPCError{Code: CodeInvalidParams, Message: "Invalid params: " + fmt.Sprintf(format, args...), Tag: "InvalidParams"}
}

// envelope is any JSON-RPC object the client sends: a request (method set) or
// a response to our irn_subscription (result or error set).
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// parseFrame decodes one websocket text frame. On failure it returns the
// error to answer and the id to answer it with (null when unknown).
func parseFrame(data []byte) (*envelope, *RPCError) {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return nil, &RPCError{Code: CodeInvalidRequest, Message: "Invalid request: JSON-RPC batches are not supported; send one request per frame", Tag: "InvalidRequest"}
	}
	if env, ok := parseEnvelopeFast(data); ok && env.JSONRPC == "2.0" && (len(env.ID) == 0 || validID(env.ID)) && (env.Method != nil || len(env.Result) > 0 || len(env.Error) > 0) {
		return env, nil
	}
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, &RPCError{Code: CodeParseError, Message: "Parse error: the frame is not a JSON object", Tag: "Serialization"}
	}
	if len(env.ID) > 0 && !validID(env.ID) {
		env.ID = nil
		return &env, &RPCError{Code: CodeInvalidRequest, Message: "Invalid request: id must be a string or a number", Tag: "InvalidRequestId"}
	}
	if env.JSONRPC != "2.0" {
		return &env, &RPCError{Code: CodeInvalidRequest, Message: `Invalid request: jsonrpc must be "2.0"`, Tag: "InvalidJsonRpcVersion"}
	}
	if env.Method == nil && len(env.Result) == 0 && len(env.Error) == 0 {
		return &env, &RPCError{Code: CodeInvalidRequest, Message: "Invalid request: no method", Tag: "InvalidMethod"}
	}
	return &env, nil
}

// validID reports whether a raw id is a JSON string or number (null is
// allowed by JSON-RPC but answered with null, so it is treated as absent).
func validID(raw json.RawMessage) bool {
	switch c := raw[0]; {
	case c == '"':
		return true
	case c == '-' || (c >= '0' && c <= '9'):
		return true
	case bytes.Equal(raw, []byte("null")):
		return true
	}
	return false
}

// parseAckID reads the id of the client's answer to an irn_subscription we
// sent: a number, a numeric string, or the "<digits>n" string safe-json
// writes for an id it parsed as a BigInt.
func parseAckID(raw json.RawMessage) (uint64, bool) {
	s := string(raw)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
		if len(s) > 0 && s[len(s)-1] == 'n' {
			s = s[:len(s)-1]
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// appendResponse appends {"id":…,"jsonrpc":"2.0","result":…}.
func appendResponse(b []byte, id json.RawMessage, result []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendID(b, id)
	b = append(b, `,"jsonrpc":"2.0","result":`...)
	b = append(b, result...)
	return append(b, '}')
}

// appendError appends a JSON-RPC error response.
func appendError(b []byte, id json.RawMessage, e *RPCError) []byte {
	b = append(b, `{"id":`...)
	b = appendID(b, id)
	b = append(b, `,"jsonrpc":"2.0","error":{"code":`...)
	b = strconv.AppendInt(b, int64(e.Code), 10)
	b = append(b, `,"message":`...)
	b = appendString(b, e.Message)
	if e.Tag != "" {
		b = append(b, `,"data":`...)
		b = appendString(b, e.Tag)
	}
	return append(b, "}}"...)
}

// appendID writes the request id byte for byte (clients match responses on
// it), or null.
func appendID(b []byte, id json.RawMessage) []byte {
	if len(id) == 0 {
		return append(b, "null"...)
	}
	return append(b, id...)
}

// appendSubscription appends the irn_subscription request that delivers m.
func appendSubscription(b []byte, id uint64, subID string, m *Message) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, `,"jsonrpc":"2.0","method":"irn_subscription","params":{"id":`...)
	b = appendString(b, subID)
	b = append(b, `,"data":`...)
	b = appendMessageData(b, m)
	return append(b, "}}"...)
}

// appendMessageData appends {topic, message, publishedAt, attestation?, tag?},
// the shape of irn_subscription data and of fetched messages.
func appendMessageData(b []byte, m *Message) []byte {
	b = append(b, `{"topic":`...)
	b = appendString(b, m.Topic)
	b = append(b, `,"message":`...)
	b = appendString(b, m.Message)
	b = append(b, `,"publishedAt":`...)
	b = strconv.AppendInt(b, m.PublishedAt, 10)
	if m.Attestation != "" {
		b = append(b, `,"attestation":`...)
		b = appendString(b, m.Attestation)
	}
	if m.Tag != 0 {
		b = append(b, `,"tag":`...)
		b = strconv.AppendUint(b, uint64(m.Tag), 10)
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does; HTML characters are left alone (nobody renders this).
func appendString(b []byte, s string) []byte {
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
