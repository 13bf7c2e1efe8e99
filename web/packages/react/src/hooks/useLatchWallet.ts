import { useCallback, useContext, useMemo, useRef, useState } from 'react'
import { connectWalletById, type Latch, type LatchWallet } from '@latchkit/core'
import { LatchContext } from '../context'

/** What useLatchWallet calls back. */
export type UseLatchWalletParameters = {
  /** Called with the wallet once it connected. */
  onSuccess?: (wallet: LatchWallet) => void
  /** Called when connecting failed (an unknown wallet id, a decline, the modal closed first). */
  onError?: (error: Error) => void
  /** The instance, for a caller outside <LatchProvider> (AppKit's provider-less hooks); default: the provider's. */
  latch?: Latch
}

export type UseLatchWalletReturnType = {
  /**
   * Connects one named wallet: `walletConnect`, a registry id, or a name as AppKit's wallet buttons take it
   * (`metamask`, `trust`, `coinbase`). Installed (EIP-6963, matched by rdns): directly. Otherwise through
   * WalletConnect with the modal open on that wallet (its deep link on a phone, its QR code on a computer).
   * Never rejects: the outcome is in the fields below and the callbacks.
   */
  connect(walletId: string): Promise<void>
  isPending: boolean
  isSuccess: boolean
  isError: boolean
  /** Why the last connect failed: LatchUnknownWalletError for an id nothing resolves, else a LatchConnectError. */
  error: Error | undefined
  /** The wallet the last connect connected. */
  data: LatchWallet | undefined
}

type Status = { state: 'idle' | 'pending' | 'success' | 'error'; data?: LatchWallet; error?: Error }

/** Connects one named wallet (AppKit's useAppKitWallet); `<WalletButton>` is a button over it. */
export function useLatchWallet(parameters: UseLatchWalletParameters = {}): UseLatchWalletReturnType {
  const provided = useContext(LatchContext)
  const latch = parameters.latch ?? provided
  if (!latch) throw new Error('Latch hooks and components must be used inside <LatchProvider>')
  const [status, setStatus] = useState<Status>({ state: 'idle' })
  // The latest callbacks, without making connect change identity on every render.
  const callbacks = useRef(parameters)
  callbacks.current = parameters
  const attempt = useRef(0)

  const connect = useCallback(
    async (walletId: string) => {
      const id = ++attempt.current
      setStatus({ state: 'pending' })
      try {
        const wallet = await connectWalletById(latch, walletId)
        if (id !== attempt.current) return
        setStatus({ state: 'success', data: wallet })
        callbacks.current.onSuccess?.(wallet)
      } catch (caught) {
        if (id !== attempt.current) return
        const error = caught instanceof Error ? caught : new Error(String(caught))
        setStatus({ state: 'error', error })
        callbacks.current.onError?.(error)
      }
    },
    [latch],
  )

  return useMemo(
    () => ({
      connect,
      isPending: status.state === 'pending',
      isSuccess: status.state === 'success',
      isError: status.state === 'error',
      error: status.error,
      data: status.data,
    }),
    [connect, status],
  )
}
