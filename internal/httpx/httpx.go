// Package httpx holds the small HTTP helpers every latchd handler shares:
// JSON responses, the one mapping from apperr codes to HTTP statuses, body
// decoding with limits, request ids and client addresses.
package httpx

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/breaker"
	"github.com/latchkit/latch/internal/jsonrpc"
)

// DefaultMaxBody is the body limit for JSON requests that set none of their own.
const DefaultMaxBody = 64 << 10

// Reason is one entry of the error body: the field at fault and what is wrong.
type Reason struct {
	Field       string `json:"field"`
	Description string `json:"description"`
}

// ErrorBody is the error convention of the blockchain API (api-shapes §3).
type ErrorBody struct {
	Status  string   `json:"status"`
	Code    string   `json:"code"`
	Reasons []Reason `json:"reasons"`
}

// JSON writes v as a JSON response with the given status.
func JSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		slog.Debug("write response", "err", err)
	}
}

// Status maps an apperr code to its HTTP status.
func Status(code string) int {
	switch code {
	case apperr.Invalid:
		return http.StatusBadRequest
	case apperr.Unauthorized:
		return http.StatusUnauthorized
	case apperr.Forbidden:
		return http.StatusForbidden
	case apperr.NotFound:
		return http.StatusNotFound
	case apperr.Conflict:
		return http.StatusConflict
	case apperr.TooLarge:
		return http.StatusRequestEntityTooLarge
	case apperr.Unsupported:
		return http.StatusUnsupportedMediaType
	case apperr.RateLimited:
		return http.StatusTooManyRequests
	case apperr.Unavailable:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// Error writes err as {status:"FAILED", code, reasons:[{field, description}]}.
// Errors that are not *apperr.Error are logged with detail and answered with a
// generic message, so internals never reach the client.
func Error(w http.ResponseWriter, r *http.Request, err error) {
	e := apperr.As(err)
	if e == nil {
		// A dependency that failed (a breaker open, a deadline passed, a
		// connection refused): something to retry, not a bug.
		e = breaker.Outage(err)
	}
	if e == nil {
		slog.ErrorContext(r.Context(), "internal error", "method", r.Method, "path", r.URL.Path, "err", err, "request_id", RequestID(r.Context()))
		e = &apperr.Error{Code: apperr.Internal, Message: "Internal server error"}
	}
	if e.Code == apperr.Unavailable && e.Cause != nil {
		// An outage is the operator's to see, not the client's. A call an
		// open breaker refused is Debug: the breaker logged the outage once.
		level := slog.LevelWarn
		if errors.Is(e.Cause, breaker.ErrOpen) {
			level = slog.LevelDebug
		}
		slog.Log(r.Context(), level, "dependency unavailable", "method", r.Method, "path", r.URL.Path, "err", e.Cause, "request_id", RequestID(r.Context()))
	}
	if (e.Code == apperr.RateLimited || e.Code == apperr.Unavailable) && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", strconv.Itoa(jsonrpc.RetryAfterSeconds(e.RetryAfter)))
	}
	JSON(w, Status(e.Code), ErrorBody{
		Status:  "FAILED",
		Code:    e.Code,
		Reasons: []Reason{{Field: e.Field, Description: e.Message}},
	})
}

// RateLimited writes a 429 with Retry-After rounded up to whole seconds.
func RateLimited(w http.ResponseWriter, r *http.Request, retryAfter time.Duration, what string) {
	secs := jsonrpc.RetryAfterSeconds(retryAfter)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	Error(w, r, apperr.Errorf(apperr.RateLimited, "Too many requests: %s; retry in %d s", what, secs))
}

// DecodeJSON reads the request body into v. It accepts application/json and
// text/plain (navigator.sendBeacon and viem send text/plain to avoid a CORS
// preflight), refuses bodies over maxBytes, unknown trailing data and bad JSON.
func DecodeJSON(w http.ResponseWriter, r *http.Request, maxBytes int64, v any) error {
	if err := checkJSONContentType(r); err != nil {
		return err
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBody
	}
	body := http.MaxBytesReader(w, r.Body, maxBytes)
	dec := json.NewDecoder(body)
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return apperr.Fieldf(apperr.TooLarge, "body", "Request body is larger than %d bytes", maxBytes)
		case errors.Is(err, io.EOF):
			return apperr.Fieldf(apperr.Invalid, "body", "Request body is empty")
		default:
			return apperr.Fieldf(apperr.Invalid, "body", "Request body is not valid JSON: %s", jsonErrorText(err))
		}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return apperr.Fieldf(apperr.TooLarge, "body", "Request body is larger than %d bytes", maxBytes)
		}
		return apperr.Fieldf(apperr.Invalid, "body", "Request body has data after the JSON value")
	}
	return nil
}

func checkJSONContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return apperr.Fieldf(apperr.Unsupported, "Content-Type", "Content-Type %q is malformed", ct)
	}
	if mt != "application/json" && mt != "text/plain" {
		return apperr.Fieldf(apperr.Unsupported, "Content-Type", "Content-Type must be application/json, not %s", mt)
	}
	return nil
}

func jsonErrorText(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return "syntax error at byte " + strconv.FormatInt(syn.Offset, 10)
	case errors.As(err, &typ):
		if typ.Field != "" {
			return "field " + typ.Field + " must be " + typ.Type.String()
		}
		return "expected " + typ.Type.String()
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected end of input"
	}
	return err.Error()
}

type ctxKey int

const requestIDKey ctxKey = iota

// WithRequestID returns ctx carrying the request id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey, id)
}

// RequestID returns the request id carried by ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// ClientIP returns the address of the client. X-Forwarded-For is honoured only
// when the direct peer is a trusted proxy, so clients cannot spoof their
// address to escape rate limits.
func ClientIP(r *http.Request, trusted func(net.IP) bool) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer := net.ParseIP(host)
	if peer == nil || trusted == nil || !trusted(peer) {
		return host
	}
	fwd := r.Header.Get("X-Forwarded-For")
	if fwd == "" {
		return host
	}
	// The right-most address not added by a trusted proxy is the client.
	parts := strings.Split(fwd, ",")
	for i := len(parts) - 1; i >= 0; i-- {
		ip := net.ParseIP(strings.TrimSpace(parts[i]))
		if ip == nil {
			break
		}
		if !trusted(ip) {
			return ip.String()
		}
		host = ip.String()
	}
	return host
}

// DefaultIPv6Prefix is the prefix length RateKey groups IPv6 clients by: a
// /64 is what one subscriber, one LAN, usually holds, and its owner picks
// any of its 2^64 addresses at will.
const DefaultIPv6Prefix = 64

// RateKey is the key a client address (ClientIP's answer) is rate-limited
// and counted by: an IPv4 address as it is (an IPv4-mapped IPv6 address as
// its IPv4 form), an IPv6 address as its network of v6Prefix bits, such as
// "2001:db8:1:2::/64" (128: the address itself). Anything that is not an IP
// address is returned unchanged.
func RateKey(ip string, v6Prefix int) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	if addr.Is4() {
		return ip
	}
	if addr.Is4In6() {
		return addr.Unmap().String()
	}
	addr = addr.WithZone("")
	if v6Prefix <= 0 || v6Prefix >= 128 {
		return addr.String()
	}
	p, err := addr.Prefix(v6Prefix)
	if err != nil {
		return addr.String()
	}
	return p.String()
}

// BaseURL is the API's base URL as the client reached it: https when the
// connection is TLS or a trusted proxy (trusted may be nil: none) says so
// with X-Forwarded-Proto.
func BaseURL(r *http.Request, trusted func(net.IP) bool) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	} else if strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") && trusted != nil {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if ip := net.ParseIP(host); err == nil && ip != nil && trusted(ip) {
			scheme = "https"
		}
	}
	return scheme + "://" + r.Host
}

// Query reads a query parameter, refusing values longer than max bytes.
func Query(r *http.Request, name string, max int) (string, error) {
	v := r.URL.Query().Get(name)
	if len(v) > max {
		return "", apperr.Fieldf(apperr.Invalid, name, "%s is longer than %d characters", name, max)
	}
	return v, nil
}
