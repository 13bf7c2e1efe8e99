// Package jsonrpc is latchd's one JSON-RPC 2.0 error contract: the error
// codes every JSON-RPC endpoint answers with (the chain RPC proxy, the
// WalletConnect relay), the Error type, the mapping from apperr codes, and
// the encoders of responses and errors, over HTTP or in a frame.
//
// Codes that go on the wire never change: clients (viem, WalletConnect's
// sign-client) act on them.
package jsonrpc

import (
	"encoding/json"
	"fmt"

	"github.com/latchkit/latch/internal/apperr"
)

// Standard JSON-RPC 2.0 error codes (JSON-RPC 2.0 §5.1).
const (
	CodeParseError     = -32700 // the body or frame is not JSON
	CodeInvalidRequest = -32600 // JSON, but not a valid request object
	CodeMethodNotFound = -32601 // no such method, or not allowed here
	CodeInvalidParams  = -32602 // the method's params are wrong
	CodeInternal       = -32603 // a failure on our side; details are logged only
)

// Server-defined codes. -32000…-32099 is JSON-RPC's range for servers; the
// values follow EIP-1474 (Ethereum JSON-RPC, which viem understands) except
// where the WalletConnect relay protocol says otherwise.
const (
	// CodeRefused: a well-formed request that a limit or the server's state
	// refuses (relay: mailbox full, too many topics), as the WalletConnect
	// relay (relay_rpc) answers. EIP-1474 names -32000 "invalid input".
	CodeRefused = -32000
	// CodeNotFound is EIP-1474's "resource not found".
	CodeNotFound = -32001
	// CodeUnavailable is EIP-1474's "resource unavailable": retry later.
	CodeUnavailable = -32002
	// CodeLimitExceeded is EIP-1474's "limit exceeded": the RPC proxy's rate
	// limits (viem retries it as LimitExceededRpcError).
	CodeLimitExceeded = -32005
	// CodeTooManyRequests is the WalletConnect relay's rate limit code
	// (relay_rpc's 3001), outside JSON-RPC's reserved range.
	CodeTooManyRequests = 3001
)

// Error is a JSON-RPC error object. Its JSON form is {"code","message","data"?}.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"` // raw JSON; nil: no data member
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// StringData returns s as a JSON string for Error.Data, such as the stable
// machine-readable tag the WalletConnect relay sends ("InvalidParams").
// Callers build tags once, at package level, so answering costs nothing more.
func StringData(s string) json.RawMessage {
	return AppendString(nil, s)
}

// Code maps an apperr code to its JSON-RPC code; an unknown code is
// CodeInternal. HTTP statuses are mapped by httpx.Status, once as well.
func Code(appCode string) int {
	switch appCode {
	case apperr.Invalid:
		return CodeInvalidParams
	case apperr.TooLarge, apperr.Unsupported:
		return CodeInvalidRequest
	case apperr.Unauthorized, apperr.Forbidden, apperr.Conflict:
		return CodeRefused
	case apperr.NotFound:
		return CodeNotFound
	case apperr.RateLimited:
		return CodeLimitExceeded
	case apperr.Unavailable:
		return CodeUnavailable
	}
	return CodeInternal
}

// FromError converts a service error to a JSON-RPC error: an *apperr.Error
// keeps its user-facing message under its mapped code, and the field it is
// about, if any, goes in data as {"field":…}; anything else is an internal
// error with a generic message (the caller logs err with its detail).
func FromError(err error) *Error {
	e := apperr.As(err)
	if e == nil {
		return &Error{Code: CodeInternal, Message: "Internal error"}
	}
	out := &Error{Code: Code(e.Code), Message: e.Message}
	if e.Field != "" {
		out.Data = append(AppendString([]byte(`{"field":`), e.Field), '}')
	}
	return out
}
