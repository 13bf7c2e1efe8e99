package bundler

import (
	"errors"
	"fmt"
	"testing"
)

// rpcErr is a JSON-RPC error object as go-ethereum's client returns it.
type rpcErr struct {
	code int
	msg  string
}

func (e rpcErr) Error() string  { return e.msg }
func (e rpcErr) ErrorCode() int { return e.code }

// The answers of nodes that cannot run erc7562Tracer, told from failures to answer.
func TestCannotTrace(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{rpcErr{-32601, "the method debug_traceCall does not exist/is not available"}, true},    // geth without --http.api debug
		{rpcErr{-32000, "ReferenceError: erc7562Tracer is not defined at <eval>:1:1(0)"}, true}, // geth before 1.16 takes the name for JavaScript
		{rpcErr{-32602, "tracer not found"}, true},
		{rpcErr{-32612, "erc7562Tracer is not supported"}, true}, // a hosted node's allowlist
		{fmt.Errorf("upstream 1: %w", rpcErr{-32601, "Method not found"}), true},
		{rpcErr{-32000, "header not found"}, false},
		{rpcErr{-32603, "method handler crashed"}, false},
		{errors.New("dial tcp 127.0.0.1:1: connect: connection refused"), false},
	} {
		if got := cannotTrace(tt.err); got != tt.want {
			t.Errorf("%v: %v, want %v", tt.err, got, tt.want)
		}
	}
}
