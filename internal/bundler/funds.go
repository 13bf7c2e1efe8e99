package bundler

import (
	"context"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/jsonrpc"
)

// fundsTTL is how long the bundler key's balance is trusted before it is
// read again: a bundle costs the key its gas and pays it back the
// operations' fees, so the balance moves slowly.
const fundsTTL = 10 * time.Second

// funds is the bundler key's last known balance on a network and the floor
// below which the bundler refuses new operations there (their bundles
// could not be paid for).
type funds struct {
	mu      sync.Mutex
	at      time.Time // zero: never read
	balance *big.Int
	floor   *big.Int
	low     bool
}

// checkFunds refuses a new operation while the bundler key's balance is
// below its floor.
func (n *netState) checkFunds(ctx context.Context) *jsonrpc.Error {
	balance, floor, err := n.keyFunds(ctx)
	if err != nil {
		n.svc.cfg.Logger.WarnContext(ctx, "bundler: read the bundler key's balance", "network", n.Network, "err", err)
		return rpcError(jsonrpc.CodeInternal, "The network's node did not answer")
	}
	if balance.Cmp(floor) < 0 {
		return rpcError(jsonrpc.CodeUnavailable, "the bundler on %s takes no new operations for now: its key holds %s wei, less than the %s wei it keeps to pay for bundles", n.Network, balance, floor)
	}
	return nil
}

// keyFunds returns the bundler key's balance and floor, read at most every
// fundsTTL. It logs when the balance goes below the floor and back.
func (n *netState) keyFunds(ctx context.Context) (balance, floor *big.Int, err error) {
	now := n.svc.cfg.Now()
	f := &n.funds
	f.mu.Lock()
	if !f.at.IsZero() && now.Sub(f.at) < fundsTTL && now.Sub(f.at) >= 0 {
		defer f.mu.Unlock()
		return f.balance, f.floor, nil
	}
	f.mu.Unlock()
	var bal hexutil.Big
	if err := n.Node.Call(ctx, &bal, "eth_getBalance", n.bundler, "latest"); err != nil {
		return nil, nil, err
	}
	floor = n.MinBalance
	if floor == nil {
		baseFee, err := n.baseFee(ctx)
		if err != nil {
			return nil, nil, err
		}
		perGas := new(big.Int).Add(new(big.Int).Mul(baseFee, big.NewInt(2)), n.svc.cfg.MinPriorityFee)
		floor = perGas.Mul(perGas, new(big.Int).SetUint64(n.svc.cfg.MaxBundleGas))
	}
	balance = bal.ToInt()
	low := balance.Cmp(floor) < 0
	f.mu.Lock()
	was := f.low
	f.at, f.balance, f.floor, f.low = now, balance, floor, low
	f.mu.Unlock()
	switch {
	case low && !was:
		n.svc.cfg.Logger.WarnContext(ctx, "bundler: the bundler key's balance is below its floor; new operations are refused", "network", n.Network, "key", n.bundler, "balance", balance, "floor", floor)
	case !low && was:
		n.svc.cfg.Logger.InfoContext(ctx, "bundler: the bundler key's balance is back above its floor", "network", n.Network, "balance", balance, "floor", floor)
	}
	return balance, floor, nil
}

// lowFunds is the latch_bundler_key_balance_low gauge: networks whose key
// was below its floor when last read.
func (s *Service) lowFunds() float64 {
	low := 0
	for _, n := range s.nets {
		n.funds.mu.Lock()
		if n.funds.low {
			low++
		}
		n.funds.mu.Unlock()
	}
	return float64(low)
}
