package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// WriteHTTPError writes one JSON-RPC error response with the given HTTP
// status. id is the request's id as the client sent it; nil writes null (the
// id is unknown, or the body could not be read).
func WriteHTTPError(w http.ResponseWriter, status int, id json.RawMessage, err *Error) {
	writeJSON(w, status, AppendError(nil, id, err))
}

// WriteHTTPErrors answers every request of a JSON-RPC body with err under
// the given HTTP status: for a batch, an array with one error per request
// id; otherwise one error with the request's id (see RequestIDs). It is for
// refusals decided before the requests are looked at, such as a rate limit.
func WriteHTTPErrors(w http.ResponseWriter, status int, body []byte, err *Error) {
	ids, batch := RequestIDs(body)
	if !batch || len(ids) == 0 {
		var id json.RawMessage
		if len(ids) > 0 {
			id = ids[0]
		}
		WriteHTTPError(w, status, id, err)
		return
	}
	b := make([]byte, 0, 64*len(ids)+len(err.Message)*len(ids))
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendError(b, id, err)
	}
	writeJSON(w, status, append(b, ']'))
}

// WriteRateLimited answers every request of body (as WriteHTTPErrors does)
// with HTTP 429, a Retry-After header of retryAfter in whole seconds (at
// least 1) and a CodeLimitExceeded error saying what was limited, e.g.
// "too many RPC requests for this project".
func WriteRateLimited(w http.ResponseWriter, body []byte, retryAfter time.Duration, what string) {
	secs := RetryAfterSeconds(retryAfter)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	WriteHTTPErrors(w, http.StatusTooManyRequests, body, RateLimited(what, secs))
}

// RateLimited is the error of a rate limit: what was limited and when to retry.
func RateLimited(what string, retryAfterSecs int) *Error {
	return &Error{
		Code:    CodeLimitExceeded,
		Message: fmt.Sprintf("Rate limit exceeded: %s; retry in %d s", what, retryAfterSecs),
		Data:    fmt.Appendf(nil, `{"retryAfter":%d}`, retryAfterSecs),
	}
}

// RetryAfterSeconds rounds d up to whole seconds, at least 1: Retry-After
// has no fractions, and 0 would invite an immediate retry that fails again.
func RetryAfterSeconds(d time.Duration) int {
	secs := int((d + time.Second - 1) / time.Second)
	return max(secs, 1)
}

// RequestIDs returns the ids that answers to a JSON-RPC body carry. For a
// batch (batch true) there is one id per request that expects an answer:
// notifications (no id member) are left out, and an entry with no readable
// id (not an object, an id that is not a string, number or null) gets nil,
// answered as null (JSON-RPC 2.0 §5). For anything else — a single request
// or notification, an empty batch, a body that is not JSON — ids holds one
// id, nil when there is none to read.
func RequestIDs(body []byte) (ids []json.RawMessage, batch bool) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || !json.Valid(body) {
		return []json.RawMessage{nil}, false
	}
	if body[0] != '[' {
		id, _ := requestID(body)
		return []json.RawMessage{id}, false
	}
	var raws []json.RawMessage
	if json.Unmarshal(body, &raws) != nil || len(raws) == 0 {
		return []json.RawMessage{nil}, false
	}
	ids = make([]json.RawMessage, 0, len(raws))
	for _, raw := range raws {
		if id, notification := requestID(raw); !notification {
			ids = append(ids, id)
		}
	}
	return ids, true
}

// requestID reads the id of one request object: nil when it has none that
// can be echoed; notification when it is an object without an id member.
func requestID(raw json.RawMessage) (id json.RawMessage, notification bool) {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	if m.ID == nil {
		return nil, true
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'n':
		return m.ID, false
	}
	return nil, false
}

func writeJSON(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
