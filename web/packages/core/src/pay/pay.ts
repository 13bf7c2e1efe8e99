// latch.pay (issue 22): a payment request a dapp opens. The Pay view pays
// it from the connected wallet through the send path (amount and recipient
// fixed), or first buys the missing amount through the on-ramp.
import type { TokenBalance } from '../account/types'
import type { Latch } from '../latch-types'
import { lookup, type MessageParams } from '../messages'
import { awaitPay, paySlice, settlePay } from './state'
import { payFlowStrings, type PayFlowStringKey } from './strings'
import type { PayRequest, PayResult, PayState } from './types'

/** Messages of refused requests and of latch.pay's rejections: for the app's developer, in English. */
export const PAY_MESSAGES = {
  recipient: 'The recipient must be an address: 0x followed by 40 hexadecimal characters',
  amount: (value: string) => `Number \`${value}\` is not a valid decimal number.`,
  positive: 'The amount must be greater than 0',
  asset: 'An asset is required',
  network: (network: string) => `Network ${network} is not among this app's networks`,
  cancelled: 'Payment cancelled',
} as const

/** A message of the Pay view in the visitor's language. */
function payText(latch: Latch, key: PayFlowStringKey, params?: MessageParams): string {
  const { catalogue, locale } = latch.getState()
  return lookup(payFlowStrings, key, params, catalogue, locale)
}

const decimalText = /^\d+(\.\d+)?$/

/** normalise checks a request and puts it in the slice's form; throws with the message of what is wrong. */
function normalise(latch: Latch, request: PayRequest): NonNullable<PayState['request']> {
  const recipient = String(request.recipient ?? '').trim()
  if (!/^0x[0-9a-fA-F]{40}$/.test(recipient)) throw new Error(PAY_MESSAGES.recipient)
  const amount = String(request.amount ?? '').trim()
  if (!decimalText.test(amount)) throw new Error(PAY_MESSAGES.amount(amount))
  if (!/[1-9]/.test(amount)) throw new Error(PAY_MESSAGES.positive)
  const asset = String(request.asset ?? '').trim()
  if (!asset) throw new Error(PAY_MESSAGES.asset)
  const id = typeof request.network === 'number' ? request.network : Number(String(request.network).replace(/^eip155:/, ''))
  if (!Number.isSafeInteger(id) || !latch._internal.networks.some((n) => n.id === id)) throw new Error(PAY_MESSAGES.network(String(request.network)))
  return { recipient, amount, asset, chainId: id }
}

/**
 * pay opens the Pay view for request and resolves with the payment's
 * transaction once it is sent, or rejects with a clear error: a malformed
 * request at once, a declined or failed payment, or the visitor cancelling
 * (closing the modal). A new request replaces one still open.
 */
export function pay(latch: Latch, request: PayRequest): Promise<PayResult> {
  let normal: NonNullable<PayState['request']>
  try {
    normal = normalise(latch, request)
  } catch (error) {
    return Promise.reject(error)
  }
  const done = awaitPay(latch)
  const slice = paySlice(latch)
  slice.setState({ request: normal, status: 'idle', balance: undefined, missing: undefined, error: undefined })
  latch.open({ view: 'Pay' })
  // Closing the modal before the payment is sent cancels it.
  const stop = latch._internal.root.subscribe((next, prev) => {
    if (prev.modal.open && !next.modal.open && !['success', 'paying', 'buying'].includes(slice.getState().status)) {
      slice.setState({ status: 'cancelled' })
      settlePay(latch, { error: new Error(PAY_MESSAGES.cancelled) })
    }
  })
  done.then(stop, stop)
  return done
}

/** The token of the request among balances: by address, else by symbol. */
function findToken(balances: readonly TokenBalance[], asset: string): TokenBalance | undefined {
  const a = asset.toLowerCase()
  return balances.find((b) => b.address?.toLowerCase().endsWith(a) && a.startsWith('0x')) ?? balances.find((b) => b.symbol.toLowerCase() === a)
}

