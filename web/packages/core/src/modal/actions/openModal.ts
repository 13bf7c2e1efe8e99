import { adapterOfNetwork } from '../../adapters/registry'
import type { Latch, OpenOptions } from '../../latch-types'
import { switchNetwork } from '../../network/actions/switchNetwork'
import { loadSendController } from '../../send/actions/loadSendController'
import { loadSwapModule } from '../../swap/load'
import type { TokenBalance } from '../../account/types'
import type { SendController } from '../../send/types'
import { VIEWS } from '../views'

/** Thrown by open() for a view or namespace Latch does not have; the message names it. */
export class LatchOpenError extends Error {
  override name = 'LatchOpenError'
}

/**
 * checkOpenOptions refuses (throwing LatchOpenError), before anything moves, a view Latch does not have or a namespace none of the
 * configured networks is in.
 */
export function checkOpenOptions(latch: Latch, options: OpenOptions | undefined): void {
  if (options?.view !== undefined && !(VIEWS as readonly string[]).includes(options.view)) {
    throw new LatchOpenError(`open: unknown view "${String(options.view)}"; one of ${VIEWS.join(', ')}`)
  }
  const ns = options?.namespace
  if (ns !== undefined && !latch._internal.networks.some((n) => adapterOfNetwork(n).namespace === ns)) {
    const known = [...new Set(latch._internal.networks.map((n) => adapterOfNetwork(n).namespace))]
    throw new LatchOpenError(`open: no configured network is in namespace "${String(ns)}"; configured: ${known.join(', ')}`)
  }
}

/**
 * openModal opens the modal as `open({ view, namespace, arguments })` asks (AppKit's open): on the namespace's
 * network first (the network its connected account is on, else its first configured one), then the view, with
 * its arguments as the view's data; WalletSend's amount, receiver and token are put into the send form.
 */
export async function openModal(latch: Latch, options: OpenOptions | undefined): Promise<void> {
  checkOpenOptions(latch, options)
  const { network, clients, modal } = latch._internal
  const ns = options?.namespace
  if (ns !== undefined && adapterOfNetwork(network.store.getState().activeNetwork).namespace !== ns) {
    const account = clients.get(ns)?.account()
    const configured = latch._internal.networks.filter((n) => adapterOfNetwork(n).namespace === ns)
    const target = configured.find((n) => account?.status === 'connected' && n.id === account.chainId) ?? configured[0]!
    await switchNetwork(latch, target.id)
  }
  const args = options?.arguments
  if (options?.view === 'WalletSend' && args) await prefillSend(latch, args)
  if (options?.view === 'WalletSwap' && args) await checkSwapArguments(latch, args)
  await modal.open({ ...(options?.view ? { view: options.view } : {}), ...(args ? { data: { arguments: args } } : {}) })
}

/** The send form's arguments: amount (whole tokens), receiver (`to`), token (its address, CAIP-10 id or symbol). */
async function prefillSend(latch: Latch, args: Readonly<Record<string, unknown>>): Promise<void> {
  const send = await loadSendController(latch)
  if (typeof args.amount === 'string' || typeof args.amount === 'number') send.setAmount(String(args.amount))
  if (typeof args.to === 'string') void send.setReceiver(args.to)
  if (typeof args.token === 'string') pickToken(send, args.token)
}

/**
 * checkSwapArguments refuses (LatchOpenError) swap arguments the panel could not take: an amount that is not a
 * positive decimal, a token that is not a string, and, with an account connected, a token that is not among the
 * network's swap tokens (the message lists them). The Swap view then starts from them (react's SwapView).
 */
async function checkSwapArguments(latch: Latch, args: Readonly<Record<string, unknown>>): Promise<void> {
  const { amount, fromToken, toToken } = args
  if (amount !== undefined && !((typeof amount === 'string' || typeof amount === 'number') && /^(\d+\.?\d*|\.\d+)$/.test(String(amount)) && Number(amount) > 0)) {
    throw new LatchOpenError(`open: WalletSwap's amount must be a positive decimal number, not ${JSON.stringify(amount)}`)
  }
  const named = { fromToken, toToken }
  for (const [key, value] of Object.entries(named)) {
    if (value !== undefined && typeof value !== 'string') throw new LatchOpenError(`open: WalletSwap's ${key} must be a token symbol or address, not ${JSON.stringify(value)}`)
  }
  if (latch.getState().account.status !== 'connected' || (fromToken === undefined && toToken === undefined)) return
  const swap = await loadSwapModule()
  const tokens = await swap.getSwapTokens(latch)
  for (const [key, value] of Object.entries(named)) {
    if (typeof value === 'string' && !swap.findSwapToken(tokens, value)) {
      const network = latch.getState().activeNetwork.name
      throw new LatchOpenError(`open: WalletSwap's ${key} "${value}" is not a swap token on ${network}; one of ${tokens.map((t) => t.symbol).join(', ')}`)
    }
  }
}

/** Chooses the token once the form has the balances (they arrive when the Send view reads them). */
function pickToken(send: SendController, wanted: string): void {
  const want = wanted.toLowerCase()
  const matches = (b: TokenBalance) => b.address?.toLowerCase() === want || b.address?.toLowerCase().endsWith(`:${want}`) || b.symbol.toLowerCase() === want
  const pick = (balances: readonly TokenBalance[]): boolean => {
    if (!balances.length) return false
    const token = balances.find(matches)
    if (token) send.setToken(token)
    return true
  }
  if (pick(send.store.getState().tokenBalances)) return
  const stop = send.store.subscribe((state) => {
    if (pick(state.tokenBalances)) stop()
  })
}
