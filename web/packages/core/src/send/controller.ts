// The send controller (spec §3 send state, §4 send flow, §5 rules, §8
// errors): a framework-free store holding the form, the fee estimate and the
// loading flag, and the flow form → review → wallet. The chain's part (balances,
// fee, the wallet's transaction, its receipt) is the namespace adapter's send
// driver, picked by the account's namespace at every step: the eip155 driver
// sends native currency with eth_sendTransaction and ERC-20 tokens with
// `transfer`; a namespace without a driver is refused with the spec's message.
import { isNativeBalance } from '../account/format'
import type { TokenBalance } from '../account/types'
import type { SendDriver, Transfer } from '../adapters/types'
import { createStore } from '../store'
import { networkBalanceInUsd } from './balances'
import { formatDecimal } from './decimal'
import { LatchSendError, localizeSendError, SEND_MESSAGES, sendText, toSendError, type SendMessage } from './errors'
import { initialSendState } from './load'
import {
  assertSendNamespace,
  assertSufficientBalance,
  looksLikeName,
  maxSendable,
  parseReceiverAddress,
  tokenDecimals,
  validateSend,
  type FeeOverrides,
  type SendNamespace,
} from './validation'

/** Receipt wait of spec §9: 180 s, polls from 200 ms, doubling. */
export const RECEIPT_TIMEOUT_MS = 180_000
export const RECEIPT_RETRY_DELAY_MS = 200

// Kept here too: the send module's index exports them from this file.
export type {
  FeeEstimate,
  SendContext,
  SendController,
  SendControllerParameters,
  SendNotice,
  SendRequest,
  SendResult,
  SendState,
} from './types'
import type { FeeEstimate, SendContext, SendController, SendControllerParameters, SendRequest, SendResult, SendState } from './types'

