package bundler

import (
	"context"
	"errors"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Timing of the settlement watcher.
const (
	// settleInterval: how often the watcher reads new blocks' events.
	settleInterval = time.Second
	// maxLogBlocks bounds one eth_getLogs (public nodes refuse wide ranges).
	maxLogBlocks = 1_000
	// priceInterval: how often the native coin's price is recorded for the report.
	priceInterval = time.Minute
	// pruneInterval and pruneAge: approvals that expired a day ago are deleted.
	pruneInterval = time.Hour
	pruneAge      = 24 * time.Hour
)

// sponsoredEvent reads a UserOperationEvent log of the network's
// EntryPoint paid by its paymaster; ok is false for any other log.
func (n *netState) sponsoredEvent(lg rpcLog, tx common.Hash) (Settlement, bool) {
	if lg.Address != n.EntryPoint || len(lg.Topics) < 4 || lg.Topics[0] != userOpEventID || common.BytesToAddress(lg.Topics[3].Bytes()) != n.Paymaster {
		return Settlement{}, false
	}
	vals, err := entryPointABI.Events["UserOperationEvent"].Inputs.NonIndexed().Unpack(lg.Data)
	if err != nil || len(vals) != 4 {
		return Settlement{}, false
	}
	nonce, ok1 := vals[0].(*big.Int)
	cost, ok2 := vals[2].(*big.Int)
	if !ok1 || !ok2 {
		return Settlement{}, false
	}
	return Settlement{UserOpHash: lg.Topics[1], Sender: common.BytesToAddress(lg.Topics[2].Bytes()), Nonce: nonce, ActualGasCost: cost, TxHash: tx}, true
}

// watchSponsored settles every operation the paymaster paid for, whoever
// bundled it (handleOps is open to anyone: an approval's holder may
// submit it itself), from the EntryPoint's UserOperationEvent logs with
// the paymaster as topic, block by block from a cursor kept in the
// database, on the node that bundles the network. It also records the
// native coin's price for the report and prunes expired approvals.
func (n *netState) watchSponsored(ctx context.Context) {
	t := time.NewTicker(settleInterval)
	defer t.Stop()
	var priced, pruned time.Time
	log := n.svc.cfg.Logger.With("network", n.Network)
	for {
		if n.leader.lead(ctx) {
			if err := n.settleLogs(ctx); err != nil && ctx.Err() == nil {
				log.WarnContext(ctx, "bundler: settle sponsored operations", "err", err)
			}
			now := n.svc.cfg.Now()
			if usd := n.svc.cfg.Sponsorship.NativeUSD; usd != nil && now.Sub(priced) >= priceInterval {
				if price, ok := usd(ctx, n.ChainID); ok {
					if err := n.svc.cfg.Store.SetPrice(ctx, n.Network, price, now); err == nil {
						priced = now
					}
				}
			}
			if now.Sub(pruned) >= pruneInterval {
				if err := n.svc.cfg.Store.PruneApprovals(ctx, now.Add(-pruneAge)); err == nil {
					pruned = now
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// settleLogs settles the paymaster's operations in the blocks after the
// cursor, up to maxLogBlocks of them. The first run starts at the head:
// latchd's approvals before it existed are not its to account.
func (n *netState) settleLogs(ctx context.Context) error {
	st := n.svc.cfg.Store
	var head hexutil.Uint64
	if err := n.Node.Call(ctx, &head, "eth_blockNumber"); err != nil {
		return err
	}
	cursor, ok, err := st.Cursor(ctx, n.Network)
	if err != nil {
		return err
	}
	if !ok || cursor > uint64(head) {
		// First run, or a dev chain started afresh under the same database.
		return st.SetCursor(ctx, n.Network, uint64(head), n.svc.cfg.Now())
	}
	if cursor == uint64(head) {
		return nil
	}
	from, to := cursor+1, min(uint64(head), cursor+maxLogBlocks)
	var logs []struct {
		rpcLog
		TxHash common.Hash `json:"transactionHash"`
	}
	filter := map[string]any{
		"address":   n.EntryPoint,
		"fromBlock": hexutil.Uint64(from),
		"toBlock":   hexutil.Uint64(to),
		"topics":    []any{userOpEventID, nil, nil, common.BytesToHash(n.Paymaster[:])},
	}
	if err := n.Node.Call(ctx, &logs, "eth_getLogs", filter); err != nil {
		return err
	}
	sts := make([]Settlement, 0, len(logs))
	for _, lg := range logs {
		s, ok := n.sponsoredEvent(lg.rpcLog, lg.TxHash)
		if !ok {
			return errors.New("bundler: eth_getLogs answered a log that is not the paymaster's UserOperationEvent")
		}
		sts = append(sts, s)
	}
	if len(sts) > 0 {
		if _, err := st.Settle(ctx, n.Network, sts, n.svc.cfg.Now()); err != nil {
			return err
		}
	}
	return st.SetCursor(ctx, n.Network, to, n.svc.cfg.Now())
}
