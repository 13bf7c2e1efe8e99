import type { LatchAccountState } from '@latchkit/core'
import { useLatchSelector } from './useLatchSelector'

export type UseWalletInfoReturnType = { walletInfo: LatchAccountState['walletInfo'] }

/** Name and icon of the connected wallet. */
export function useWalletInfo(): UseWalletInfoReturnType {
  return useLatchSelector((state) => ({ walletInfo: state.account.walletInfo }))
}
