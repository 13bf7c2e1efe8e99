// The part of @walletconnect/universal-provider (2.21.8) the connector uses.
// Stating it here keeps the SDK's types (and code) out of the main chunk and
// lets unit tests drive the connector with a plain object.
import type { ProposalNamespaces } from '../proposal'
import type { Cacao } from './signIn'

/** One namespace of an approved session. */
export interface SessionNamespace {
  /** CAIP-10 accounts, e.g. `eip155:1:0xabc…`. */
  accounts: string[]
  methods: string[]
  events: string[]
  chains?: string[]
}

/** An approved WalletConnect session. */
export interface WalletConnectSession {
  topic: string
  /** Unix seconds after which the session is gone. */
  expiry?: number
  namespaces: Record<string, SessionNamespace>
  peer?: { metadata?: { name?: string; icons?: string[]; url?: string } }
}

/** A JSON-RPC request. */
export interface RpcRequest {
  method: string
  params?: unknown
}

/** The SDK's `UniversalProvider` as the connector sees it. */
export interface UniversalProviderLike {
  session?: WalletConnectSession | undefined
  /** Sub-providers by namespace; eip155's default chain is the one requests go to. */
  rpcProviders: Record<string, { getDefaultChain(): string } | undefined>
  /** Proposes a session (a new pairing, announced with `display_uri`) and resolves once the wallet approved it. */
  connect(params: { optionalNamespaces: ProposalNamespaces; pairingTopic?: string }): Promise<unknown>
  /** Deletes the session on both sides (wc_sessionDelete to the wallet). */
  disconnect(): Promise<void>
  /** Sends a request to the namespace's sub-provider for `chain` (CAIP-2). */
  request<T = unknown>(args: RpcRequest, chain?: string): Promise<T>
  /**
   * One-click sign-in: a wc_sessionAuthenticate request (a new pairing, announced with `display_uri`), answered
   * with the session and the CACAOs the wallet signed, or a plain session when the wallet cannot sign in this way.
   */
  authenticate(params: AuthenticateParams): Promise<{ session?: WalletConnectSession; auths?: readonly Cacao[] }>
  /** The message text a CACAO's signature is over (the SDK's formatMessage, recap statement included). */
  formatAuthMessage(cacao: Cacao): string
  /** Drops pairings no session uses; with deletePairings they expire at once so a late scan cannot connect. */
  cleanupPendingPairings(options?: { deletePairings?: boolean }): Promise<void>
  on(event: string, listener: (...args: never[]) => void): void
  removeListener(event: string, listener: (...args: never[]) => void): void
  /** The sign client, for requests the sub-provider would route elsewhere. */
  client: {
    request<T = unknown>(params: { topic: string; chainId: string; request: RpcRequest }): Promise<T>
  }
}

/** wc_sessionAuthenticate's parameters (AuthTypes.SessionAuthenticateParams of sign-client 2.21.8). */
export interface AuthenticateParams {
  /** CAIP-2 chains, all eip155. */
  chains: string[]
  domain: string
  /** The message's URI. */
  uri: string
  nonce: string
  statement?: string
  exp?: string
  nbf?: string
  requestId?: string
  resources?: string[]
  /** Methods the session may use; they become a ReCap resource and a sentence of the statement. */
  methods?: string[]
}

/** What the lazy loader needs to build a provider. */
export interface UniversalProviderInit {
  projectId: string
  relayUrl: string
  /** latchd's API URL: its RPC proxy answers the SDK's own RPC call (rpcReroute.ts). */
  apiUrl: string
  metadata: { name: string; description: string; url: string; icons: string[] }
  /** The SDK's console logging. */
  logLevel: string
}

/** Loads the SDK (a separate chunk) and initialises a provider. */
export type LoadUniversalProvider = (init: UniversalProviderInit) => Promise<UniversalProviderLike>
