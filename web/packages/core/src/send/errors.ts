// Send errors: one class with a kind the UI can act on, the spec's messages
// (§5, §8), and the mapping of wallet and node failures to them. Node messages
// are matched the way viem's getNodeError does (its error classes carry the
// same patterns), so an error that arrives as plain JSON-RPC text from a
// wallet maps the same as one viem already classified.
import { isUserRejectedError, messageOf } from '../connection/errors'
import { lookup, messages, type MessageParams } from '../messages'
import { sendStrings, type SendStringKey } from './strings'

/** Why a send cannot go ahead, or why it failed. */
export type SendErrorKind =
  /** Spec §5: a namespace other than eip155 and solana. */
  | 'unsupported_chain'
  /** Spec §5: amount or receiver missing. */
  | 'missing_fields'
  /** Spec §5: no token chosen. */
  | 'missing_token'
  /** Not a decimal number, zero or negative, or more fraction digits than the token has. */
  | 'invalid_amount'
  /** Not an address of the namespace, a bad checksum, or a name that did not resolve. */
  | 'invalid_receiver'
  /** Caught before the wallet is asked: amount (+ fee) above the balance. */
  | 'insufficient_balance'
  /** Spec §8: both gasPrice and maxFeePerGas/maxPriorityFeePerGas given. */
  | 'fee_conflict'
  /** A send option of the wrong kind, or of another namespace (Solana's send options, EVM fee fields). */
  | 'invalid_options'
  /** The visitor declined in the wallet. */
  | 'user_rejected'
  /** The node says the account cannot pay value + gas. */
  | 'insufficient_funds'
  /** Gas limit too low or too high. */
  | 'gas'
  /** Fee cap or tip rejected by the node. */
  | 'fee'
  /** Nonce too low, too high or at its maximum. */
  | 'nonce'
  /** The transaction (or its estimate) reverted. */
  | 'reverted'
  /** Gas could not be estimated for another reason. */
  | 'estimate_failed'
  | 'unknown'

/** Keys of core's first-load catalogue the send flow's messages also use. */
type CoreSendKey = 'error.unsupportedChain' | 'send.amountAndReceiverRequired' | 'send.tokenRequired'

/** A visitor-facing send message: a key of sendStrings (or of core's catalogue) and its `{name}` params. */
export interface SendMessage {
  readonly key: SendStringKey | CoreSendKey
  readonly params?: MessageParams
}

const english: Readonly<Record<string, string>> = {
  ...sendStrings,
  'error.unsupportedChain': messages.en['error.unsupportedChain'],
  'send.amountAndReceiverRequired': messages.en['send.amountAndReceiverRequired'],
  'send.tokenRequired': messages.en['send.tokenRequired'],
}

/** sendText is a send message in a locale's catalogue (English without one). */
export function sendText(message: SendMessage, catalogue?: Readonly<Record<string, string>>, locale?: string): string {
  return lookup(english, message.key, message.params, catalogue, locale)
}

/**
 * A send that cannot go ahead or failed; `message` is what the UI shows: in
 * English when thrown, in the visitor's language once the send controller has
 * recorded it (localizeSendError). `kind` is the same in every language.
 */
export class LatchSendError extends Error {
  override readonly name = 'LatchSendError'
  readonly kind: SendErrorKind
  /** The wallet's or node's numeric code when there was one. */
  readonly code: number | undefined
  /** The visitor-facing message's key and params; undefined for a wallet's, node's or developer's own text. */
  readonly text: SendMessage | undefined

  constructor(
    kind: SendErrorKind,
    message: string | SendMessage,
    options?: { cause?: unknown; code?: number | undefined; catalogue?: Readonly<Record<string, string>> | undefined; locale?: string | undefined },
  ) {
    super(typeof message === 'string' ? message : sendText(message, options?.catalogue, options?.locale), { cause: options?.cause })
    this.kind = kind
    this.code = options?.code
    this.text = typeof message === 'string' ? undefined : message
  }
}

/** localizeSendError returns the error with its message in the locale's catalogue (the same error when it has no key). */
export function localizeSendError(error: LatchSendError, catalogue: Readonly<Record<string, string>> | undefined, locale: string): LatchSendError {
  if (!error.text || !catalogue) return error
  return new LatchSendError(error.kind, error.text, { cause: error.cause, code: error.code, catalogue, locale })
}

const message = (key: SendMessage['key'], params?: MessageParams): SendMessage => (params ? { key, params } : { key })

