// One-click sign-in over WalletConnect (spec §5: the pairing protocol's sign-in
// is used only when every chain is eip155): instead of a session proposal the
// connector sends the wallet a wc_sessionAuthenticate request carrying the
// sign-in message's fields; the wallet signs it once (a CACAO, CAIP-74) and the
// session comes with it. The sign-in flow (siwx/flow, an instance with
// `options.siwx`) gives a connector the hook below; the connector's session
// chunk asks for it. Both are lazy chunks: nothing here is in the first load.

/** The sign-in message's fields the wallet is asked to sign (wc_sessionAuthenticate's authPayload). */
export interface WalletConnectSignInRequest {
  readonly domain: string
  readonly uri: string
  readonly nonce: string
  readonly statement?: string
  readonly expirationTime?: string
  readonly notBefore?: string
  readonly requestId?: string
  readonly resources?: readonly string[]
}

/** One sign-in the wallet returned: the CACAO, and the message text it signed with its signature. */
export interface WalletConnectSignedIn {
  /** CAIP-10 account of the CACAO's issuer (`eip155:1:0x…`). */
  readonly account: string
  readonly message: string
  readonly signature: string
  readonly cacao: unknown
}

/** What the sign-in flow gives a WalletConnect connector. */
export interface WalletConnectSignIn {
  /** The fields to sign for a sign-in on `chainId` (CAIP-2), with a fresh nonce. */
  request(chainId: string): Promise<WalletConnectSignInRequest>
  /** Stores the sessions of what the wallet signed; a refusal rejects (the connection is then undone). */
  complete(signedIn: readonly WalletConnectSignedIn[]): Promise<void>
}

/**
 * The property of a connector's wagmi emitter (which the connector and its config share) that holds its hook. A
 * global symbol rather than a module's map: siwx/flow sets it without importing this module, so the two lazy chunks
 * share no chunk (a shared chunk would be one more file name in the page's first load).
 */
export const WALLET_CONNECT_SIGN_IN = Symbol.for('@latchkit/core walletConnect sign-in')

type WithSignIn = { [WALLET_CONNECT_SIGN_IN]?: WalletConnectSignIn | undefined }

/** setWalletConnectSignIn gives the connector with `emitter` its sign-in hook (undefined takes it back). */
export function setWalletConnectSignIn(emitter: object, hook: WalletConnectSignIn | undefined): void {
  ;(emitter as WithSignIn)[WALLET_CONNECT_SIGN_IN] = hook
}

/** walletConnectSignIn is the sign-in hook of the connector with `emitter`, if its instance has one. */
export function walletConnectSignIn(emitter: object): WalletConnectSignIn | undefined {
  return (emitter as WithSignIn)[WALLET_CONNECT_SIGN_IN]
}

/** The CACAO fields the connector reads (AuthTypes.Cacao of sign-client 2.21.8). */
export interface Cacao {
  readonly h: { readonly t: string }
  readonly p: { readonly iss: string; readonly domain: string; readonly aud: string; readonly nonce: string; readonly [key: string]: unknown }
  readonly s: { readonly t: string; readonly s: string }
}

/** accountOfIssuer is the CAIP-10 account of a CACAO issuer (`did:pkh:eip155:1:0x…` → `eip155:1:0x…`). */
export function accountOfIssuer(iss: string): string | undefined {
  const account = iss.startsWith('did:pkh:') ? iss.slice('did:pkh:'.length) : undefined
  return account && account.split(':').length === 3 ? account : undefined
}
