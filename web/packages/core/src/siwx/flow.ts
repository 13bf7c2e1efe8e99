// The sign-in flow (spec §2, §4): a lazy chunk init() loads when the app set
// `options.siwx`. It follows the connected account: a new account's session
// is looked up (the startup check, for a restored connection); without one,
// SIWXSignMessage opens; a lookup that fails disconnects with an error;
// disconnecting signs out when the config says signOutOnDisconnect. Everything
// here reaches the instance through `latch._internal`, never by importing
// first-load modules (that would split core's entry into shared chunks).
import { LATCH_VERSION } from '../apiBase'
import type { Latch } from '../latch-types'
import type { SIWXMessage, SIWXSession, SiwxState } from '../siwx'
import type { WalletConnectSignIn } from '../walletconnect/connector/signIn'
import type { LatchSIWXConfig } from './latchSiwx'
import { messageDataOf } from './message'
import { siwxSlice } from './state'
import { lookup } from '../messages'
import { siwxStrings, type SiwxStringKey } from './strings'


/** An account as the flow sees it: its CAIP-10 id and parts. */
interface Account {
  readonly caipAddress: string
  readonly namespace: string
  readonly chainId: string
  readonly address: string
}

function accountOf(caipAddress: string | undefined): Account | undefined {
  const [namespace, reference, address] = caipAddress?.split(':') ?? []
  if (!namespace || !reference || !address) return undefined
  return { caipAddress: caipAddress!, namespace, chainId: `${namespace}:${reference}`, address }
}

function connectedAccount(latch: Latch): Account | undefined {
  const { account } = latch.getState()
  return account.status === 'connected' ? accountOf(account.caipAddress) : undefined
}

/** Errors thrown at app developers (English; not shown in the widget). */
export const SIWX_ERRORS = {
  notEnabled: 'SIWX is not enabled',
  noAccount: 'No ActiveCaipAddress found',
  noClient: 'No ConnectionController client found',
} as const

/** A sign-in string in the visitor's active locale. */
function siwxText(latch: Latch, key: SiwxStringKey): string {
  const { catalogue, locale } = latch.getState()
  return lookup(siwxStrings, key, undefined, catalogue, locale)
}

/** Whether an error (or one of its causes) is the visitor declining in the wallet (EIP-1193 4001). */
export function isUserRejection(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, name } = e as { code?: unknown; name?: unknown }
    if (code === 4001 || name === 'UserRejectedRequestError') return true
  }
  return false
}

/** After the current task: a connect's own ending (walletConnected closes the modal) runs before the view opens. */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

/** Ends the wallet's connection without closing the modal (the caller decides the view). */
async function disconnectWallet(latch: Latch, account: Account | undefined): Promise<void> {
  const { clients, events } = latch._internal
  try {
    await (account ? clients.get(account.namespace) : undefined)?.disconnect()
    events.sendEvent({ type: 'track', event: 'DISCONNECT_SUCCESS' })
  } catch (error) {
    events.sendEvent({ type: 'track', event: 'DISCONNECT_ERROR', properties: { message: error instanceof Error ? error.message : String(error) } })
  }
}

/**
 * checkSession looks up the account's session (spec §4): with one, signed-in;
 * without, SIWXSignMessage opens; when the lookup fails (a stored session
 * latchd no longer accepts), the wallet is disconnected and the modal opens at
 * Connect with 'A problem occurred while trying initialize authentication'.
 */
async function checkSession(latch: Latch, account: Account, isCurrent: () => boolean): Promise<void> {
  const { opts, modal, router, toasts } = latch._internal
  const siwx = opts.siwx!
  const slice = siwxSlice(latch)
  slice.setState({ status: 'checking', account: account.caipAddress, session: undefined, error: undefined })
  let sessions: readonly SIWXSession[]
  try {
    sessions = await siwx.getSessions(account.chainId, account.address)
  } catch (error) {
    if (!isCurrent()) return
    console.warn('[latch] the sign-in session check failed; disconnecting', error)
    const message = siwxText(latch, 'siwx.authInit')
    slice.setState({ status: 'signed-out', account: undefined, error: message })
    await disconnectWallet(latch, account)
    // The error shows in the modal (its toast), at Connect, where the visitor can connect and sign in again.
    router.reset('Connect')
    await modal.open({ view: 'Connect' })
    toasts.showError(message)
    return
  }
  if (!isCurrent()) return
  if (sessions[0]) {
    slice.setState({ status: 'signed-in', session: sessions[0] })
    if (router.store.getState().view === 'SIWXSignMessage') modal.close()
    return
  }
  slice.setState({ status: 'signed-out' })
  await nextTask()
  if (isCurrent() && siwxSlice(latch).getState().status === 'signed-out') await modal.open({ view: 'SIWXSignMessage' })
}

