// WalletConnect inside a Latch instance: which picks go through WalletConnect,
// the pairing flow the ConnectingWalletConnect views show, and when it is
// abandoned (the visitor left those views or closed the modal). A headless
// pairing (the app shows the URI itself, the modal never opens) is not tied
// to the views: it runs until it connects, fails or the app stops it. The
// connector is whatever wagmi connector of type 'walletConnect' the config
// holds — the one @latchkit/react's createLatch adds, or the app's own.
import type { Config, Connector } from '@wagmi/core'
import { LatchConnectError, messageOf, toConnectError } from '../connection/errors.js'
import { t, type MessageKey } from '../messages'
import type { ModalController } from '../modal/controller'
import type { RouterController, View } from '../modal/router'
import type { SliceFactory, Store } from '../store'
import type { Timers } from '../timers'
import { WALLET_CONNECT_ID, type ListedWallet } from '../wallets'
import { createWalletConnectFlow, type WalletConnectFailure, type WalletConnectFlowState } from './flow.js'

/** The views that show a pairing. */
export const WALLET_CONNECT_VIEWS: readonly View[] = ['ConnectingWalletConnect', 'ConnectingWalletConnectBasic']

/** Whether `view` shows a WalletConnect pairing. */
export function isWalletConnectView(view: View): boolean {
  return WALLET_CONNECT_VIEWS.includes(view)
}

/** wagmi's type of the WalletConnect connector. */
const connectorType = 'walletConnect'

/** The part of a connector the flow uses beyond wagmi's Connector (see @latchkit/react's walletConnect()). */
interface CancellableConnector {
  cancelPairing?(): void
}

/** What the controller drives. */
export interface WalletConnectControllerOptions {
  readonly config: Config
  readonly router: RouterController
  readonly modal: Pick<ModalController, 'store'>
  /** Connects a wagmi connector by id (the connection controller's connect). */
  connect(connectorId: string): Promise<unknown>
  /** The wallet approved: `wallet` is the one picked, undefined for the generic QR code. */
  onSuccess(wallet: ListedWallet | undefined): void
  /** An attempt failed (shown in the view; for events). */
  onFailure?(failure: WalletConnectFailure): void
  /** Core's catalogue in the active locale (latch.t); default English. */
  readonly t?: (key: MessageKey) => string
  readonly timers?: Timers
  now?(): number
  /** Where the pairing flow's state lives: a slice of the instance's root store (default: a store of its own). */
  readonly slice?: SliceFactory<WalletConnectFlowState>
}

/** WalletConnect in a Latch instance. */
export interface WalletConnectController {
  /** The pairing flow's state. */
  readonly store: Store<WalletConnectFlowState>
  /** Whether the wagmi config has a WalletConnect connector. */
  available(): boolean
  /** The WalletConnect connector's id, when there is one. */
  connectorId(): string | undefined
  /**
   * Whether a pick goes through WalletConnect: the generic WalletConnect
   * entry, or a wallet no connector on the page drives (a registry or custom
   * wallet reached by QR code or deep link).
   */
  handles(wallet: Pick<ListedWallet, 'id' | 'connectorId'>): boolean
  /** Shows ConnectingWalletConnect for `wallet` and starts a pairing. */
  connectWallet(wallet: ListedWallet): void
  /**
   * Starts a headless pairing for `wallet` (undefined: any WalletConnect
   * wallet): no view is shown and the modal's state does not end it, so an
   * app can show the URI (store.uri) as its own QR code or deep link. Resolves
   * once the wallet connected; rejects with a LatchConnectError when an
   * attempt fails for good (a decline is retried with a fresh pairing, spec
   * §9) or when the pairing is stopped or replaced.
   */
  pair(wallet: ListedWallet | undefined): Promise<void>
  /** Whether the pairing in flight is a headless one. */
  isHeadless(): boolean
  /** Abandons the pairing in flight and clears the URI and error (the app's reset). */
  stop(): void
  /** Keeps a pairing on offer (spec §9 renewal); the views call it when they show. */
  ensurePairing(): void
  /** A new pairing now (Try again). */
  retry(): void
  /**
   * Spec §2 "adapters": whether anything but WalletConnect can connect — a
   * non-WalletConnect connector or EIP-6963 discovery. Without, the modal
   * opens on AllWallets (mobile) or ConnectingWalletConnectBasic (desktop).
   */
  hasAdapters(): boolean
  /** A WalletConnect session made with no adapter (the wallet then owns the chain choice, spec §2). */
  hasBasicPairingSession(connectedConnectorId: string | undefined): boolean
  destroy(): void
}

