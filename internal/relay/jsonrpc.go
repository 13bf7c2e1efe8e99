package relay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/latchkit/latch/internal/jsonrpc"
)

// The relay's errors use internal/jsonrpc's codes: JSON-RPC 2.0's, and as
// the WalletConnect relay (relay_rpc) answers, CodeTooManyRequests (3001)
// for its rate limit and CodeRefused (-32000) for a well-formed request a
// limit or state refuses. Each error carries a stable machine-readable tag
// as its data, as relay_rpc does; the tags are encoded once, here.
var (
	tagBatchEmpty              = jsonrpc.StringData("BatchEmpty")
	tagBatchLimitExceeded      = jsonrpc.StringData("BatchLimitExceeded")
	tagInvalidJsonRpcVersion   = jsonrpc.StringData("InvalidJsonRpcVersion")
	tagInvalidMethod           = jsonrpc.StringData("InvalidMethod")
	tagInvalidParams           = jsonrpc.StringData("InvalidParams")
	tagInvalidRequest          = jsonrpc.StringData("InvalidRequest")
	tagInvalidRequestId        = jsonrpc.StringData("InvalidRequestId")
	tagInvalidTopic            = jsonrpc.StringData("InvalidTopic")
	tagMailboxLimitExceeded    = jsonrpc.StringData("MailboxLimitExceeded")
	tagPayloadSizeExceeded     = jsonrpc.StringData("PayloadSizeExceeded")
	tagPublishOutcomeUnknown   = jsonrpc.StringData("PublishOutcomeUnknown")
	tagSerialization           = jsonrpc.StringData("Serialization")
	tagStorageError            = jsonrpc.StringData("StorageError")
	tagSubscriberLimitExceeded = jsonrpc.StringData("SubscriberLimitExceeded")
	tagTooManyRequests         = jsonrpc.StringData("TooManyRequests")
	tagTtlTooLong              = jsonrpc.StringData("TtlTooLong")
	tagTtlTooShort             = jsonrpc.StringData("TtlTooShort")
)

// The frame-level refusals, built once: they do not depend on the frame.
var (
	errBatchFrame = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid request: JSON-RPC batches are not supported; send one request per frame", Data: tagInvalidRequest}
	errParseFrame = &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "Parse error: the frame is not a JSON object", Data: tagSerialization}
	errFrameID    = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid request: id must be a string or a number", Data: tagInvalidRequestId}
	errVersion    = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: `Invalid request: jsonrpc must be "2.0"`, Data: tagInvalidJsonRpcVersion}
	errNoMethod   = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid request: no method", Data: tagInvalidMethod}
)

func invalidParams(format string, args ...any) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid params: " + fmt.Sprintf(format, args...), Data: tagInvalidParams}
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

// parseFrame decodes one websocket text frame into env (the caller's, so
// that a frame's envelope is not allocated). On failure it returns the error
// to answer, and env.ID is the id to answer it with (null when unknown).
func parseFrame(data []byte, env *envelope) *jsonrpc.Error {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		*env = envelope{}
		return errBatchFrame
	}
	if parseEnvelopeFast(data, env) && env.JSONRPC == "2.0" && (len(env.ID) == 0 || validID(env.ID)) && (env.Method != nil || len(env.Result) > 0 || len(env.Error) > 0) {
		return nil
	}
	var slow envelope // on the heap (encoding/json keeps it), so only here
	if err := json.Unmarshal(data, &slow); err != nil {
		*env = envelope{}
		return errParseFrame
	}
	*env = slow
	if len(env.ID) > 0 && !validID(env.ID) {
		env.ID = nil
		return errFrameID
	}
	if env.JSONRPC != "2.0" {
		return errVersion
	}
	if env.Method == nil && len(env.Result) == 0 && len(env.Error) == 0 {
		return errNoMethod
	}
	return nil
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

// appendResponse appends {"id":…,"jsonrpc":"2.0","result":…}. The relay
// writes id first, as relay_rpc does (and bench/relay.go matches answers on
// that prefix); members' order means nothing to JSON clients.
func appendResponse(b []byte, id json.RawMessage, result []byte) []byte {
	b = append(b, `{"id":`...)
	b = jsonrpc.AppendID(b, id)
	b = append(b, `,"jsonrpc":"2.0","result":`...)
	b = append(b, result...)
	return append(b, '}')
}

// appendError appends a JSON-RPC error response, id first like appendResponse.
func appendError(b []byte, id json.RawMessage, e *jsonrpc.Error) []byte {
	b = append(b, `{"id":`...)
	b = jsonrpc.AppendID(b, id)
	b = append(b, `,"jsonrpc":"2.0","error":`...)
	b = jsonrpc.AppendErrorObject(b, e)
	return append(b, '}')
}

// appendSubscription appends the irn_subscription request that delivers m.
func appendSubscription(b []byte, id uint64, subID string, m *Message) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, `,"jsonrpc":"2.0","method":"irn_subscription","params":{"id":`...)
	b = jsonrpc.AppendString(b, subID)
	b = append(b, `,"data":`...)
	b = appendMessageData(b, m)
	return append(b, "}}"...)
}

// appendMessageData appends {topic, message, publishedAt, attestation?, tag?},
// the shape of irn_subscription data and of fetched messages.
func appendMessageData(b []byte, m *Message) []byte {
	b = append(b, `{"topic":`...)
	b = jsonrpc.AppendString(b, m.Topic)
	b = append(b, `,"message":`...)
	b = jsonrpc.AppendString(b, m.Message)
	b = append(b, `,"publishedAt":`...)
	b = strconv.AppendInt(b, m.PublishedAt, 10)
	if m.Attestation != "" {
		b = append(b, `,"attestation":`...)
		b = jsonrpc.AppendString(b, m.Attestation)
	}
	if m.Tag != 0 {
		b = append(b, `,"tag":`...)
		b = strconv.AppendUint(b, uint64(m.Tag), 10)
	}
	return append(b, '}')
}
