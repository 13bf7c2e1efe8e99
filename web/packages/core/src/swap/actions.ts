// The swap flow (spec §2 swaps panel, §3, §9): the active network's tokens,
// quotes of a decimal amount, and approve-then-swap through the connected
// wallet with latchd building both transactions. The chain's part (sending,
// the receipt) is the account namespace's client and send driver.
import type { Latch } from '../latch-types'
import { LATCH_VERSION } from '../apiBase'
import { InvalidDecimalError, parseDecimal } from '../send/decimal'
import { LatchSendError, localizeSendError } from '../send/errors'
import { lookup } from '../messages'
import { createSwapClient, type SwapClient, type SwapQuote, type SwapToken } from './client'
import { swapFlowStrings, type SwapFlowStringKey } from './strings'

/** Slippage tolerance in percent when none is given (spec §9: the swap slippage constant, 1). */
export const SWAP_SLIPPAGE = 1
/** How often the panel refreshes its quote while an amount is entered. */
export const QUOTE_REFRESH_MS = 10_000
/** Price impact (percent) above which the panel warns, and above which it refuses to swap. */
export const PRICE_IMPACT_WARN = 3
export const PRICE_IMPACT_BLOCK = 15

/** The keys of the spec's messages (§8) and the flow's own; noAccount is a developer error and stays English. */
export const SWAP_MESSAGES = {
  networkNotSupported: 'swap.networkNotSupported',
  noAccount: 'No ActiveCaipAddress found',
  invalidAmount: 'swap.enterAmount',
  reverted: 'swap.reverted',
  approveReverted: 'swap.approveReverted',
} as const

/**
 * A swap that cannot go ahead or failed: `message` in the visitor's language
 * (English without an instance), `key` the same in every language.
 */
export class SwapError extends Error {
  override readonly name = 'SwapError'
  readonly key: SwapFlowStringKey

  constructor(key: SwapFlowStringKey, latch?: Latch) {
    const state = latch?.getState()
    super(lookup(swapFlowStrings, key, undefined, state?.catalogue, state?.locale))
    this.key = key
  }
}

const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** Whether a swap token is the network's native coin. */
export const isNativeSwapToken = (token: SwapToken): boolean => token.address.toLowerCase().endsWith(`:${NATIVE}`)

/** swapClient is a client of the instance's latchd convert routes. */
export function swapClient(latch: Latch): SwapClient {
  const { opts } = latch._internal
  return createSwapClient({ apiUrl: opts.apiUrl, projectId: opts.projectId, sdkVersion: `react-${LATCH_VERSION}` })
}

interface SwapContext {
  readonly caipNetworkId: string
  readonly chainId: number
  readonly address: string
  readonly userAddress: string
  readonly namespace: string
}

function swapContext(latch: Latch): SwapContext {
  const { account, activeNetwork } = latch.getState()
  if (account.status !== 'connected' || !account.address) throw new Error(SWAP_MESSAGES.noAccount)
  // Read from the CAIP-10 id rather than adapters/registry, first-load code a lazy chunk must not import (it would
  // split core's entry into shared chunks). Swaps are eip155's only.
  const namespace = account.caipAddress?.split(':')[0]
  if (namespace !== 'eip155') throw new SwapError(SWAP_MESSAGES.networkNotSupported, latch)
  const caipNetworkId = `eip155:${activeNetwork.id}`
  return { caipNetworkId, chainId: activeNetwork.id as number, address: account.address, userAddress: `${caipNetworkId}:${account.address}`, namespace }
}

/**
 * findSwapToken is the token `wanted` names among `tokens`: its symbol (any case), its CAIP-10 id or its plain
 * address. What open({ view: 'WalletSwap', arguments }) takes as fromToken and toToken.
 */
export function findSwapToken(tokens: readonly SwapToken[], wanted: string): SwapToken | undefined {
  const want = wanted.trim().toLowerCase()
  return tokens.find((t) => t.symbol.toLowerCase() === want) ?? tokens.find((t) => t.address.toLowerCase() === want || t.address.toLowerCase().endsWith(`:${want}`))
}

/** getSwapTokens lists the active network's swap tokens, native coin first. */
export async function getSwapTokens(latch: Latch): Promise<SwapToken[]> {
  return swapClient(latch).tokens(swapContext(latch).caipNetworkId)
}

/**
 * The base units of a decimal amount of token; an empty, malformed or zero
 * amount throws a SwapError, in the instance's language when given `latch`.
 */