/** createSendController makes a send form bound to the connection given by params.getContext. */
export function createSendController(params: SendControllerParameters): SendController {
  const store = (params.slice ?? createStore)(initialSendState)
  let receiverSeq = 0
  let estimateSeq = 0
  let resolver = params.resolver

  /** A send message in the visitor's language. */
  const say = (message: SendMessage): string => {
    const active = params.locale?.()
    return sendText(message, active?.catalogue, active?.locale)
  }
  /** The error in the visitor's language: what the form shows and latch.send rejects with. */
  const localized = (error: LatchSendError): LatchSendError => {
    const active = params.locale?.()
    return active ? localizeSendError(error, active.catalogue, active.locale) : error
  }

  const fail = (error: unknown, stage: 'estimate' | 'send' = 'send'): LatchSendError => {
    const e = localized(toSendError(error, stage))
    store.setState({ error: e.message, errorKind: e.kind })
    return e
  }

  const context = (): SendContext & { namespace: SendNamespace } => {
    const ctx = params.getContext()
    if (!ctx) throw new LatchSendError('unknown', 'No ActiveCaipAddress found')
    assertSendNamespace(ctx.namespace)
    return ctx as SendContext & { namespace: SendNamespace }
  }

  /** The network's native coin among the balances: the token the form starts with. */
  const nativeOf = (balances: readonly TokenBalance[]) => balances.find((b) => isNativeBalance(b))

  const clearReview = { step: 'form' as const, fee: undefined, error: undefined, errorKind: undefined }

  /** The receiver address to send to: the resolved one, or the typed text checked as an address. */
  const receiverFor = (ctx: SendContext & { namespace: SendNamespace }, text: string): string => {
    const state = store.getState()
    if (state.resolvedReceiver && state.receiverAddress.trim() === text.trim()) return state.resolvedReceiver
    return parseReceiverAddress(ctx.namespace, text)
  }

  /** The account's namespace's send driver; a namespace without one cannot send (yet). */
  const driverOf = async (ctx: SendContext): Promise<SendDriver> => {
    const driver = await params.driver(ctx.namespace)
    if (!driver) throw new LatchSendError('unsupported_chain', SEND_MESSAGES.unsupportedChain)
    return driver
  }
  const estimateFee = async (ctx: SendContext, transfer: Transfer, overrides: FeeOverrides = {}): Promise<FeeEstimate> =>
    (await driverOf(ctx)).estimateFee(ctx, transfer, overrides, store.getState().tokenBalances)
  const readBalances = async (ctx: SendContext, token: TokenBalance) => (await driverOf(ctx)).readBalances(ctx, token)

  let reviewed: { ctx: SendContext; token: TokenBalance; to: string; amount: bigint; fee: FeeEstimate } | undefined

  const prepare = async (input: SendRequest, overrides: FeeOverrides) => {
    const ctx = context()
    const state = store.getState()
    const token = input.token ?? state.token
    const receiverText = input.receiver ?? state.receiverAddress
    const amountText = input.amount ?? state.sendTokenAmount
    // A name is resolved first; the spec's checks then run on the address.
    let receiver = receiverText
    if (receiverText.trim() && looksLikeName(receiverText)) {
      if (state.resolving) throw new LatchSendError('invalid_receiver', SEND_MESSAGES.nameNotResolved(receiverText.trim()))
      const resolved = state.receiverAddress.trim() === receiverText.trim() ? state.resolvedReceiver : await resolveName(ctx, receiverText)
      if (!resolved) throw new LatchSendError('invalid_receiver', SEND_MESSAGES.nameNotResolved(receiverText.trim()))
      receiver = resolved
    }
    const valid = validateSend({ namespace: ctx.namespace, token, amount: amountText, receiver })
    const to = valid.receiver
    const transfer: Transfer = { token: token!, to, amount: valid.amount }
    const native = isNativeBalance(token!)
    const balances = await readBalances(ctx, token!)
    // The amount alone first: no fee estimate is needed to refuse it.
    assertSufficientBalance({
      native,
      amount: valid.amount,
      fee: 0n,
      tokenBalance: balances.token,
      nativeBalance: balances.native,
      tokenSymbol: token!.symbol,
      nativeSymbol: ctx.chain.nativeCurrency.symbol,
    })
    let fee: FeeEstimate
    try {
      fee = await estimateFee(ctx, transfer, overrides)
    } catch (error) {
      // The node refusing to estimate because value + gas exceeds the balance is the same finding as ours.
      if (error instanceof LatchSendError && error.kind === 'insufficient_funds') {
        throw new LatchSendError('insufficient_balance', SEND_MESSAGES.insufficientForFee(ctx.chain.nativeCurrency.symbol), { cause: error })
      }
      throw error
    }
    assertSufficientBalance({
      native,
      amount: valid.amount,
      fee: fee.worstCase,
      tokenBalance: balances.token,
      nativeBalance: balances.native,
      tokenSymbol: token!.symbol,
      nativeSymbol: ctx.chain.nativeCurrency.symbol,
    })
    return { ctx, token: token!, to, amount: valid.amount, fee }
  }

  const resolveName = async (ctx: SendContext, name: string): Promise<string | null> => {
    const address = await (resolver ?? (await driverOf(ctx)).nameResolver()).resolve(name, ctx.chain)
    return address ? parseReceiverAddress(ctx.namespace === 'solana' ? 'solana' : 'eip155', address) : null
  }

  const afterSuccess = (driver: SendDriver, result: SendResult, token: TokenBalance, waitForReceipt: boolean) => {
    // latchd's balance route re-reads these at once (forceUpdate); the driver knows the native coin's id there.
    const tokens = isNativeBalance(token) ? [driver.nativeTokenId(result.chainId)] : [token.address!]
    const refresh = () => params.accountData.notifyTransaction({ hash: result.hash, chainId: result.chainId, caipNetworkId: token.chainId, tokens })
    if (!waitForReceipt) {
      refresh()
      return
    }
    // Balances and history change once the transaction is mined.
    void driver
      .waitForReceipt(result.chainId, result.hash, { timeoutMs: RECEIPT_TIMEOUT_MS, firstDelayMs: RECEIPT_RETRY_DELAY_MS })
      .then((status) => {
        if (status === 'reverted') params.notify.error(say(SEND_MESSAGES.reverted(undefined)))
      })
      .catch(() => {
        // Unknown outcome (timeout): refresh anyway, the views show what the chain says.
      })
      .finally(refresh)
  }

  const transmit = async (prepared: NonNullable<typeof reviewed>): Promise<SendResult> => {
    const { ctx, token, to, amount, fee } = prepared
    const chainId = ctx.chain.id
    const native = isNativeBalance(token)
    store.setState({ loading: true, error: undefined, errorKind: undefined })
    let hash: string
    let driver: SendDriver
    try {
      driver = await driverOf(ctx)
      hash = await driver.send(ctx, { token, to, amount }, fee)
    } catch (error) {
      store.setState({ loading: false })
      throw fail(error)
    }
    const explorer = ctx.chain.blockExplorers?.default
    const result: SendResult = {
      hash,
      chainId,
      explorerUrl: explorer ? `${explorer.url.replace(/\/+$/, '')}/tx/${hash}` : undefined,
      native,
    }
    reviewed = undefined
    // Spec §4: loading cleared, the form reset, balances refreshed, and token transfers back on Account.
    const { tokenBalances, networkBalanceInUSD } = store.getState()
    store.setState({ ...initialSendState, tokenBalances, networkBalanceInUSD, token: nativeOf(tokenBalances) })
    afterSuccess(driver, result, token, params.waitForReceipt ?? true)
    params.notify.success({
      message: say({ key: 'send.sent', params: { amount: formatDecimal(amount, tokenDecimals(token)), symbol: token.symbol } }),
      ...(result.explorerUrl
        ? { link: { url: result.explorerUrl, label: say(explorer ? { key: 'send.viewOn', params: { name: explorer.name } } : { key: 'send.viewTransaction' }) } }
        : {}),
    })
    params.returnToAccount()
    return result
  }

  // Spec §4: switching the network clears the form, and the balances belong to the old network.
  const unsubscribeNetwork = params.onNetworkSwitched?.(() => {
    controller.reset()
    store.setState({ tokenBalances: [], networkBalanceInUSD: undefined, token: undefined })
  })

  const controller: SendController = {
    store,

    setTokenBalances(balances) {
      const state = store.getState()
      // Keep the chosen token in step with fresh balances (same address on the same network).
      // With none chosen yet, the network's native coin is preselected.
      const token = state.token ? balances.find((b) => b.chainId === state.token!.chainId && b.address === state.token!.address) ?? state.token : nativeOf(balances)
      store.setState({ tokenBalances: balances, networkBalanceInUSD: networkBalanceInUsd(balances), token })
    },

    setToken(token) {
      store.setState({ token, ...clearReview })
    },

    setAmount(amount) {
      store.setState({ sendTokenAmount: amount, ...clearReview })
    },

    async setReceiver(receiver) {
      const seq = ++receiverSeq
      store.setState({
        receiverAddress: receiver,
        resolvedReceiver: undefined,
        receiverProfileName: undefined,
        receiverProfileImageUrl: undefined,
        resolving: false,
        ...clearReview,
      })
      const text = receiver.trim()
      const ctx = params.getContext()
      if (!text || !ctx) return
      try {
        let address: string | undefined
        if (looksLikeName(text)) {
          store.setState({ resolving: true })
          address = (await resolveName(ctx, text)) ?? undefined
          if (seq !== receiverSeq) return
          store.setState({ resolving: false })
          if (!address) {
            store.setState({ error: say(SEND_MESSAGES.nameNotResolved(text)), errorKind: 'invalid_receiver' })
            return
          }
          store.setState({ resolvedReceiver: address, receiverProfileName: text })
        } else {
          try {
            address = parseReceiverAddress(ctx.namespace === 'solana' ? 'solana' : 'eip155', text)
          } catch {
            return // reported by review(); typing is not an error yet
          }
          store.setState({ resolvedReceiver: address })
        }
        // Spec §5: name lookup is skipped on test networks and non-EVM chains.
        if (ctx.namespace !== 'eip155' || ctx.chain.testnet) return
        const identity = await params.accountData.fetchIdentity(address, ctx.address)
        if (seq !== receiverSeq) return
        store.setState({
          receiverProfileName: identity.name ?? store.getState().receiverProfileName,
          receiverProfileImageUrl: identity.avatar ?? undefined,
        })
      } catch (error) {
        if (seq !== receiverSeq) return
        store.setState({ resolving: false })
        fail(error)
      }
    },

    async setMax() {
      const state = store.getState()
      const token = state.token
      if (!token) {
        store.setState({ error: say(SEND_MESSAGES.tokenRequired), errorKind: 'missing_token' })
        return
      }
      const seq = ++estimateSeq
      store.setState({ estimating: true, error: undefined, errorKind: undefined })
      try {
        const ctx = context()
        const decimals = tokenDecimals(token)
        const balances = await readBalances(ctx, token)
        let fee = 0n
        if (isNativeBalance(token)) {
          // The fee of a plain transfer does not depend on the amount; estimate it to the receiver, or to self.
          let to = ctx.address
          try {
            to = receiverFor(ctx, state.receiverAddress)
          } catch {
            // no valid receiver yet
          }
          fee = (await estimateFee(ctx, { token, to, amount: 0n })).worstCase
        }
        if (seq !== estimateSeq) return
        const max = maxSendable({ native: isNativeBalance(token), balance: balances.token, fee })
        store.setState({ sendTokenAmount: formatDecimal(max, decimals), ...clearReview })
      } catch (error) {
        if (seq === estimateSeq) fail(error, 'estimate')
      } finally {
        if (seq === estimateSeq) store.setState({ estimating: false })
      }
    },

    async review(overrides = {}) {
      const seq = ++estimateSeq
      store.setState({ estimating: true, error: undefined, errorKind: undefined })
      try {
        const prepared = await prepare({}, overrides)
        if (seq !== estimateSeq) return false
        reviewed = prepared
        store.setState({ fee: prepared.fee, step: 'review', resolvedReceiver: prepared.to })
        return true
      } catch (error) {
        if (seq === estimateSeq) fail(error, 'estimate')
        return false
      } finally {
        if (seq === estimateSeq) store.setState({ estimating: false })
      }
    },

    edit() {
      reviewed = undefined
      store.setState({ step: 'form', error: undefined, errorKind: undefined })
    },

    async send() {
      if (store.getState().loading) throw localized(new LatchSendError('unknown', SEND_MESSAGES.alreadyRunning))
      if (!reviewed || store.getState().step !== 'review') {
        const ok = await controller.review()
        if (!ok || !reviewed) throw new LatchSendError(store.getState().errorKind ?? 'unknown', store.getState().error ?? say(SEND_MESSAGES.failed))
      }
      return transmit(reviewed)
    },

    async sendNow(request = {}) {
      if (store.getState().loading) throw localized(new LatchSendError('unknown', SEND_MESSAGES.alreadyRunning))
      let prepared: NonNullable<typeof reviewed>
      store.setState({ estimating: true, error: undefined, errorKind: undefined })
      try {
        prepared = await prepare(request, request)
      } catch (error) {
        throw fail(error, 'estimate')
      } finally {
        store.setState({ estimating: false })
      }
      return transmit(prepared)
    },

    reset() {
      receiverSeq++
      estimateSeq++
      reviewed = undefined
      const { tokenBalances, networkBalanceInUSD, loading } = store.getState()
      // A send in flight keeps its loading flag; it clears it when the wallet answers.
      store.setState({ ...initialSendState, tokenBalances, networkBalanceInUSD, loading, token: nativeOf(tokenBalances) })
    },

    setResolver(next) {
      resolver = next
    },

    destroy() {
      unsubscribeNetwork?.()
    },
  }
  return controller
}
