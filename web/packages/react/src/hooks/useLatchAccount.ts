import { useCallback, useRef, useSyncExternalStore } from 'react'
import { accountNamespace, networkCaipId, type ConnectionStatus, type LatchAccountState } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchSelector } from './useLatchSelector'

export type UseLatchAccountReturnType = {
  address: string | undefined
  caipAddress: string | undefined
  isConnected: boolean
  status: ConnectionStatus
  /** Native balance, already truncated to 3 decimals by core (spec §9); read for the active namespace's account only. */
  balance: LatchAccountState['balance']
}

export type UseLatchAccountParameters = {
  /** The CAIP-2 namespace whose account to read (`eip155`, `solana`); default: the active one. */
  namespace?: string
}

type Account = Omit<UseLatchAccountReturnType, 'balance'>
const disconnected: Account = { address: undefined, caipAddress: undefined, isConnected: false, status: 'disconnected' }

/** The connected account: the active namespace's, or `namespace`'s (AppKit's `useAppKitAccount({ namespace })`). */
export function useLatchAccount({ namespace }: UseLatchAccountParameters = {}): UseLatchAccountReturnType {
  const latch = useLatchInstance()
  const active = useLatchSelector(({ account, activeNetwork }) => ({
    // The account's own namespace, else the active network's (nothing connected).
    namespace: account.caipAddress ? accountNamespace(account.caipAddress) : networkCaipId(activeNetwork).split(':')[0],
    address: account.address,
    caipAddress: account.caipAddress,
    isConnected: account.status === 'connected' && Boolean(account.address),
    status: account.status,
    balance: account.balance,
  }))
  const other = namespace !== undefined && namespace !== active.namespace ? namespace : undefined
  const cache = useRef<{ source: unknown; namespace: string; value: Account } | undefined>(undefined)
  // Another namespace's account is read from its namespace client, again on every connection change.
  const subscribe = useCallback((onChange: () => void) => (other ? latch._internal.connection.subscribe(() => onChange()) : () => {}), [latch, other])
  const read = (): Account | undefined => {
    if (!other) return undefined
    const client = latch._internal.clients.get(other)
    if (!client) return disconnected
    const source = latch._internal.connection.getState()
    if (cache.current?.source === source && cache.current.namespace === other) return cache.current.value
    const a = client.account(source)
    const value = { address: a.address, caipAddress: a.caipAddress, isConnected: a.status === 'connected' && Boolean(a.address), status: a.status }
    cache.current = { source, namespace: other, value }
    return value
  }
  const otherAccount = useSyncExternalStore(subscribe, read, read)
  if (otherAccount) return { ...otherAccount, balance: undefined }
  const { namespace: _, ...account } = active
  return account
}