/**
 * The spec's exact messages (§5, §8) and ours where the spec has none: a
 * SendMessage for what the visitor sees, English text for what only an app
 * developer can cause (send options of the wrong kind or namespace).
 */
export const SEND_MESSAGES = {
  unsupportedChain: message('error.unsupportedChain'),
  amountAndReceiverRequired: message('send.amountAndReceiverRequired'),
  tokenRequired: message('send.tokenRequired'),
  feeConflict: 'Cannot specify both gasPrice and maxFeePerGas/maxPriorityFeePerGas',
  estimateGas: message('send.estimateGas'),
  userRejected: message('send.userRejected'),
  amountNotPositive: message('send.amountNotPositive'),
  invalidDecimal: (value: string) => message('send.invalidDecimal', { value }),
  invalidAddress: (value: string) => message('send.invalidAddress', { value }),
  invalidChecksum: (value: string) => message('send.invalidChecksum', { value }),
  invalidSolanaAddress: (value: string) => message('send.invalidSolanaAddress', { value }),
  nameNotResolved: (name: string) => message('send.nameNotResolved', { name }),
  namesUnsupported: (network: string) => message('send.namesUnsupported', { network }),
  insufficientToken: (symbol: string) => message('send.insufficientToken', { symbol }),
  insufficientForFee: (symbol: string) => message('send.insufficientForFee', { symbol }),
  insufficientFeeOnly: (symbol: string) => message('send.insufficientFeeOnly', { symbol }),
  insufficientFunds: message('send.insufficientFunds'),
  gasTooLow: message('send.gasTooLow'),
  gasTooHigh: message('send.gasTooHigh'),
  feeCapTooLow: message('send.feeCapTooLow'),
  feeCapTooHigh: message('send.feeCapTooHigh'),
  tipAboveFeeCap: message('send.tipAboveFeeCap'),
  nonce: message('send.nonce'),
  reverted: (reason: string | undefined) => (reason ? message('send.reverted', { reason }) : message('send.revertedUnknown')),
  evmFeeOnSolana: (fields: readonly string[]) =>
    `${fields.join(', ')} ${fields.length > 1 ? 'are EVM fee fields' : 'is an EVM fee field'}; a Solana send takes skipPreflight, preflightCommitment, maxRetries and minContextSlot`,
  solanaOptionOnEvm: 'skipPreflight, preflightCommitment, maxRetries and minContextSlot are Solana send options; an EVM send takes gas, gasPrice, maxFeePerGas and maxPriorityFeePerGas',
  skipPreflightNotBoolean: 'skipPreflight must be true or false',
  unknownCommitment: (value: string) => `preflightCommitment must be one of processed, confirmed, finalized, recent, single, singleGossip, root or max, not "${value}"`,
  notWholeNumber: (option: string, value: unknown) => `${option} must be a whole number of 0 or more, not ${JSON.stringify(value)}`,
  solanaTransactionFailed: (reason: string) => message('send.solanaTransactionFailed', { reason }),
  wrongChain: (walletChain: number, chainId: number) => message('send.wrongChain', { walletChain, chainId }),
  wrongSolanaAccount: (account: string, from: string) => message('send.wrongSolanaAccount', { account, from }),
  solanaCannotSign: (wallet: string) => message('send.solanaCannotSign', { wallet }),
  alreadyRunning: message('send.alreadyRunning'),
  failed: message('send.failed'),
} as const

/** A node error pattern and what it means. */
interface NodeErrorRule {
  readonly names: readonly string[]
  readonly pattern: RegExp
  readonly kind: SendErrorKind
  readonly message: SendMessage
}

