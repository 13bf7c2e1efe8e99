package devnet

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/core"

	"github.com/latchkit/latch/internal/apperr"
)

// Rollback rewinds a dev chain so that block number is its head, like a
// reorg on a public network: the blocks above it leave the canonical chain,
// and the transactions they held are dropped rather than sealed again, so the
// blocks sealed next at those heights are different ones. Tests use it to
// exercise the indexer's reorg handling.
//
// Errors: apperr.NotFound for an unknown network, apperr.Invalid when number
// is not below the head, apperr.Conflict while transactions are pending (wait
// for them to be sealed and retry). The chain keeps the state of recent blocks
// only (go-ethereum's in-memory window), so rewinding far back may fail.
func (d *Devnet) Rollback(ctx context.Context, networkID string, number uint64) error {
	c, err := d.chainFor(networkID)
	if err != nil {
		return err
	}
	// No deployer transaction and no seal may run while the head moves.
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sealMu.Lock()
	defer c.sealMu.Unlock()

	bc := c.backend.BlockChain()
	head := bc.CurrentBlock().Number.Uint64()
	if number >= head {
		return apperr.Fieldf(apperr.Invalid, "number", "Block %d is not below the head %d", number, head)
	}
	target := bc.GetBlockByNumber(number)
	if target == nil {
		return apperr.Fieldf(apperr.NotFound, "number", "No block %d", number)
	}
	if err := c.beacon.Fork(target.Hash()); err != nil {
		if err.Error() == "pending block dirty" {
			return apperr.Errorf(apperr.Conflict, "Transactions are pending on %s; retry once they are sealed", networkID)
		}
		return fmt.Errorf("devnet: rollback %s to %d: %w", networkID, number, err)
	}
	// The pool re-injects the rewound blocks' transactions on its reset; wait
	// for that, then drop them all.
	if err := c.backend.TxPool().Sync(); err != nil {
		return err
	}
	c.beacon.Rollback()
	if err := c.backend.TxPool().Sync(); err != nil {
		return err
	}
	// The deployer's rewound transactions are gone with them.
	n, err := c.client.PendingNonceAt(ctx, deployer.Address)
	if err != nil {
		return err
	}
	c.nonce = n
	return nil
}

// WatchHeads sends on wake (without blocking, so a full channel merges
// wake-ups) whenever the chain gets a new head, until stop is called. The
// indexer uses it to pick up a dev block within milliseconds without polling.
func (d *Devnet) WatchHeads(networkID string, wake chan<- struct{}) (stop func(), err error) {
	c, err := d.chainFor(networkID)
	if err != nil {
		return nil, err
	}
	heads := make(chan core.ChainHeadEvent, 16)
	sub := c.backend.BlockChain().SubscribeChainHeadEvent(heads)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-heads:
				select {
				case wake <- struct{}{}:
				default:
				}
			case <-sub.Err():
				return
			case <-c.quit:
				return
			}
		}
	}()
	return func() {
		sub.Unsubscribe()
		<-done
	}, nil
}
