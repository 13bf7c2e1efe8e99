import { networkCaipId } from '../../adapters/registry'
import type { Latch } from '../../latch-types'
import { RECOMMENDED_WALLETS } from '../../wallets'

/** loadConnectWallets loads the Connect view's registry wallets (featured, and a few recommended) once; a failure may be retried. */
export function loadConnectWallets(latch: Latch): Promise<void> {
  const { pending, api, opts, networks, slice } = latch._internal
  pending.connectWallets ??= (async () => {
    const chains = networks.map(networkCaipId)
    const [featured, recommended] = await Promise.all([
      opts.featuredWalletIds.length
        ? api.getWallets({ page: 1, entries: opts.featuredWalletIds.length, include: opts.featuredWalletIds })
        : Promise.resolve({ count: 0, data: [] }),
      // includeWalletIds is an allow-list: the recommended rows come from it too, or they would mostly be filtered away.
      api.getWallets({
        page: 1,
        entries: RECOMMENDED_WALLETS,
        chains,
        ...(opts.includeWalletIds.length ? { include: opts.includeWalletIds } : {}),
        exclude: [...opts.excludeWalletIds, ...opts.featuredWalletIds],
      }),
    ])
    slice.setState({ registry: [...featured.data, ...recommended.data] })
  })().catch((error: unknown) => {
    pending.connectWallets = undefined
    throw error
  })
  return pending.connectWallets
}
