package bundler

import (
	"context"
	"encoding/json"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/rpcproxy"
)

var _ rpcproxy.LocalMethods = (*Service)(nil)

// Methods are the JSON-RPC methods the bundler answers on its networks.
// ERC-7769's eth_chainId is not among them: the node answers it the same,
// through the proxy and its cache.
var Methods = []string{
	"eth_sendUserOperation", "eth_estimateUserOperationGas", "eth_getUserOperationByHash",
	"eth_getUserOperationReceipt", "eth_supportedEntryPoints",
	"pm_getPaymasterStubData", "pm_getPaymasterData",
}

var methodSet = func() map[string]bool {
	m := map[string]bool{}
	for _, name := range Methods {
		m[name] = true
	}
	return m
}()

// Handles implements rpcproxy.LocalMethods.
func (s *Service) Handles(network, method string) bool {
	return methodSet[method] && s.nets[network] != nil
}

// Serve implements rpcproxy.LocalMethods.
func (s *Service) Serve(ctx context.Context, c rpcproxy.LocalCall) (json.RawMessage, *jsonrpc.Error) {
	n, rerr := s.net(c.Network)
	if rerr != nil {
		return nil, rerr
	}
	var params []json.RawMessage
	if len(c.Params) > 0 && string(c.Params) != "null" {
		if err := json.Unmarshal(c.Params, &params); err != nil {
			return nil, rpcError(jsonrpc.CodeInvalidParams, "params must be an array")
		}
	}
	var result any
	switch c.Method {
	case "eth_supportedEntryPoints":
		result = []common.Address{n.EntryPoint}
	case "eth_sendUserOperation":
		op, ep, rerr := opParams(params, false, 2)
		if rerr != nil {
			return nil, rerr
		}
		hash, rerr := s.SendUserOperation(ctx, c.ProjectID, c.Network, op, ep)
		if rerr != nil {
			return nil, rerr
		}
		result = hash
	case "eth_estimateUserOperationGas":
		if len(params) == 3 && string(params[2]) != "null" && string(params[2]) != "{}" {
			return nil, rpcError(jsonrpc.CodeInvalidParams, "state overrides are not supported by this bundler")
		}
		op, ep, rerr := opParams(params, true, 3)
		if rerr != nil {
			return nil, rerr
		}
		est, rerr := s.EstimateUserOperationGas(ctx, c.Network, op, ep)
		if rerr != nil {
			return nil, rerr
		}
		result = est
	case "eth_getUserOperationByHash", "eth_getUserOperationReceipt":
		var hash common.Hash
		if len(params) != 1 || json.Unmarshal(params[0], &hash) != nil {
			return nil, rpcError(jsonrpc.CodeInvalidParams, "%s takes one parameter, a 32-byte userOpHash", c.Method)
		}
		if c.Method == "eth_getUserOperationByHash" {
			r, rerr := s.UserOperationByHash(ctx, c.Network, hash)
			if rerr != nil {
				return nil, rerr
			}
			result = r
		} else {
			r, rerr := s.UserOperationReceipt(ctx, c.Network, hash)
			if rerr != nil {
				return nil, rerr
			}
			result = r
		}
	case "pm_getPaymasterStubData", "pm_getPaymasterData":
		if len(params) < 3 || len(params) > 4 {
			return nil, rpcError(jsonrpc.CodeInvalidParams, "%s takes [userOperation, entryPoint, chainId, context]", c.Method)
		}
		op, ep, rerr := opParams(params[:2], true, 2)
		if rerr != nil {
			return nil, rerr
		}
		var chainID string
		if json.Unmarshal(params[2], &chainID) != nil {
			return nil, rpcError(jsonrpc.CodeInvalidParams, "chainId must be a hex string")
		}
		var raw json.RawMessage
		if len(params) == 4 {
			raw = params[3]
		}
		sc, err := ParseSponsorContext(raw)
		if err != nil {
			return nil, rpcError(jsonrpc.CodeInvalidParams, "%s", err.Error())
		}
		req := ApprovalRequest{ProjectID: c.ProjectID, Network: c.Network, Op: op, EntryPoint: ep, ChainID: chainID, Context: sc}
		if c.Method == "pm_getPaymasterStubData" {
			r, rerr := s.Stub(ctx, req)
			if rerr != nil {
				return nil, rerr
			}
			result = r
		} else {
			r, rerr := s.Approve(ctx, req)
			if rerr != nil {
				return nil, rerr
			}
			result = r
		}
	default:
		return nil, rpcError(jsonrpc.CodeMethodNotFound, "method %s is not served by the bundler", c.Method)
	}
	out, err := json.Marshal(result)
	if err != nil {
		return nil, errInternal
	}
	return out, nil
}

// opParams reads [userOperation, entryPoint, …] with at most max entries.
func opParams(params []json.RawMessage, partial bool, max int) (*UserOperation, common.Address, *jsonrpc.Error) {
	if len(params) < 2 || len(params) > max {
		return nil, common.Address{}, rpcError(jsonrpc.CodeInvalidParams, "expected [userOperation, entryPoint]")
	}
	op, err := ParseUserOperation(params[0], partial)
	if err != nil {
		return nil, common.Address{}, rpcError(CodeInvalidFields, "%s", err.Error())
	}
	var ep common.Address
	if json.Unmarshal(params[1], &ep) != nil {
		return nil, common.Address{}, rpcError(CodeInvalidFields, "entryPoint must be an address")
	}
	return op, ep, nil
}
