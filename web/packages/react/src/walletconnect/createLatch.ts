// createLatch with WalletConnect: @latchkit/core's createLatch, given the
// connector whose SDK core does not depend on. Nothing of the SDK loads here;
// the connector pulls it in (its own chunk) when WalletConnect is used.
import { createLatch as createCoreLatch, type Latch, type LatchOptions } from '@latchkit/core'
import { walletConnect } from './connector'

/**
 * createLatch validates options and returns a Latch whose wagmi config holds
 * the WalletConnect connector (relay and RPC through the configured latchd)
 * unless `walletConnect: false`, the app brings its own `wagmiConfig`, or no
 * `projectId` is set. Throws LatchOptionsError on invalid options.
 */
export function createLatch(options: LatchOptions): Latch {
  return createCoreLatch(options, { walletConnect })
}
