// The router controller: the modal's stack of named views (spec §2) and the
// opening rules that decide which view a stack starts from. Rules are pure
// functions of the facts they depend on, so the modal, the connection layer
// and SIWX can wire them without the router knowing about those controllers.
import { createStore, type SliceFactory, type Store } from '../store'
import type { ListedWallet } from '../wallets'

// The list is a module of its own: only open()'s on-demand checks read it at run time, so a page's first load
// carries none of it.
export { VIEWS } from './views'
import type { VIEWS } from './views'

/** A view name. */
export type View = (typeof VIEWS)[number]

/** The view every stack starts at (spec §2). */
export const INITIAL_VIEW: View = 'Connect'

/** Data a view may carry, e.g. the wallet being connected. */
export interface RouteData {
  /** The wallet the Connecting* views connect to. */
  readonly wallet?: ListedWallet
  /** The connector the Connecting* views connect through. */
  readonly connectorId?: string
  /** The network a view is about (e.g. the target of a switch). */
  readonly caipNetworkId?: string
  /** The name being registered (RegisterAccountName*). */
  readonly accountName?: string
  /** What the app opened the view with (`open({ view, arguments })`), e.g. WalletSend's amount, `to` and token. */
  readonly arguments?: Readonly<Record<string, unknown>>
}

/** One entry of the view stack. */
export interface Route {
  readonly view: View
  readonly data: RouteData | undefined
}

/** Router state: the whole stack, plus its top for convenience. */
export interface RouterState {
  readonly stack: readonly Route[]
  /** The top of the stack, the view on screen. */
  readonly view: View
  /** The data of the top of the stack. */
  readonly data: RouteData | undefined
}

/** What the router needs from the rest of the widget. */
export interface RouterHooks {
  /** Closes the modal; called when going back from the last view (spec §2). */
  closeModal(): void
  /** Whether an address is connected now. */
  isConnected(): boolean
  /** Resets the embedded-wallet auth provider (spec §2: back from Farcaster while unconnected). */
  resetAuthProvider?(): void
  /** Where the state lives: a slice of the instance's root store (default: a store of its own). */
  readonly slice?: SliceFactory<RouterState>
}

/** The router controller. */
export interface RouterController {
  readonly store: Store<RouterState>
  /** Pushes a view; pushing the view already on top only replaces its data. */
  push(view: View, data?: RouteData): void
  /** Replaces the top of the stack. */
  replace(view: View, data?: RouteData): void
  /** Replaces the whole stack with one view. */
  reset(view: View, data?: RouteData): void
  /** Pops one view; with one view left it closes the modal instead (spec §2). */
  goBack(): void
  /** Pops every view above `index` (0 = the first view); an index out of range does nothing. */
  goBackToIndex(index: number): void
  /** Pops back to the last `view` on the stack in one update, or makes `view` the only one when it is not on it. */
  goBackTo(view: View): void
}

function stateOf(stack: readonly Route[]): RouterState {
  const top = stack[stack.length - 1] ?? { view: INITIAL_VIEW, data: undefined }
  return { stack, view: top.view, data: top.data }
}

/** createRouterController makes a router whose stack starts at Connect. */
export function createRouterController(hooks: RouterHooks): RouterController {
  const store = (hooks.slice ?? createStore)(stateOf([{ view: INITIAL_VIEW, data: undefined }]))
  const setStack = (stack: readonly Route[]): void => store.setState(stateOf(stack))
  const stack = (): readonly Route[] => store.getState().stack

  return {
    store,
    push(view, data) {
      const current = stack()
      // AppKit ignores a push of the view already shown; we keep that but take the new data.
      if (current[current.length - 1]?.view === view) setStack([...current.slice(0, -1), { view, data }])
      else setStack([...current, { view, data }])
    },
    replace(view, data) {
      setStack([...stack().slice(0, -1), { view, data }])
    },
    reset(view, data) {
      setStack([{ view, data }])
    },
    goBack() {
      const current = stack()
      const leavingFarcaster = current[current.length - 1]?.view === 'ConnectingFarcaster'
      if (current.length > 1) setStack(current.slice(0, -1))
      else hooks.closeModal()
      // Spec §2: the Farcaster flow leaves the auth provider waiting for a
      // sign-in; going back while unconnected must reset it.
      if (leavingFarcaster && !hooks.isConnected()) hooks.resetAuthProvider?.()
    },
    goBackTo(view) {
      const current = stack()
      let index = current.length - 1
      while (index >= 0 && current[index]!.view !== view) index--
      setStack(index >= 0 ? current.slice(0, index + 1) : [{ view, data: undefined }])
    },
    goBackToIndex(index) {
      const current = stack()
      if (!Number.isInteger(index) || index < 0 || index >= current.length) return
      setStack(current.slice(0, index + 1))
    },
  }
}