// Patterns as go-ethereum, Nethermind, Erigon and Besu word them (viem's
// getNodeError uses the same ones); order matters: the first match wins.
const nodeErrorRules: readonly NodeErrorRule[] = [
  {
    names: ['InsufficientFundsError'],
    pattern: /insufficient funds|exceeds transaction sender account balance/i,
    kind: 'insufficient_funds',
    message: SEND_MESSAGES.insufficientFunds,
  },
  {
    names: ['FeeCapTooHighError'],
    pattern: /max fee per gas higher than 2\^256-1|fee cap higher than 2\^256-1/i,
    kind: 'fee',
    message: SEND_MESSAGES.feeCapTooHigh,
  },
  {
    names: ['FeeCapTooLowError'],
    pattern: /max fee per gas less than block base fee|fee cap less than block base fee|transaction is outdated/i,
    kind: 'fee',
    message: SEND_MESSAGES.feeCapTooLow,
  },
  {
    names: ['TipAboveFeeCapError'],
    pattern: /max priority fee per gas higher than max fee per gas|tip higher than fee cap/i,
    kind: 'fee',
    message: SEND_MESSAGES.tipAboveFeeCap,
  },
  { names: ['IntrinsicGasTooHighError'], pattern: /intrinsic gas too high|gas limit reached/i, kind: 'gas', message: SEND_MESSAGES.gasTooHigh },
  { names: ['IntrinsicGasTooLowError'], pattern: /intrinsic gas too low|out of gas/i, kind: 'gas', message: SEND_MESSAGES.gasTooLow },
  {
    names: ['NonceTooHighError', 'NonceTooLowError', 'NonceMaxValueError'],
    pattern: /nonce too (high|low)|transaction already imported|already known|nonce has max value/i,
    kind: 'nonce',
    message: SEND_MESSAGES.nonce,
  },
]

const revertPattern = /execution reverted|reverted/i
const maxCauseDepth = 8

/** Every error of a cause chain, outermost first. */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = []
  let current: unknown = error
  for (let depth = 0; depth < maxCauseDepth && current != null; depth++) {
    chain.push(current)
    if (typeof current !== 'object') break
    current = (current as { cause?: unknown }).cause
  }
  return chain
}

function textsOf(error: unknown): string[] {
  if (typeof error === 'string') return [error]
  if (!error || typeof error !== 'object') return []
  const { message, shortMessage, details } = error as Record<string, unknown>
  return [details, shortMessage, message].filter((x): x is string => typeof x === 'string' && x !== '')
}

function codeOf(chain: readonly unknown[]): number | undefined {
  for (const e of chain) {
    const code = (e as { code?: unknown } | null)?.code
    if (typeof code === 'number') return code
  }
  return undefined
}

/** The revert reason viem or the node gave, when there is one. */
function revertReason(chain: readonly unknown[]): string | undefined {
  for (const e of chain) {
    const reason = (e as { reason?: unknown } | null)?.reason
    if (typeof reason === 'string' && reason) return reason
  }
  for (const e of chain) {
    for (const text of textsOf(e)) {
      const match = /execution reverted:?\s*(.+)/i.exec(text)
      if (match?.[1]) return match[1].split('\n')[0]!.trim()
    }
  }
  return undefined
}

/**
 * Maps whatever a wallet, viem or the node threw during a fee estimate or a
 * send to a {@link LatchSendError}: user rejection (4001 and the wallets'
 * wording), the node's gas/fee/nonce/balance messages, reverts, viem's fee
 * conflict. `stage` 'estimate' turns an unclassified failure into the spec's
 * "error estimating gas".
 */
export function toSendError(error: unknown, stage: 'estimate' | 'send' = 'send'): LatchSendError {
  if (error instanceof LatchSendError) return error
  const chain = causeChain(error)
  const code = codeOf(chain)
  if (isUserRejectedError(error)) return new LatchSendError('user_rejected', SEND_MESSAGES.userRejected, { cause: error, code })
  for (const e of chain) {
    if ((e as { name?: unknown } | null)?.name === 'FeeConflictError') {
      return new LatchSendError('fee_conflict', SEND_MESSAGES.feeConflict, { cause: error, code })
    }
  }
  for (const rule of nodeErrorRules) {
    const matched = chain.some((e) => {
      const name = (e as { name?: unknown } | null)?.name
      return (typeof name === 'string' && rule.names.includes(name)) || textsOf(e).some((text) => rule.pattern.test(text))
    })
    if (matched) return new LatchSendError(rule.kind, rule.message, { cause: error, code })
  }
  const reverted = chain.some((e) => {
    const name = (e as { name?: unknown } | null)?.name
    return name === 'ExecutionRevertedError' || name === 'ContractFunctionRevertedError' || textsOf(e).some((t) => revertPattern.test(t))
  })
  if (reverted) {
    return new LatchSendError('reverted', SEND_MESSAGES.reverted(revertReason(chain)), { cause: error, code })
  }
  if (stage === 'estimate') return new LatchSendError('estimate_failed', SEND_MESSAGES.estimateGas, { cause: error, code })
  return new LatchSendError('unknown', messageOf(error), { cause: error, code })
}
