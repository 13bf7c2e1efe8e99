import { useEffect, useState } from 'react'
import type { ConnectionStatus } from '@latchkit/core'
import { useLatchInstance } from '../context'
import { useLatchAccount } from './useLatchAccount'

export type UseLatchProviderReturnType<TProvider = unknown> = {
  /** The connected wallet's EIP-1193 provider; undefined until loaded or when disconnected. */
  walletProvider: TProvider | undefined
  address: string | undefined
  status: ConnectionStatus
}

/** The raw provider of the connected wallet, loaded asynchronously whenever the account changes. */
export function useLatchProvider<TProvider = unknown>(): UseLatchProviderReturnType<TProvider> {
  const latch = useLatchInstance()
  const { address, status } = useLatchAccount()
  const [walletProvider, setWalletProvider] = useState<TProvider | undefined>(undefined)
  useEffect(() => {
    if (status !== 'connected') {
      setWalletProvider(undefined)
      return
    }
    let current = true
    latch.getProvider().then(
      (provider) => current && setWalletProvider(provider as TProvider | undefined),
      () => current && setWalletProvider(undefined),
    )
    return () => {
      current = false
    }
  }, [latch, address, status])
  return { walletProvider, address, status }
}
