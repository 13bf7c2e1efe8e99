import type { ConnectionStatus, LatchAccountState } from '@latchkit/core'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchAccountReturnType = {
  address: string | undefined
  caipAddress: string | undefined
  isConnected: boolean
  status: ConnectionStatus
  /** Native balance, already truncated to 3 decimals by core (spec §9). */
  balance: LatchAccountState['balance']
}

/** The connected account. */
export function useLatchAccount(): UseLatchAccountReturnType {
  return useLatchSelector(({ account }) => ({
    address: account.address,
    caipAddress: account.caipAddress,
    isConnected: account.status === 'connected' && Boolean(account.address),
    status: account.status,
    balance: account.balance,
  }))
}