/** The account left (disconnected): forget its session, leave SIWXSignMessage, and sign out when the config says so. */
async function accountLeft(latch: Latch, account: Account): Promise<void> {
  const { opts, router } = latch._internal
  const signedIn = siwxSlice(latch).getState().status === 'signed-in'
  siwxSlice(latch).setState({ status: 'signed-out', account: undefined, session: undefined })
  if (router.store.getState().view === 'SIWXSignMessage') router.reset('Connect')
  if (!signedIn || !opts.siwx?.signOutOnDisconnect) return
  try {
    await opts.siwx.revokeSession(account.chainId, account.address)
  } catch (error) {
    console.warn('[latch] signing out on disconnect failed', error)
  }
}

/**
 * startSiwx starts the sign-in flow of an instance whose options have `siwx`
 * (once; later calls do nothing). The subscription ends with destroy().
 */
export function startSiwx(latch: Latch): void {
  const internal = latch._internal
  const siwx = internal.opts.siwx
  if (!siwx || internal.root.getState().siwx) return
  ;(siwx as Partial<LatchSIWXConfig>).bindLatch?.({
    apiUrl: internal.opts.apiUrl,
    projectId: internal.opts.projectId,
    sdkVersion: `react-${LATCH_VERSION}`,
    storage: internal.storage,
  })
  siwxSlice(latch).setState({ required: siwx.getRequired?.() ?? false })
  // One-click sign-in over WalletConnect: its connector signs in while connecting (when every chain is eip155).
  // The hook is a property of the connector's emitter under a global symbol (walletconnect/connector/signIn.ts
  // reads it; importing that module here would make the two chunks share one).
  const walletConnect = internal.connection.getWagmiConfig().connectors.find((c) => c.type === 'walletConnect')
  if (walletConnect) {
    const emitter = walletConnect.emitter as unknown as Record<symbol, WalletConnectSignIn | undefined>
    const key = Symbol.for('@latchkit/core walletConnect sign-in')
    emitter[key] = walletConnectSignIn(latch)
    internal.cleanups.push(() => void (emitter[key] = undefined))
  }
  let current: Account | undefined
  const follow = (): void => {
    const { status } = latch.getState().account
    if (status === 'connecting' || status === 'reconnecting') return
    const next = connectedAccount(latch)
    if (next?.caipAddress === current?.caipAddress) return
    const previous = current
    current = next
    if (previous && !next) void accountLeft(latch, previous)
    if (next) void checkSession(latch, next, () => current === next)
  }
  internal.cleanups.push(latch.subscribe(follow))
  follow()
}

/**
 * walletConnectSignIn is the WalletConnect connector's sign-in hook: the
 * message's fields come from the config's createMessage (with latchSiwx, a
 * nonce from latchd), and the CACAO the wallet signed becomes the session
 * (addSession; latchd verifies it). Only the first CACAO is kept: the nonce
 * is spent by it.
 */
function walletConnectSignIn(latch: Latch): WalletConnectSignIn {
  const siwx = latch._internal.opts.siwx!
  const asked = new Map<string, SIWXMessage>()
  return {
    async request(chainId) {
      // The account is not known before the wallet answers; the wallet writes its own into the message.
      const message = await siwx.createMessage({ accountAddress: '', chainId })
      asked.clear()
      asked.set(message.nonce, message)
      const { domain, uri, nonce, statement, expirationTime, notBefore, requestId, resources } = message
      return { domain, uri, nonce, statement, expirationTime, notBefore, requestId, resources }
    },
    async complete([first]) {
      const cacao = first?.cacao as { p?: { nonce?: string; iat?: string } } | undefined
      const message = cacao?.p?.nonce ? asked.get(cacao.p.nonce) : undefined
      const account = accountOf(first?.account)
      if (!first || !message || !account) throw new Error('The wallet signed in with another nonce or account than asked')
      asked.clear()
      const data = { ...messageDataOf(message), accountAddress: account.address, chainId: account.chainId, ...(cacao?.p?.iat ? { issuedAt: cacao.p.iat } : {}) }
      await siwx.addSession({ data, message: first.message, signature: first.signature, cacao: first.cacao })
      latch._internal.events.sendEvent({ type: 'track', event: 'SIWX_AUTH_SUCCESS', properties: { network: account.chainId, method: 'walletconnect' } })
    },
  }
}

