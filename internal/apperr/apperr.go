// Package apperr defines the one error type every latchd service returns.
//
// Services return *Error for failures the caller can act on; anything else is
// an internal error. Transport layers map codes exactly once: httpx.Error maps
// them to HTTP statuses and the {status, reasons} JSON body, and the RPC proxy
// maps them to JSON-RPC error codes.
package apperr

import (
	"errors"
	"fmt"
	"time"
)

// Error codes. They name what went wrong from the caller's point of view.
const (
	Invalid      = "invalid"      // the request is malformed or fails validation
	Unauthorized = "unauthorized" // credentials (project id, token) missing or malformed
	Forbidden    = "forbidden"    // credentials valid but not allowed (unknown project, origin)
	NotFound     = "not_found"    // the named thing does not exist
	Conflict     = "conflict"     // the request clashes with existing state
	TooLarge     = "too_large"    // the request body is over its limit
	Unsupported  = "unsupported"  // wrong content type or an unsupported option
	RateLimited  = "rate_limited" // too many requests; retry later
	Unavailable  = "unavailable"  // a dependency is down; retry later
	Internal     = "internal"     // a bug or an unexpected failure; details are logged only
)

// Error is an application error with a machine-readable code, the field it is
// about (if any) and a message that is safe to show to the user.
type Error struct {
	Code    string
	Field   string
	Message string
	// RetryAfter, for rate_limited and unavailable, is how long the client
	// should wait before trying again (0: a second).
	RetryAfter time.Duration
	// Cause is the failure behind the error (an unreachable dependency), for
	// the log only: it never reaches the client.
	Cause error
}

func (e *Error) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %s", e.Code, e.Field, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap returns the cause, so errors.Is sees through to it (a timeout).
func (e *Error) Unwrap() error { return e.Cause }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Fieldf returns an *Error about one request field.
func Fieldf(code, field, format string, args ...any) *Error {
	return &Error{Code: code, Field: field, Message: fmt.Sprintf(format, args...)}
}

// Code returns the code of err, or Internal when err is not an *Error.
func Code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// As returns err as an *Error, or nil when it is not one.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}
