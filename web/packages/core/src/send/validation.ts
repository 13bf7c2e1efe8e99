// Send validation (spec §5): pure functions, no wallet and no network. The
// rules run in the spec's order and the first failure is reported, with the
// spec's message where it has one.
import { getAddress, isAddress } from 'viem'
import type { TokenBalance } from '../account/types'
import { InvalidDecimalError, parseDecimal } from './decimal'
import { LatchSendError, SEND_MESSAGES } from './errors'

/** Namespaces send supports (spec §5, §9). */
export const SEND_NAMESPACES = ['eip155', 'solana'] as const
/** A namespace send supports. */
export type SendNamespace = (typeof SEND_NAMESPACES)[number]

/** Whether send supports `namespace`. */
export function isSendNamespace(namespace: string): namespace is SendNamespace {
  return (SEND_NAMESPACES as readonly string[]).includes(namespace)
}

/** Throws "Unsupported chain" (spec §5) for a namespace other than eip155 and solana. */
export function assertSendNamespace(namespace: string): asserts namespace is SendNamespace {
  if (!isSendNamespace(namespace)) throw new LatchSendError('unsupported_chain', SEND_MESSAGES.unsupportedChain)
}

const hexAddress = /^0x[0-9a-fA-F]{40}$/
const solanaAddress = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/**
 * Checks a receiver address of `namespace` and returns its canonical form
 * (EIP-55 checksummed for eip155). An all-lower or all-upper hex address is
 * accepted as is; a mixed-case one must carry a valid checksum (spec §5
 * "checksum when strict"). Throws a LatchSendError 'invalid_receiver'.
 */
export function parseReceiverAddress(namespace: SendNamespace, value: string): string {
  const text = value.trim()
  if (namespace === 'solana') {
    if (!solanaAddress.test(text)) throw new LatchSendError('invalid_receiver', SEND_MESSAGES.invalidSolanaAddress(text))
    return text
  }
  if (!hexAddress.test(text)) throw new LatchSendError('invalid_receiver', SEND_MESSAGES.invalidAddress(text))
  const hex = text.slice(2)
  // EIP-55: a single-case address carries no checksum; a mixed-case one must carry a valid one.
  const mixedCase = hex !== hex.toLowerCase() && hex !== hex.toUpperCase()
  if (mixedCase && !isAddress(text, { strict: true })) throw new LatchSendError('invalid_receiver', SEND_MESSAGES.invalidChecksum(text))
  return getAddress(text.toLowerCase())
}

/**
 * Whether `value` looks like a name to resolve (e.g. `vitalik.eth`) rather
 * than an address: dotted labels, no spaces, not hex.
 */
export function looksLikeName(value: string): boolean {
  const text = value.trim()
  return /^[^\s.]+(\.[^\s.]+)+$/.test(text) && !text.startsWith('0x')
}

/** What a send needs from the form. */
export interface SendInput {
  readonly namespace: string
  readonly token: Pick<TokenBalance, 'symbol' | 'quantity'> | undefined
  /** Decimal text as typed. */
  readonly amount: string | undefined
  /** The receiver as typed (address). Names are resolved before validation. */
  readonly receiver: string | undefined
}

/** A validated send: amount in the token's smallest unit and the canonical receiver. */
export interface ValidSend {
  readonly namespace: SendNamespace
  readonly amount: bigint
  readonly decimals: number
  readonly receiver: string
}

/** The token's decimals from the balance shape (a string on the wire, api-shapes §3.1). */
export function tokenDecimals(token: Pick<TokenBalance, 'quantity'>): number {
  const decimals = Number(token.quantity.decimals)
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new LatchSendError('missing_token', `Token decimals "${token.quantity.decimals}" are not valid`)
  }
  return decimals
}

/**
 * Validates a send in spec order: namespace ("Unsupported chain"), amount and
 * receiver present ("An amount and receiver address are required"), token
 * ("A token is required"), the amount ("Number `x` is not a valid decimal
 * number.", then > 0; extra fraction digits are rounded to the token's
 * decimals), then the receiver address. Throws the first LatchSendError.
 */
export function validateSend(input: SendInput): ValidSend {
  assertSendNamespace(input.namespace)
  const amountText = input.amount?.trim() ?? ''
  const receiverText = input.receiver?.trim() ?? ''
  if (!amountText || !receiverText) throw new LatchSendError('missing_fields', SEND_MESSAGES.amountAndReceiverRequired)
  if (!input.token) throw new LatchSendError('missing_token', SEND_MESSAGES.tokenRequired)
  const decimals = tokenDecimals(input.token)
  let amount: bigint
  try {
    amount = parseDecimal(amountText, decimals)
  } catch (error) {
    if (error instanceof InvalidDecimalError) throw new LatchSendError('invalid_amount', SEND_MESSAGES.invalidDecimal(error.value), { cause: error })
    throw error
  }
  if (amount <= 0n) throw new LatchSendError('invalid_amount', SEND_MESSAGES.amountNotPositive)
  const receiver = parseReceiverAddress(input.namespace, receiverText)
  return { namespace: input.namespace, amount, decimals, receiver }
}

/** Balances and fee the sufficiency check compares, all in smallest units. */
export interface BalanceCheck {
  /** Whether the token sent is the network's native currency. */
  readonly native: boolean
  readonly amount: bigint
  /** Worst-case fee: gas limit × max fee per gas (or gas price). */
  readonly fee: bigint
  /** Balance of the token sent (equal to nativeBalance for a native send). */
  readonly tokenBalance: bigint
  readonly nativeBalance: bigint
  readonly tokenSymbol: string
  readonly nativeSymbol: string
}

