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

	newTxs := make(chan core.NewTxsEvent, 64)
	sub := c.backend.TxPool().SubscribeTransactions(newTxs, true)
	defer sub.Unsubscribe()

	for {
		select {
		case <-c.quit:
			return
		case <-sub.Err():
			return
		case <-newTxs:
		}
		// One seal takes everything pending, so drop wake-ups already queued.
		for drained := false; !drained; {
			select {
			case <-newTxs:
			default:
				drained = true
			}
		}
		for range maxSealsPerWake {
			c.beacon.Commit()
			// Wait for the pool to drop the sealed transactions before asking
			// whether any are left, or we would seal an empty block.
			if err := c.backend.TxPool().Sync(); err != nil {
				return
			}
			if executable, _ := c.backend.TxPool().Stats(); executable == 0 {
				break
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