/** Exact decimal difference a - b of two non-negative decimals, as text (b > a gives a value). */
function missingAmount(need: string, have: string): string | undefined {
  const scale = Math.max(need.split('.')[1]?.length ?? 0, have.split('.')[1]?.length ?? 0)
  const toInt = (s: string) => BigInt((s.split('.')[0] ?? '0') + (s.split('.')[1] ?? '').padEnd(scale, '0'))
  const diff = toInt(need) - toInt(have)
  if (diff <= 0n) return undefined
  const digits = diff.toString().padStart(scale + 1, '0')
  return scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}`.replace(/\.?0+$/, '') : digits
}

/** The connected account, or undefined. */
function accountAddress(latch: Latch): string | undefined {
  const { account } = latch.getState()
  return account.status === 'connected' ? account.address : undefined
}

/**
 * checkPayBalance reads the connected account's balance of the request's
 * asset on its network and sets ready, or insufficient with what is missing.
 * forceUpdate names tokens (CAIP-10) latchd must re-read rather than answer
 * from its cache (the token just bought).
 */
export async function checkPayBalance(latch: Latch, forceUpdate?: readonly string[]): Promise<PayState> {
  const slice = paySlice(latch)
  const { request } = slice.getState()
  const address = accountAddress(latch)
  if (!request) return slice.getState()
  if (!address) {
    slice.setState({ status: 'idle', error: payText(latch, 'pay.notConnected') })
    return slice.getState()
  }
  slice.setState({ status: 'checking', error: undefined })
  try {
    const balances = await latch._internal.accountData.fetchBalances({ address, caipNetworkId: `eip155:${request.chainId}`, ...(forceUpdate?.length ? { forceUpdate } : {}) })
    const token = findToken(balances, request.asset)
    const balance = token?.quantity.numeric ?? '0'
    const missing = missingAmount(request.amount, balance)
    slice.setState({ status: missing ? 'insufficient' : 'ready', balance, missing })
  } catch (error) {
    slice.setState({ status: 'error', error: error instanceof Error ? error.message : String(error) })
  }
  return slice.getState()
}

/**
 * confirmPay sends the payment from the connected wallet through the send
 * path: the wallet switches to the request's network when it is elsewhere,
 * then the token transfer (or native transfer) of the fixed amount to the
 * fixed recipient. Resolves latch.pay with the transaction; a failure stays
 * in the view (the visitor may retry) and is returned.
 */
export async function confirmPay(latch: Latch): Promise<PayResult | undefined> {
  const slice = paySlice(latch)
  const { request } = slice.getState()
  const address = accountAddress(latch)
  if (!request) return undefined
  if (!address) {
    slice.setState({ error: payText(latch, 'pay.notConnected') })
    return undefined
  }
  slice.setState({ status: 'paying', error: undefined })
  try {
    if (latch.getState().activeNetwork.id !== request.chainId) await latch.switchNetwork(request.chainId)
    const balances = await latch._internal.accountData.fetchBalances({ address, caipNetworkId: `eip155:${request.chainId}` })
    const token = findToken(balances, request.asset)
    if (!token) throw new Error(payText(latch, 'pay.noToken', { asset: request.asset }))
    // The send module's chunk, imported directly: importing send/load from here would split the first load's chunks.
    const controller = (await import('../send/index')).sendControllerOf(latch)
    const sent = await controller.sendNow({ token, amount: request.amount, receiver: request.recipient })
    const result: PayResult = { hash: sent.hash, chainId: sent.chainId, recipient: request.recipient, amount: request.amount, asset: token.symbol }
    slice.setState({ status: 'success', result })
    settlePay(latch, { result })
    return result
  } catch (error) {
    slice.setState({ status: 'error', error: error instanceof Error ? error.message : String(error) })
    return undefined
  }
}

/** cancelPay rejects latch.pay with 'Payment cancelled' and closes the modal. */
export function cancelPay(latch: Latch): void {
  paySlice(latch).setState({ status: 'cancelled' })
  settlePay(latch, { error: new Error(PAY_MESSAGES.cancelled) })
  latch.close()
}
