import { activeClient } from '../../adapters/active'
import type { Latch } from '../../latch-types'
import { formatBalance } from '../../connection/format'

/**
 * loadNativeBalance reads the connected account's native balance into the
 * account state. An unconfigured chain has no transport: its balance is
 * unknown, not an error. A failed read shows "0.00" ETH and the 'Token
 * Balance Unavailable' toast (spec §8). Only the latest call's answer counts.
 */
export async function loadNativeBalance(latch: Latch): Promise<void> {
  const internal = latch._internal
  const { slice, pending, network, toasts } = internal
  const { account, client } = activeClient(internal)
  const seq = ++pending.balanceSeq
  if (account.status !== 'connected' || !account.address || !account.chainId || !network.find(account.chainId)) {
    slice.setState({ balance: undefined })
    return
  }
  try {
    const b = await client.balance({ address: account.address, chainId: account.chainId })
    if (seq !== pending.balanceSeq) return
    // The display format of every balance (spec §9), whichever namespace's client read it.
    slice.setState({ balance: { formatted: formatBalance(b.formatted), symbol: b.symbol } })
  } catch {
    if (seq !== pending.balanceSeq) return
    // Spec §8's exact text for a failed read.
    slice.setState({ balance: { formatted: '0.00', symbol: 'ETH' } })
    toasts.showError(latch.t('account.balanceUnavailable'))
  }
}
