// Types of the Sign-In-With-X configuration an app passes as `options.siwx`
// (spec §3 "Sign-in message", appkit-public-api `siwx`). The SIWX flow itself
// is wired later; the router already has its rules (canCloseModal, cancelSignIn).

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
  /** Whether sign-in is required (the sign-message view then cannot be closed). */
  getRequired?(): boolean
  signOutOnDisconnect?: boolean
}
