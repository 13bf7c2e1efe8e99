// The seam between Latch and a chain namespace (CAIP-2: eip155, solana, …).
// Views and hooks never name a namespace: they ask the adapter registered for
// it (adapters/registry.ts) for ids and networks, and core's actions reach the
// wallet through the namespace's client. The Solana issue adds a second
// adapter beside eip155 without touching views.
import type { Chain } from 'viem'
import type { NativeBalance } from '../connection/balance'
import type { TokenBalance } from '../account/types'
import type { ConnectionState, NamespaceConnection } from '../connection/types'
import type { NameResolver } from '../send/resolver'
import type { FeeEstimate, SendContext } from '../send/types'
import type { FeeOverrides } from '../send/validation'

/**
 * A network the app configured: a viem Chain. A network of another namespace
 * (defineSolanaNetwork) carries its adapter and its CAIP-2 id, so the widget
 * loads that namespace's code only for an app that lists such a network.
 */
export type LatchNetwork = Chain & {
  /** The namespace adapter of a non-EVM network; absent for EVM chains. */
  readonly adapter?: NamespaceAdapter | undefined
  /** The CAIP-2 id of a non-EVM network (`solana:<genesis hash prefix>`). */
  readonly caipNetworkId?: string | undefined
  readonly chainNamespace?: string | undefined
}

/** A transaction an adapter sends: the receiver, the value in the smallest unit and optional call data. */
export interface AdapterTransaction {
  readonly to: string
  readonly value: bigint
  readonly data?: string | undefined
}

/** A validated transfer of the send form: an amount (smallest unit) of a token to a receiver address. */
export interface Transfer {
  readonly token: TokenBalance
  readonly to: string
  readonly amount: bigint
}

/**
 * What the send form asks of a namespace's chain and wallet. The send
 * controller holds the form, the spec's rules and the flow; the driver does
 * the chain's part. Failures reject with LatchSendError (toSendError).
 */
export interface SendDriver {
  /** The account's native and `token` balances, read on chain now (not from a cache). */
  readBalances(ctx: SendContext, token: TokenBalance): Promise<{ native: bigint; token: bigint }>
  /** The fee of the transfer, honouring the caller's overrides; USD from the prices in `balances`. */
  estimateFee(ctx: SendContext, transfer: Transfer, overrides: FeeOverrides, balances: readonly TokenBalance[]): Promise<FeeEstimate>
  /** Sends the transfer through the connected wallet with the reviewed fee; resolves with the transaction's hash. */
  send(ctx: SendContext, transfer: Transfer, fee: FeeEstimate): Promise<string>
  /** Waits for the transaction's outcome; rejects after timeoutMs. */
  waitForReceipt(chainId: number, hash: string, options: { timeoutMs: number; firstDelayMs: number }): Promise<'success' | 'reverted'>
  /** The id latchd's balance route knows the network's native coin by (for its refresh after a send). */
  nativeTokenId(chainId: number): string
  /** The namespace's default receiver-name resolver (an app may set its own). */
  nameResolver(): NameResolver
}

/**
 * A chain namespace's client bound to one Latch instance. Every method that
 * talks to a wallet rejects with the namespace's error types (LatchConnectError,
 * LatchDisconnectError, LatchSwitchNetworkError) rather than resolving silently;
 * a capability the namespace lacks rejects with an Error saying so.
 */
export interface NamespaceClient {
  /** Connects the wallet behind `connectorId`, asking for `chainId` first when given. */
  connect(connectorId: string, options?: { chainId?: number | undefined }): Promise<NamespaceConnection>
  /** Restores the stored connection at start-up (spec §4); never rejects. */
  reconnect(): Promise<void>
  /** Disconnects this namespace (and those sharing its session, spec §4). */
  disconnect(): Promise<void>
  /**
   * A namespace that keeps several connections itself (Solana's; eip155's are wagmi's): disconnects the wallet of
   * `connectorId` only, another becoming active when it was the active one. Its `connect` of a wallet already
   * connected makes that one active without a prompt, and `disconnect` ends the active one.
   */
  disconnectConnection?(connectorId: string): Promise<void>
  /** The namespace's connection now: status, account, chain, wallet. */
  account(state?: ConnectionState): NamespaceConnection
  /** The native balance of an account on a network. */
  balance(params: { address: string; chainId: number }): Promise<NativeBalance>
  /** The send form's driver for this namespace; its code loads on first use (the send chunk). */
  sendDriver(): Promise<SendDriver>
  /** Sends a transaction through the connected wallet; resolves with its hash. */
  sendTransaction(params: { chainId: number; from: string; transaction: AdapterTransaction }): Promise<string>
  /** Asks the connected wallet to sign a message; resolves with the signature. */
  signMessage(params: { message: string; address: string }): Promise<string>
  /** Asks the connected wallet to switch to `network`. */
  switchNetwork(network: LatchNetwork): Promise<void>
  /** The connected wallet's own provider (EIP-1193 for eip155), if any. */
  provider(): Promise<unknown>
}

/** What an adapter's client is built from: the instance's connection layer. */
export interface NamespaceClientContext {
  readonly connection: import('../connection/controller').ConnectionController
  /** The instance (its parts are read when a namespace's code loads, after createLatch has returned). */
  readonly latch?: (() => import('../latch-types').Latch) | undefined
}

/** A chain namespace: how its ids read (pure, for views) and how to reach its wallets (per instance). */
export interface NamespaceAdapter {
  /** The CAIP-2 namespace, e.g. `eip155`. */
  readonly namespace: string
  /** Whether a configured network belongs to this namespace. */
  ownsNetwork(network: LatchNetwork): boolean
  /** The CAIP-2 id of one of this namespace's networks (`eip155:1`). */
  caipNetworkId(network: LatchNetwork): string
  /** The networks (of those configured) an address of this namespace is valid on. */
  networksForAddress(address: string, networks: readonly LatchNetwork[]): LatchNetwork[]
  /** Binds the adapter to one Latch instance. */
  createClient(context: NamespaceClientContext): NamespaceClient
}
