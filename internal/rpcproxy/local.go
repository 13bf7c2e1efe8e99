package rpcproxy

import (
	"context"
	"encoding/json"

	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/project"
)

// LocalMethods answers some JSON-RPC methods in latchd itself instead of
// the upstreams: the ERC-4337 bundler and paymaster methods
// (internal/bundler). Implementations must be safe for concurrent use.
type LocalMethods interface {
	// Handles reports whether method is answered locally on network (CAIP-2).
	Handles(network, method string) bool
	// Serve answers one call: a JSON result, or an error object for the client.
	Serve(ctx context.Context, call LocalCall) (json.RawMessage, *jsonrpc.Error)
}

// LocalCall is one call to a LocalMethods.
type LocalCall struct {
	Network   string // CAIP-2
	ProjectID string // the project the request was admitted for; "" when none
	Method    string
	Params    json.RawMessage
}

// serveLocal answers, in order, the entries whose method Local handles on
// network, whether or not the namespace's allowlist lists it; invalid
// entries keep their -32600 answer.
func (p *Proxy) serveLocal(ctx context.Context, network string, entries []*entry) {
	projectID := ""
	if pr := project.FromContext(ctx); pr != nil {
		projectID = pr.ID
	}
	for _, e := range entries {
		if (e.done && !e.refused) || !p.cfg.Local.Handles(network, e.method) {
			continue
		}
		res, err := p.cfg.Local.Serve(ctx, LocalCall{Network: network, ProjectID: projectID, Method: e.method, Params: e.params})
		e.done, e.refused = true, false
		if err != nil {
			e.res = entryResult{Error: jsonrpc.AppendErrorObject(nil, err)}
			continue
		}
		e.res = entryResult{Result: res}
	}
}