/**
 * signIn asks the connected wallet to sign the config's message and stores
 * the session (spec §4): success closes the modal and tracks SIWX_AUTH_SUCCESS;
 * a decline keeps SIWXSignMessage with 'Signature declined', another failure
 * with 'Sign message failed' (spec §8), and the promise rejects.
 */
export async function signIn(latch: Latch): Promise<SIWXSession> {
  const { opts, clients, events, modal, router } = latch._internal
  const siwx = opts.siwx
  if (!siwx) throw new Error(SIWX_ERRORS.notEnabled)
  const account = connectedAccount(latch)
  if (!account) throw new Error(SIWX_ERRORS.noAccount)
  const client = clients.get(account.namespace)
  if (!client) throw new Error(SIWX_ERRORS.noClient)
  const slice = siwxSlice(latch)
  slice.setState({ status: 'signing', account: account.caipAddress, error: undefined })
  events.sendEvent({ type: 'track', event: 'CLICK_SIGN_SIWX_MESSAGE', properties: { network: account.chainId } })
  try {
    const message = await siwx.createMessage({ accountAddress: account.address, chainId: account.chainId })
    const text = message.toString()
    const signature = siwx.signMessage
      ? await siwx.signMessage({ message: text, accountAddress: account.address, chainId: account.chainId })
      : await client.signMessage({ message: text, address: account.address })
    const session: SIWXSession = { data: messageDataOf(message), message: text, signature }
    await siwx.addSession(session)
    slice.setState({ status: 'signed-in', session, error: undefined })
    events.sendEvent({ type: 'track', event: 'SIWX_AUTH_SUCCESS', properties: { network: account.chainId } })
    if (router.store.getState().view === 'SIWXSignMessage') modal.close()
    return session
  } catch (error) {
    const declined = isUserRejection(error)
    const key = declined ? 'siwx.signatureDeclined' : 'siwx.signMessageFailed'
    const shown = siwxText(latch, key)
    if (!declined) console.warn('[latch] sign-in failed', error)
    // Still the same account: the view stays, with the error (spec §4).
    if (connectedAccount(latch)?.caipAddress === account.caipAddress) slice.setState({ status: 'signed-out', error: shown })
    // The event carries the English text: analytics read one language.
    events.sendEvent({ type: 'track', event: 'SIWX_AUTH_ERROR', properties: { network: account.chainId, message: siwxStrings[key] } })
    throw new Error(shown, { cause: error })
  }
}

/**
 * cancelSiwx is SIWXSignMessage's Cancel (spec §2, the router's
 * signInCancelOutcome): with sign-in required it disconnects, otherwise it
 * closes the modal; either way the stack resets to Connect.
 */
export async function cancelSiwx(latch: Latch): Promise<void> {
  const { events, modal, router } = latch._internal
  events.sendEvent({ type: 'track', event: 'CLICK_CANCEL_SIWX' })
  try {
    if (siwxSlice(latch).getState().required) await disconnectWallet(latch, connectedAccount(latch))
    else modal.close()
  } finally {
    router.reset('Connect')
  }
}

/**
 * signOut revokes the connected account's session; the wallet stays
 * connected unless sign-in is required, in which case it is disconnected
 * too (a required sign-in admits no connected account without a session).
 */
export async function signOut(latch: Latch): Promise<void> {
  const siwx = latch._internal.opts.siwx
  if (!siwx) throw new Error(SIWX_ERRORS.notEnabled)
  const account = connectedAccount(latch)
  const slice = siwxSlice(latch)
  if (account) await siwx.revokeSession(account.chainId, account.address)
  slice.setState({ status: 'signed-out', session: undefined, error: undefined })
  if (account && slice.getState().required) await disconnectWallet(latch, account)
}

/** getSiwxState is the instance's sign-in state. */
export function getSiwxState(latch: Latch): SiwxState {
  return siwxSlice(latch).getState()
}

/** watchSiwxState calls `listener` when the sign-in state changes; returns the unsubscribe. */
export function watchSiwxState(latch: Latch, listener: (state: SiwxState) => void): () => void {
  return latch._internal.root.subscribe((next, prev) => {
    if (next.siwx !== prev.siwx) listener(getSiwxState(latch))
  })
}
