// Types of Sign-In-With-X (spec §3 "Sign-in message", appkit-public-api
// `siwx`): the configuration an app passes as `options.siwx` (its own, or
// latchSiwx() backed by latchd) and the sign-in state the widget keeps.
// The flow is in ./siwx/flow (a lazy chunk), loaded by init() when
// `options.siwx` is set.

/** The fields of a sign-in message (spec §3). */
export interface SIWXMessageData {
  readonly accountAddress: string
  /** CAIP-2 network id. */
  readonly chainId: string
  readonly domain: string
  readonly uri: string
  readonly version: string
  readonly nonce: string
  readonly statement?: string
  readonly issuedAt?: string
  readonly expirationTime?: string
  readonly notBefore?: string
  readonly requestId?: string
  readonly resources?: readonly string[]
}

/** A sign-in message: its data and its text form. */
export interface SIWXMessage extends SIWXMessageData {
  toString(): string
}

/** A stored sign-in session (spec §3). */
export interface SIWXSession {
  readonly data: SIWXMessageData
  readonly message: string
  readonly signature: string
  readonly cacao?: unknown
}

/** The SIWX configuration an app supplies. */
export interface SIWXConfig {
  createMessage(input: { readonly accountAddress: string; readonly chainId: string }): Promise<SIWXMessage>
  addSession(session: SIWXSession): Promise<void>
  revokeSession(chainId: string, address: string): Promise<void>
  setSessions(sessions: readonly SIWXSession[]): Promise<void>
  getSessions(chainId: string, address: string): Promise<readonly SIWXSession[]>
  /** Signs the message itself instead of the connected wallet's personal_sign / solana_signMessage. */
  signMessage?(input: { readonly message: string; readonly accountAddress: string; readonly chainId: string }): Promise<string>
  /** Whether sign-in is required (the sign-message view then cannot be closed). */
  getRequired?(): boolean
  signOutOnDisconnect?: boolean
}

/**
 * Where the connected account's sign-in stands: `disabled` (no `siwx`
 * option), `checking` (asking the config for a session), `signed-out` (none;
 * SIWXSignMessage asks for one), `signing` (the wallet is asked to sign, then
 * the session is stored), `signed-in`.
 */
export type LatchSessionStatus = 'disabled' | 'checking' | 'signed-out' | 'signing' | 'signed-in'

/** The sign-in slice of an instance (present once the sign-in flow started). */
export interface SiwxState {
  readonly status: LatchSessionStatus
  /** siwx.getRequired() when the flow started. */
  readonly required: boolean
  /** The connected account's session, when signed in. */
  readonly session: SIWXSession | undefined
  /** The account (CAIP-10) the state is about; undefined while disconnected. */
  readonly account: string | undefined
  /** The last sign-in's failure as shown to the visitor ('Signature declined', spec §8), until the next attempt. */
  readonly error: string | undefined
}
