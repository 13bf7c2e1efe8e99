import { useEffect, useRef, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { WagmiProvider } from 'wagmi'
import { getQueryClient, type Latch } from '@latchkit/core'
import { LatchContext } from '../../context'
import { useIsMounted } from '../../hooks/useLatchSelector'
import { LatchModal } from '../LatchModal/LatchModal'

export type LatchProviderProps = {
  /** The instance from `createLatch`. */
  latch: Latch
  /** TanStack Query client; the Latch instance's own (core's getQueryClient) when omitted. */
  queryClient?: QueryClient
  /**
   * Set to false when the app already renders its own WagmiProvider and QueryClientProvider (with the
   * latch's wagmi config) above this provider; ours are then skipped.
   */
  wagmi?: boolean
  children?: ReactNode
}

/** Renders the modal into document.body, on the client only (the server and hydration render nothing). */
function ModalPortal() {
  const mounted = useIsMounted()
  return mounted ? createPortal(<LatchModal />, document.body) : null
}

/** Provides a Latch instance to hooks and components, wraps wagmi and TanStack Query, and mounts the modal. */
export function LatchProvider({ latch, queryClient, wagmi = true, children }: LatchProviderProps) {
  // init() runs start-up work (remote config, reconnect); after mount so server rendering stays pure.
  const initialized = useRef<Latch | null>(null)
  useEffect(() => {
    if (initialized.current === latch) return
    initialized.current = latch
    latch.init().catch(() => {
      // core reports start-up failures as alerts in its state
    })
  }, [latch])

  const content = (
    <LatchContext.Provider value={latch}>
      {children}
      <ModalPortal />
    </LatchContext.Provider>
  )
  if (!wagmi) return content
  return (
    // Reconnecting is part of latch.init() (spec §4), so wagmi must not do it a second time.
    <WagmiProvider config={latch.getWagmiConfig()} reconnectOnMount={false}>
      <QueryClientProvider client={queryClient ?? getQueryClient(latch)}>{content}</QueryClientProvider>
    </WagmiProvider>
  )
}
