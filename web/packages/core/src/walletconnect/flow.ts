// The WalletConnect pairing flow behind the ConnectingWalletConnect views:
// start a connection attempt, show the pairing URI it produces, renew the
// pairing before it lapses and start again after a decline (spec §9:
// "Pairing: expires when under 10 s remain; new pairing lasts 4 min; retry
// after 1 s"). The attempt itself (wagmi's connect with the WalletConnect
// connector) and the URI feed are injected, so the rules run without a relay.
import { createStore, type SliceFactory, type Store } from '../store'
import { globalTimers, type TimerHandle, type Timers } from '../timers'
import { isPairingExpired, isRetryAllowed, pairingExpiry, renewDelay } from './pairing.js'

/** Why an attempt failed, as the views show it. */
export interface WalletConnectFailure {
  readonly kind: 'user_rejected' | 'unknown'
  readonly message: string
}

/** State of the flow. */
export interface WalletConnectFlowState {
  /** The pairing URI (`wc:…`) on offer; undefined while none is (being created, or idle). */
  readonly uri: string | undefined
  /** When the pairing on offer stops being offered (ms since the epoch). */
  readonly expiresAt: number | undefined
  /** An attempt is in flight: creating a pairing or waiting for the wallet. */
  readonly pending: boolean
  /** The last attempt's failure, until the flow is stopped or an attempt succeeds. */
  readonly error: WalletConnectFailure | null
}

/** What the flow drives. */
export interface WalletConnectFlowHooks {
  /**
   * Runs one connection attempt; resolves once the wallet approved the
   * session, rejects when it declined or the attempt failed. The pairing URI
   * arrives through {@link subscribeUri} meanwhile.
   */
  connect(): Promise<void>
  /** Abandons the attempt in flight: its connect() must reject soon after. */
  cancel(): void
  /** Calls `listener` with every pairing URI the connector displays; returns the unsubscribe function. */
  subscribeUri(listener: (uri: string) => void): () => void
  /** Maps an attempt's rejection to what the views show. */
  toFailure(error: unknown): WalletConnectFailure
  /** Called once an attempt succeeded (the wallet is connected). */
  onSuccess(): void
  /** Called when the current attempt failed, before any automatic retry. */
  onFailure?(failure: WalletConnectFailure): void
  /** Clock; default Date.now. */
  now?(): number
  timers?: Timers
  /** Where the state lives: a slice of the instance's root store (default: a store of its own). */
  readonly slice?: SliceFactory<WalletConnectFlowState>
}

/** The pairing flow. */
export interface WalletConnectFlow {
  readonly store: Store<WalletConnectFlowState>
  /**
   * Makes sure a pairing is on offer: keeps the attempt in flight while its
   * pairing has 10 s or more left (or is still being created), else starts a
   * new attempt. Called by the views when they show.
   */
  ensurePairing(): void
  /** Starts a new attempt now, abandoning the one in flight (the Try again button). */
  retry(): void
  /** Abandons the attempt in flight and clears the state (the visitor left the views). */
  stop(): void
  /** Stops and drops the URI subscription. */
  destroy(): void
}

const idle: WalletConnectFlowState = { uri: undefined, expiresAt: undefined, pending: false, error: null }

/** createWalletConnectFlow makes an idle flow. */
export function createWalletConnectFlow(hooks: WalletConnectFlowHooks): WalletConnectFlow {
  const timers = hooks.timers ?? globalTimers
  const now = hooks.now ?? (() => Date.now())
  const store = (hooks.slice ?? createStore)(idle)
  /** Id of the current attempt; results of older ones are ignored. */
  let attempt = 0
  let lastAttemptAt = Number.NEGATIVE_INFINITY
  /** Settles when the attempt in flight has (the new one waits, so wagmi's states do not interleave). */
  let inFlight: Promise<void> = Promise.resolve()
  let renewTimer: TimerHandle | undefined

  const clearRenew = (): void => {
    if (renewTimer !== undefined) timers.clearTimeout(renewTimer)
    renewTimer = undefined
  }

  const scheduleRenew = (id: number, expiresAt: number): void => {
    clearRenew()
    renewTimer = timers.setTimeout(() => {
      renewTimer = undefined
      if (id === attempt && store.getState().pending) start(false)
    }, renewDelay(expiresAt, now()))
  }

  const unsubscribeUri = hooks.subscribeUri((uri) => {
    // A URI outside an attempt of ours (the app connecting on its own) is not ours to show.
    if (!store.getState().pending) return
    const expiresAt = pairingExpiry(now())
    store.setState({ uri, expiresAt })
    scheduleRenew(attempt, expiresAt)
  })

  const abandon = (): void => {
    attempt++
    clearRenew()
    if (store.getState().pending) hooks.cancel()
  }

  function start(keepError: boolean): void {
    abandon()
    const id = attempt
    lastAttemptAt = now()
    store.setState((s) => ({ uri: undefined, expiresAt: undefined, pending: true, error: keepError ? s.error : null }))
    const previous = inFlight
    inFlight = previous
      .then(() => (id === attempt ? hooks.connect() : undefined))
      .then(
        () => {
          if (id !== attempt) return
          clearRenew()
          store.setState(idle)
          hooks.onSuccess()
        },
        (error: unknown) => {
          if (id !== attempt) return
          clearRenew()
          const failure = hooks.toFailure(error)
          store.setState({ uri: undefined, expiresAt: undefined, pending: false, error: failure })
          hooks.onFailure?.(failure)
          // Spec §9 "retry after 1 s": a wallet that declined gets a fresh
          // pairing to scan again, at most once a second so a wallet that
          // declines at once cannot spin the flow. Other failures (relay down)
          // wait for the Try again button instead of hammering the relay.
          if (failure.kind === 'user_rejected' && isRetryAllowed(lastAttemptAt, now())) start(true)
        },
      )
      .catch((error: unknown) => {
        // A hook threw (a bug in a listener): report it, and keep the chain usable for the next attempt.
        console.error('[latch] WalletConnect pairing flow:', error)
      })
  }

  return {
    store,
    ensurePairing() {
      const s = store.getState()
      if (s.pending && (s.uri === undefined || !isPairingExpired(s.expiresAt, now()))) return
      start(false)
    },
    retry: () => start(false),
    stop() {
      abandon()
      store.setState(idle)
    },
    destroy() {
      abandon()
      store.setState(idle)
      unsubscribeUri()
    },
  }
}
