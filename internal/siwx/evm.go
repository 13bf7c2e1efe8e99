package siwx

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/pkg/siwx"
)

// EVMCaller is pkg/siwx's EthCaller over latchd's EVM client (the
// network's upstreams, with failover).
type EVMCaller struct {
	Client *evm.Client
}

var _ siwx.EthCaller = EVMCaller{}

// EthCall implements siwx.EthCaller.
func (c EVMCaller) EthCall(ctx context.Context, to *common.Address, data []byte) ([]byte, error) {
	arg := map[string]any{"data": hexutil.Bytes(data)}
	if to != nil {
		arg["to"] = *to
	}
	var out hexutil.Bytes
	err := c.Client.Call(ctx, &out, "eth_call", arg, "latest")
	return out, err
}
