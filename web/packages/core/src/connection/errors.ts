// Error mapping for wallet connections (spec §8: "The wallet's own
// user-rejected and connection-reset messages map to a user-rejected error").

/**
 * Wallet error codes that mean "the user said no": EIP-1193 4001, and the
 * WalletConnect codes 5000 (user rejected) and 5002 (user rejected methods).
 */
const userRejectedCodes: ReadonlySet<number> = new Set([4001, 5000, 5002])

/**
 * Messages wallets use instead of (or on top of) code 4001. "connection
 * (request) reset" is what WalletConnect reports when the user dismisses the
 * pairing; spec §8 maps it to user-rejected as well.
 */
const userRejectedMessage = /user rejected|user denied|user cancell?ed|rejected the request|connection (request )?reset/i

/** How far down an error's `cause` chain we look (viem wraps errors 2–3 deep). */
const maxCauseDepth = 8

/**
 * Reports whether a wallet error means the user rejected or dismissed the
 * request: code 4001 (also 5000/5002 from WalletConnect) anywhere in the
 * `cause` chain, viem's `UserRejectedRequestError`, or a rejection message.
 */
export function isUserRejectedError(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < maxCauseDepth && current != null; depth++) {
    if (typeof current === 'string') return userRejectedMessage.test(current)
    if (typeof current !== 'object') return false
    const { code, name, message, shortMessage, details } = current as Record<string, unknown>
    if (typeof code === 'number' && userRejectedCodes.has(code)) return true
    if (name === 'UserRejectedRequestError') return true
    for (const text of [message, shortMessage, details]) {
      if (typeof text === 'string' && userRejectedMessage.test(text)) return true
    }
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/** Why a connect failed: the user declined, or anything else. */
export type ConnectErrorKind = 'user_rejected' | 'unknown'

/** Thrown by `connect()`; `kind` drives the UI (a decline is not an error toast). */
export class LatchConnectError extends Error {
  override readonly name = 'LatchConnectError'
  readonly kind: ConnectErrorKind
  /** The wallet's numeric error code when it gave one (e.g. 4001, -32002). */
  readonly code: number | undefined

  constructor(kind: ConnectErrorKind, message: string, options?: { cause?: unknown; code?: number }) {
    super(message, { cause: options?.cause })
    this.kind = kind
    this.code = options?.code
  }
}

/** Thrown by `disconnect()` after local state was reset anyway (spec §4 DISCONNECT_ERROR). */
export class LatchDisconnectError extends Error {
  override readonly name = 'LatchDisconnectError'
  /** Event name of spec §4, for the caller's event stream. */
  readonly event = 'DISCONNECT_ERROR'

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { cause: options?.cause })
  }
}

/**
 * Why a network switch failed: the user declined, the connector cannot switch
 * programmatically, the chain is not configured, or anything else (spec §8
 * names the middle two).
 */
export type SwitchNetworkErrorKind = 'user_rejected' | 'switch_not_supported' | 'chain_not_configured' | 'unknown'

/** Thrown by `switchChain()` and `Latch.switchNetwork()`. */
export class LatchSwitchNetworkError extends Error {
  override readonly name = 'LatchSwitchNetworkError'
  readonly kind: SwitchNetworkErrorKind
  /** The wallet's numeric error code when it gave one (e.g. 4001). */
  readonly code: number | undefined

  constructor(kind: SwitchNetworkErrorKind, message: string, options?: { cause?: unknown; code?: number | undefined }) {
    super(message, { cause: options?.cause })
    this.kind = kind
    this.code = options?.code
  }
}

/** Maps whatever wagmi or the wallet threw during a switch to a {@link LatchSwitchNetworkError}. */
export function toSwitchNetworkError(error: unknown): LatchSwitchNetworkError {
  if (error instanceof LatchSwitchNetworkError) return error
  const code = findCode(error)
  if (isUserRejectedError(error)) return new LatchSwitchNetworkError('user_rejected', userRejectedMessageText, { cause: error, code })
  const name = (error as { name?: unknown } | null)?.name
  if (name === 'SwitchChainNotSupportedError') {
    return new LatchSwitchNetworkError('switch_not_supported', messageOf(error), { cause: error, code })
  }
  if (name === 'ChainNotConfiguredError') {
    return new LatchSwitchNetworkError('chain_not_configured', messageOf(error), { cause: error, code })
  }
  return new LatchSwitchNetworkError('unknown', messageOf(error), { cause: error, code })
}

/** The message shown when a connect is declined. */
export const userRejectedMessageText = 'User rejected the request.'

/** Maps whatever a wallet threw during connect to a {@link LatchConnectError}. */
export function toConnectError(error: unknown): LatchConnectError {
  if (error instanceof LatchConnectError) return error
  const code = findCode(error)
  if (isUserRejectedError(error)) {
    return new LatchConnectError('user_rejected', userRejectedMessageText, { cause: error, code })
  }
  return new LatchConnectError('unknown', messageOf(error), { cause: error, code })
}

/** The most specific human message of an error: viem's shortMessage, else message. */
export function messageOf(error: unknown): string {
  if (typeof error === 'string' && error) return error
  if (error && typeof error === 'object') {
    const { shortMessage, message } = error as { shortMessage?: unknown; message?: unknown }
    if (typeof shortMessage === 'string' && shortMessage) return shortMessage
    if (typeof message === 'string' && message) return message
  }
  return 'Unknown error'
}

function findCode(error: unknown): number | undefined {
  let current: unknown = error
  for (let depth = 0; depth < maxCauseDepth && current && typeof current === 'object'; depth++) {
    const { code } = current as { code?: unknown }
    if (typeof code === 'number') return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}