/** Facts the opening rule depends on. */
export interface OpenViewContext {
  /** A view asked for explicitly, e.g. `open({view: 'Networks'})`. */
  readonly requestedView?: View | undefined
  readonly isConnected: boolean
  /** Whether any chain adapter (wagmi, Solana, …) is configured. */
  readonly hasAdapters: boolean
  readonly isMobile: boolean
  /** options.enableNetworkSwitch; when false the Networks view is not offered. */
  readonly enableNetworkSwitch?: boolean | undefined
}

/**
 * viewOnOpen picks the first view when the modal opens (spec §2): an explicit
 * view wins; a connected address shows Account; with no adapters the only way
 * to connect is WalletConnect, so mobile shows AllWallets (deep links) and
 * desktop ConnectingWalletConnectBasic (QR); otherwise Connect. With
 * network switching off, a request for Networks opens the default view.
 */
export function viewOnOpen(ctx: OpenViewContext): View {
  if (ctx.requestedView && !(ctx.requestedView === 'Networks' && ctx.enableNetworkSwitch === false)) return ctx.requestedView
  if (ctx.isConnected) return 'Account'
  if (!ctx.hasAdapters) return ctx.isMobile ? 'AllWallets' : 'ConnectingWalletConnectBasic'
  return 'Connect'
}

/** viewAfterEmbeddedClose is where an embedded (inline) modal returns on close (spec §2). */
export function viewAfterEmbeddedClose(ctx: { readonly isConnected: boolean }): View {
  return ctx.isConnected ? 'Account' : 'Connect'
}

/** Facts the UnsupportedChain rule depends on. */
export interface UnsupportedChainContext {
  /** The wallet's active network, CAIP-2. */
  readonly activeCaipNetworkId: string | undefined
  /** The networks the app asked for (options.networks), CAIP-2. */
  readonly requestedCaipNetworkIds: readonly string[]
  readonly enableNetworkSwitch: boolean
  readonly allowUnsupportedChain: boolean
  /** A WalletConnect "basic" pairing session exists (the wallet then owns the chain choice). */
  readonly hasBasicPairingSession: boolean
}

/** shouldShowUnsupportedChain says whether the UnsupportedChain view must open (spec §2, §5). */
export function shouldShowUnsupportedChain(ctx: UnsupportedChainContext): boolean {
  if (ctx.activeCaipNetworkId === undefined) return false
  return (
    !ctx.requestedCaipNetworkIds.includes(ctx.activeCaipNetworkId) &&
    ctx.enableNetworkSwitch &&
    !ctx.allowUnsupportedChain &&
    !ctx.hasBasicPairingSession
  )
}

/** Facts the close rule depends on. */
export interface CloseContext {
  readonly view: View
  /** Sign-in is required (siwx.getRequired()). */
  readonly siwxRequired: boolean
  /** A sign-in session exists for the connected account. */
  readonly hasSiwxSession: boolean
}

/** canCloseModal is false while the sign-message view must be answered (spec §2). */
export function canCloseModal(ctx: CloseContext): boolean {
  return !(ctx.view === 'SIWXSignMessage' && ctx.siwxRequired && !ctx.hasSiwxSession)
}

/** What cancelling the sign-message view does. */
export interface SignInCancelOutcome {
  readonly disconnect: boolean
  readonly closeModal: boolean
  readonly resetTo: View
}

/**
 * signInCancelOutcome (spec §2): cancelling disconnects when sign-in is
 * required, otherwise it closes the modal; either way the stack resets to Connect.
 */
export function signInCancelOutcome(ctx: { readonly siwxRequired: boolean }): SignInCancelOutcome {
  return ctx.siwxRequired
    ? { disconnect: true, closeModal: false, resetTo: 'Connect' }
    : { disconnect: false, closeModal: true, resetTo: 'Connect' }
}

/** Side effects cancelSignIn applies. */
export interface SignInCancelHooks {
  readonly router: Pick<RouterController, 'reset'>
  disconnect(): Promise<void>
  closeModal(): void
}

/** cancelSignIn applies signInCancelOutcome; the stack is reset even when disconnecting fails. */
export async function cancelSignIn(ctx: { readonly siwxRequired: boolean }, hooks: SignInCancelHooks): Promise<void> {
  const outcome = signInCancelOutcome(ctx)
  try {
    if (outcome.disconnect) await hooks.disconnect()
    if (outcome.closeModal) hooks.closeModal()
  } finally {
    hooks.router.reset(outcome.resetTo)
  }
}