/** createWalletConnectController wires the pairing flow to the router and the wagmi connector. */
export function createWalletConnectController(options: WalletConnectControllerOptions): WalletConnectController {
  const { config, router, modal } = options
  const connector = (): Connector | undefined => config.connectors.find((c) => c.type === connectorType)
  /** The headless pairing in flight: its wallet and how its caller hears the outcome; undefined for the views' pairings. */
  let headless: { wallet: ListedWallet | undefined; resolve(): void; reject(failure: WalletConnectFailure): void } | undefined
  /** Ends the headless pairing's promise (a views' pairing or a stop replaced it). */
  const dropHeadless = (): void => {
    const previous = headless
    headless = undefined
    previous?.reject({ kind: 'unknown', message: 'The WalletConnect pairing was stopped' })
  }

  const flow = createWalletConnectFlow({
    ...(options.slice ? { slice: options.slice } : {}),
    async connect() {
      const wc = connector()
      if (!wc) throw new Error('WalletConnect is not configured')
      await options.connect(wc.id)
    },
    cancel: () => (connector() as (Connector & CancellableConnector) | undefined)?.cancelPairing?.(),
    subscribeUri(listener) {
      // Connectors are set up with the config; one added later (an app's own) is picked up on the next subscription.
      const wc = connector()
      if (!wc) return () => {}
      const onMessage = ({ type, data }: { type: string; data?: unknown }) => {
        if (type === 'display_uri' && typeof data === 'string') listener(data)
      }
      wc.emitter.on('message', onMessage)
      return () => wc.emitter.off('message', onMessage)
    },
    toFailure(error) {
      const failure = toConnectError(error)
      return failure.kind === 'user_rejected'
        ? { kind: 'user_rejected', message: (options.t ?? t)('connecting.declined') }
        : { kind: 'unknown', message: messageOf(failure) }
    },
    onSuccess() {
      const route = router.store.getState()
      const done = headless
      headless = undefined
      const wallet = done ? done.wallet : isWalletConnectView(route.view) ? route.data?.wallet : undefined
      options.onSuccess(wallet && wallet.id !== WALLET_CONNECT_ID ? wallet : undefined)
      done?.resolve()
    },
    onFailure(failure) {
      options.onFailure?.(failure)
      // A decline is followed by a fresh pairing (the flow retries it): only a failure that stops the flow ends the promise.
      queueMicrotask(() => {
        const s = flow.store.getState()
        if (!headless || s.pending || s.error !== failure) return
        const done = headless
        headless = undefined
        done.reject(failure)
      })
    },
    ...(options.timers ? { timers: options.timers } : {}),
    ...(options.now ? { now: options.now } : {}),
  })

  // Leaving the views (or closing the modal) abandons the attempt: wagmi would
  // otherwise stay 'connecting' for minutes and a late scan of a QR code no
  // longer on screen could still connect.
  const leaveIfGone = (): void => {
    if (headless) return
    const s = flow.store.getState()
    if (!s.pending && !s.error) return
    if (!modal.store.getState().open || !isWalletConnectView(router.store.getState().view)) flow.stop()
  }
  const unsubscribers = [router.store.subscribe(leaveIfGone), modal.store.subscribe(leaveIfGone)]

  const hasAdapters = (): boolean =>
    config.connectors.some((c) => c.type !== connectorType) || config._internal.mipd !== undefined

  return {
    store: flow.store,
    available: () => connector() !== undefined,
    connectorId: () => connector()?.id,
    handles(wallet) {
      if (!connector()) return false
      return wallet.id === WALLET_CONNECT_ID || !wallet.connectorId
    },
    connectWallet(wallet) {
      dropHeadless()
      const data = { wallet }
      // Retrying from the view replaces it rather than stacking a second one.
      if (isWalletConnectView(router.store.getState().view)) router.replace('ConnectingWalletConnect', data)
      else router.push('ConnectingWalletConnect', data)
      flow.retry()
    },
    pair(wallet) {
      dropHeadless()
      const outcome = new Promise<void>((resolve, reject) => {
        headless = { wallet, resolve, reject: (failure) => reject(new LatchConnectError(failure.kind, failure.message)) }
      })
      // The caller may ignore the outcome (the state has it too): a rejection nobody awaits is not an unhandled one.
      outcome.catch(() => {})
      flow.retry()
      return outcome
    },
    isHeadless: () => headless !== undefined,
    stop() {
      dropHeadless()
      flow.stop()
    },
    ensurePairing: () => flow.ensurePairing(),
    retry: () => flow.retry(),
    hasAdapters,
    hasBasicPairingSession(connectedConnectorId) {
      const id = connector()?.id
      return id !== undefined && connectedConnectorId === id && !hasAdapters()
    },
    destroy() {
      dropHeadless()
      for (const unsubscribe of unsubscribers) unsubscribe()
      flow.destroy()
    },
  }
}
