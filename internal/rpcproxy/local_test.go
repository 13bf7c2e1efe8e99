package rpcproxy

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/latchkit/latch/internal/jsonrpc"
)

// fakeLocal handles eth_sendUserOperation (refused by the allowlist) and
// eth_chainId (allowed) on testChain only.
type fakeLocal struct{ calls []LocalCall }

func (f *fakeLocal) Handles(network, method string) bool {
	return network == testChain && (method == "eth_sendUserOperation" || method == "eth_supportedEntryPoints")
}

func (f *fakeLocal) Serve(_ context.Context, c LocalCall) (json.RawMessage, *jsonrpc.Error) {
	f.calls = append(f.calls, c)
	if c.Method == "eth_sendUserOperation" {
		return nil, &jsonrpc.Error{Code: -32500, Message: "AA21 didn't pay prefund"}
	}
	return json.RawMessage(`["0x0000000071727de22e5e9d8baf0edac6f37da032"]`), nil
}

func TestProxy_Local(t *testing.T) {
	node := MustNode(t, answering(echoMethod))
	local := &fakeLocal{}
	h := MustProxy(t, func(c *Config) { c.Local = local }, node)

	t.Run("OK", func(t *testing.T) {
		_, body := h.Post(t, `[{"jsonrpc":"2.0","id":1,"method":"eth_supportedEntryPoints","params":[]},{"jsonrpc":"2.0","id":2,"method":"eth_sendUserOperation","params":[{}]},{"jsonrpc":"2.0","id":3,"method":"eth_blockNumber","params":[]}]`)
		rs := MustReplies(t, body)
		wantResult(t, rs[0], `["0x0000000071727de22e5e9d8baf0edac6f37da032"]`)
		wantCode(t, rs[1], -32500)
		wantResult(t, rs[2], `"eth_blockNumber"`)
		wantHits(t, node, 1) // only eth_blockNumber went upstream
		if len(local.calls) != 2 || local.calls[1].Network != testChain || string(local.calls[1].Params) != `[{}]` {
			t.Fatalf("local calls = %+v", local.calls)
		}
	})
	t.Run("InvalidEntryStaysInvalid", func(t *testing.T) {
		n := len(local.calls)
		_, body := h.Post(t, `{"jsonrpc":"1.0","id":1,"method":"eth_sendUserOperation","params":[]}`)
		wantCode(t, MustReply(t, body), jsonrpc.CodeInvalidRequest)
		if len(local.calls) != n {
			t.Fatal("an invalid request reached Local")
		}
	})
	t.Run("WithoutLocalRefused", func(t *testing.T) {
		h := MustProxy(t, nil, node)
		_, body := h.Post(t, `{"jsonrpc":"2.0","id":1,"method":"eth_sendUserOperation","params":[]}`)
		wantCode(t, MustReply(t, body), jsonrpc.CodeMethodNotFound)
	})
}
