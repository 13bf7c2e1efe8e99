package devnet

import (
	"github.com/ethereum/go-ethereum/core"
)

// maxSealsPerWake bounds back-to-back empty seals while the pool still holds
// executable transactions the miner will not include yet (say, a fee cap
// below the base fee, which falls 12.5% per empty block). The next incoming
// transaction wakes the loop again.
const maxSealsPerWake = 256

// sealLoop seals a block whenever transactions arrive, like `geth --dev` with
// period 0. We run it ourselves instead of catalyst.RegisterSimulatedBeaconAPIs
// because that loop cannot be waited for: closing the node while it is
// mid-seal makes go-ethereum log failed block imports on every shutdown.
func (c *chain) sealLoop() {
	defer close(c.sealDone)

	// The pool announces new transactions from inside its reorg loop and
	// blocks until every subscriber has taken the event, while Sync below waits
	// for that same loop. So announcements are taken by a goroutine of their
	// own that never waits on the pool, and turned into a wake-up flag: a
	// burst of any size is one pending wake-up, never a full channel.
	newTxs := make(chan core.NewTxsEvent, 64)
	sub := c.backend.TxPool().SubscribeTransactions(newTxs, true)
	defer sub.Unsubscribe()
	wake := make(chan struct{}, 1)
	subErr := make(chan struct{})
	go func() {
		defer close(subErr)
		for {
			select {
			case <-c.quit:
				return
			case <-sub.Err():
				return
			case <-newTxs:
				select {
				case wake <- struct{}{}:
				default:
				}
			}
		}
	}()

	for {
		select {
		case <-c.quit:
			return
		case <-subErr:
			return
		case <-wake:
		}
		for range maxSealsPerWake {
			// A wake-up may find nothing to seal: Rollback clears the
			// transactions the rewound blocks held after the pool announced them.
			if !c.sealPending() {
				break
			}
			// Wait for the pool to drop the sealed transactions before asking
			// whether any are left, or we would seal an empty block.
			if err := c.syncPool(); err != nil {
				return
			}
			select {
			case <-c.quit:
				return
			default:
			}
		}
	}
}

// stopSealing stops sealLoop and waits for a seal in progress to finish.
func (c *chain) stopSealing() {
	c.quitOnce.Do(func() { close(c.quit) })
	<-c.sealDone
}

// sealPending seals a block if the pool holds executable transactions and
// reports whether it did. The check and the seal happen under sealMu, so a
// Rollback in between cannot leave us sealing an empty block.
func (c *chain) sealPending() bool {
	c.sealMu.Lock()
	defer c.sealMu.Unlock()
	if executable, _ := c.backend.TxPool().Stats(); executable == 0 {
		return false
	}
	c.beacon.Commit()
	return true
}

// syncPool waits for the pool to finish resetting to the current head. The
// pool keeps one Sync waiter: a second Sync while one waits replaces it, and
// the first never returns (go-ethereum 1.17 txpool.loop). The seal loop, the
// faucet, Rollback and the simulated beacon's own Commit and Fork all sync,
// so every Sync happens under sealMu; Rollback, which holds it already,
// calls the pool directly.
func (c *chain) syncPool() error {
	c.sealMu.Lock()
	defer c.sealMu.Unlock()
	return c.backend.TxPool().Sync()
}