export function swapAmount(token: SwapToken, amount: string, latch?: Latch): bigint {
  let base: bigint
  try {
    base = parseDecimal(amount.trim(), token.decimals)
  } catch (error) {
    if (error instanceof InvalidDecimalError) throw new SwapError(SWAP_MESSAGES.invalidAmount, latch)
    throw error
  }
  if (base <= 0n) throw new SwapError(SWAP_MESSAGES.invalidAmount, latch)
  return base
}

/** getSwapQuote is the best quote for `amount` (decimal, in units of `from`). */
export async function getSwapQuote(latch: Latch, params: { from: SwapToken; to: SwapToken; amount: string }, init?: { signal?: AbortSignal }): Promise<SwapQuote> {
  const ctx = swapContext(latch)
  return swapClient(latch).quote({ from: params.from.address, to: params.to.address, amount: swapAmount(params.from, params.amount, latch), userAddress: ctx.userAddress }, init)
}

/** getSwapAllowance is what the router may take of the connected account's `token` (base units). */
export async function getSwapAllowance(latch: Latch, token: SwapToken): Promise<bigint> {
  const ctx = swapContext(latch)
  return swapClient(latch).allowance({ tokenAddress: token.address, userAddress: ctx.userAddress })
}

/** getSwapGasPrice is the active network's standard gas price in wei. */
export async function getSwapGasPrice(latch: Latch): Promise<bigint> {
  return (await swapClient(latch).gasPrice(swapContext(latch).caipNetworkId)).standard
}

/** The steps of executeSwap, for the panel's pending state. */
export type SwapStep = 'approving' | 'swapping'

/** What a finished swap reports. */
export interface SwapResult {
  readonly hash: string
  /** The approval sent first, when the router's allowance was short. */
  readonly approveHash: string | undefined
  /** What the quote the swap was built on promised, and the least the router would accept. */
  readonly toAmount: bigint
  readonly minimumOut: bigint
}

/**
 * executeSwap swaps `amount` of `from` for `to` with the connected wallet:
 * when the router may not take the amount yet, an approval first (waited
 * for), then the swap latchd builds (best route, minimum out from the
 * slippage, a deadline), waited for too. Balances and Activity refresh once
 * it is mined. A reverted swap (the price moved beyond the slippage) rejects
 * with SWAP_MESSAGES.reverted; the visitor keeps their tokens.
 */
export async function executeSwap(
  latch: Latch,
  params: { from: SwapToken; to: SwapToken; amount: string; slippage?: number; onStep?: (step: SwapStep) => void },
): Promise<SwapResult> {
  const ctx = swapContext(latch)
  const client = swapClient(latch)
  const chain = latch._internal.clients.get(ctx.namespace)
  if (!chain) throw new SwapError(SWAP_MESSAGES.networkNotSupported, latch)
  const driver = await chain.sendDriver()
  const amount = swapAmount(params.from, params.amount, latch)
  const send = (tx: { to: string; data: string; value: bigint }) =>
    chain.sendTransaction({ chainId: ctx.chainId, from: ctx.address, transaction: { to: tx.to, data: tx.data, value: tx.value } }).catch((error: unknown) => {
      // The send path's own messages (the wallet on another chain, …) in the visitor's language.
      const { catalogue, locale } = latch.getState()
      throw error instanceof LatchSendError ? localizeSendError(error, catalogue, locale) : error
    })
  const mined = (hash: string) => driver.waitForReceipt(ctx.chainId, hash, { timeoutMs: 180_000, firstDelayMs: 200 })

  let approveHash: string | undefined
  if (!isNativeSwapToken(params.from)) {
    const allowance = await client.allowance({ tokenAddress: params.from.address, userAddress: ctx.userAddress })
    if (allowance < amount) {
      params.onStep?.('approving')
      const approve = await client.buildApprove({ userAddress: ctx.userAddress, from: params.from.address, to: params.to.address })
      approveHash = await send(approve)
      if ((await mined(approveHash)) === 'reverted') throw new SwapError(SWAP_MESSAGES.approveReverted, latch)
    }
  }
  params.onStep?.('swapping')
  const built = await client.buildSwap({ userAddress: ctx.userAddress, from: params.from.address, to: params.to.address, amount, slippage: params.slippage ?? SWAP_SLIPPAGE })
  const hash = await send(built)
  const status = await mined(hash)
  const tokenId = (t: SwapToken) => (isNativeSwapToken(t) ? driver.nativeTokenId(ctx.chainId) : t.address)
  latch.accountData.notifyTransaction({ hash, chainId: ctx.chainId, tokens: [tokenId(params.from), tokenId(params.to)] })
  if (status === 'reverted') throw new SwapError(SWAP_MESSAGES.reverted, latch)
  return { hash, approveHash, toAmount: built.toAmount, minimumOut: built.minimumOut }
}