/**
 * Catches an insufficient balance before the wallet is asked: native sends
 * need amount + fee; token sends need the amount in the token and the fee in
 * the native currency. Throws LatchSendError 'insufficient_balance'.
 */
export function assertSufficientBalance(check: BalanceCheck): void {
  if (check.native) {
    if (check.amount > check.nativeBalance) throw new LatchSendError('insufficient_balance', SEND_MESSAGES.insufficientToken(check.nativeSymbol))
    if (check.amount + check.fee > check.nativeBalance) {
      throw new LatchSendError('insufficient_balance', SEND_MESSAGES.insufficientForFee(check.nativeSymbol))
    }
    return
  }
  if (check.amount > check.tokenBalance) throw new LatchSendError('insufficient_balance', SEND_MESSAGES.insufficientToken(check.tokenSymbol))
  if (check.fee > check.nativeBalance) throw new LatchSendError('insufficient_balance', SEND_MESSAGES.insufficientFeeOnly(check.nativeSymbol))
}

/** Commitments a Solana node simulates a transaction at before sending it (spec §3 preflightCommitment). */
export const SOLANA_COMMITMENTS = ['processed', 'confirmed', 'finalized', 'recent', 'single', 'singleGossip', 'root', 'max'] as const
/** A Solana commitment. */
export type SolanaCommitment = (typeof SOLANA_COMMITMENTS)[number]

/** Solana's sign-and-send options (spec §3), passed to the wallet with the transaction. */
export interface SolanaSendOptions {
  /** Send without simulating first: a failing transaction lands, fails and pays its fee. */
  readonly skipPreflight?: boolean | undefined
  /** The commitment the preflight simulation runs at. */
  readonly preflightCommitment?: SolanaCommitment | undefined
  /** How often the node re-sends the transaction to the leader before giving up. */
  readonly maxRetries?: number | undefined
  /** The node refuses the transaction until it has seen this slot. */
  readonly minContextSlot?: number | undefined
}

/** Fee fields (eip155) and send options (solana) a caller may set on a send; each namespace refuses the other's. */
export interface FeeOverrides extends SolanaSendOptions {
  readonly gas?: bigint | undefined
  readonly gasPrice?: bigint | undefined
  readonly maxFeePerGas?: bigint | undefined
  readonly maxPriorityFeePerGas?: bigint | undefined
}

const wholeNumber = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

/**
 * Checks a Solana send's options and returns those set. EVM fee fields are
 * refused (a Solana fee is per signature, not gas), and so are values of the
 * wrong kind: a LatchSendError 'invalid_options' names the option.
 */
export function solanaSendOptions(options: FeeOverrides): SolanaSendOptions {
  const evm = (['gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const).filter((k) => options[k] !== undefined)
  if (evm.length) throw new LatchSendError('invalid_options', SEND_MESSAGES.evmFeeOnSolana(evm))
  const { skipPreflight, preflightCommitment, maxRetries, minContextSlot } = options
  if (skipPreflight !== undefined && typeof skipPreflight !== 'boolean') throw new LatchSendError('invalid_options', SEND_MESSAGES.skipPreflightNotBoolean)
  if (preflightCommitment !== undefined && !(SOLANA_COMMITMENTS as readonly unknown[]).includes(preflightCommitment)) {
    throw new LatchSendError('invalid_options', SEND_MESSAGES.unknownCommitment(String(preflightCommitment)))
  }
  if (maxRetries !== undefined && !wholeNumber(maxRetries)) throw new LatchSendError('invalid_options', SEND_MESSAGES.notWholeNumber('maxRetries', maxRetries))
  if (minContextSlot !== undefined && !wholeNumber(minContextSlot)) throw new LatchSendError('invalid_options', SEND_MESSAGES.notWholeNumber('minContextSlot', minContextSlot))
  return Object.fromEntries(Object.entries({ skipPreflight, preflightCommitment, maxRetries, minContextSlot }).filter(([, v]) => v !== undefined))
}

/** Whether any Solana send option is set (the eip155 driver refuses them). */
export function hasSolanaSendOptions(options: FeeOverrides): boolean {
  return options.skipPreflight !== undefined || options.preflightCommitment !== undefined || options.maxRetries !== undefined || options.minContextSlot !== undefined
}

/** Spec §8: a legacy gasPrice cannot be combined with EIP-1559 fee fields. */
export function assertFeeFields(fees: FeeOverrides): void {
  // An EVM send: Solana's options would be silently ignored, so they are refused.
  if (hasSolanaSendOptions(fees)) throw new LatchSendError('invalid_options', SEND_MESSAGES.solanaOptionOnEvm)
  if (fees.gasPrice !== undefined && (fees.maxFeePerGas !== undefined || fees.maxPriorityFeePerGas !== undefined)) {
    throw new LatchSendError('fee_conflict', SEND_MESSAGES.feeConflict)
  }
}

/** The largest amount of `token` that can be sent: its balance, less the fee for the native currency (never negative). */
export function maxSendable(params: { native: boolean; balance: bigint; fee: bigint }): bigint {
  if (!params.native) return params.balance
  const rest = params.balance - params.fee
  return rest > 0n ? rest : 0n
}
