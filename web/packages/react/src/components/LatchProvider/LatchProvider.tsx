import { useContext, useEffect, useRef, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query'
import { WagmiProvider, type State as WagmiState } from 'wagmi'
import type { Latch } from '@latchkit/core'
import { LatchContext } from '../../context'
import { useIsMounted } from '../../hooks/useLatchSelector'
import { LatchModal } from '../LatchModal/LatchModal'

export type LatchProviderProps = {
  /** The instance from `createLatch`. */
  latch: Latch
  /**
   * TanStack Query client for wagmi's and Latch's queries. When omitted: with `wagmi={false}` the one of the
   * app's QueryClientProvider above; else one this provider creates and keeps while mounted. A client is never
   * shared between providers, so two server-rendered requests never share cached account data.
   */
  queryClient?: QueryClient
  /**
   * Set to false when the app already renders its own WagmiProvider and QueryClientProvider (with the
   * latch's wagmi config) above this provider; ours are then skipped.
   */
  wagmi?: boolean
  /**
   * wagmi's state for the first render, read on the server from the request's cookies with wagmi's
   * `cookieToInitialState` (the wagmi config from core's `createSsrWagmiConfig`); passed to our WagmiProvider.
   * With `wagmi={false}` it is refused (an error): give it to your own WagmiProvider.
   */
  initialState?: WagmiState | undefined
  children?: ReactNode
}

/** Renders the modal into document.body, on the client only (the server and hydration render nothing). */
function ModalPortal() {
  const mounted = useIsMounted()
  return mounted ? createPortal(<LatchModal />, document.body) : null
}

/** Provides a Latch instance to hooks and components, wraps wagmi and TanStack Query, and mounts the modal. */
export function LatchProvider({ latch, queryClient, wagmi = true, initialState, children }: LatchProviderProps) {
  if (!wagmi && initialState !== undefined) {
    throw new Error('<LatchProvider initialState> is for its own WagmiProvider; with wagmi={false}, pass initialState to yours')
  }
  const outer = useContext(QueryClientContext)
  // Made on first need, then kept for this provider's lifetime (per request on a server).
  const own = useRef<QueryClient | null>(null)
  const client = queryClient ?? (wagmi ? undefined : outer) ?? (own.current ??= new QueryClient())

  // init() runs start-up work (remote config, reconnect); after mount so server rendering stays pure.
  const initialized = useRef<Latch | null>(null)
  useEffect(() => {
    if (initialized.current === latch) return
    initialized.current = latch
    latch.init().catch(() => {
      // core reports start-up failures as alerts in its state
    })
  }, [latch])

  const inner = (
    <LatchContext.Provider value={latch}>
      {children}
      <ModalPortal />
    </LatchContext.Provider>
  )
  const content = client === outer ? inner : <QueryClientProvider client={client}>{inner}</QueryClientProvider>
  if (!wagmi) return content
  return (
    // Reconnecting is part of latch.init() (spec §4), so wagmi must not do it a second time.
    <WagmiProvider config={latch.getWagmiConfig()} reconnectOnMount={false} initialState={initialState}>
      {content}
    </WagmiProvider>
  )
}
