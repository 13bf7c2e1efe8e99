// Types of the connection layer. Kept local to this module on purpose: the
// connection controller must not depend on the rest of @latchkit/core.
import type { KeyValueStorage } from '../storage'
import type { SliceFactory } from '../store'
import type { Config, CreateConnectorFn } from '@wagmi/core'
import type { Address, Chain } from 'viem'
import type { NativeBalance } from './balance.js'
import type { ConnectionListener } from './state.js'

/** Every chain namespace Latch knows about (CAIP-2 namespaces, spec §3). */
export type ChainNamespace = 'eip155' | 'solana' | 'bip122' | 'polkadot' | 'cosmos'

/**
 * Namespaces this controller drives today. Adding 'solana' here (and a driver
 * for it) is how a new namespace slots into the state.
 */
export type SupportedNamespace = Extract<ChainNamespace, 'eip155'>

/**
 * Connection status of one namespace (spec §4). 'reconnecting' is the state a
 * namespace is in at startup while a stored connection is being restored — the
 * spec calls this "connecting"; we keep the two apart so the UI can tell a user-
 * initiated prompt (connecting) from a silent restore (reconnecting).
 */
export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected' | 'reconnecting'

/** Connector types of spec §3. */
export type ConnectorType =
  | 'MULTI_CHAIN'
  | 'ANNOUNCED'
  | 'INJECTED'
  | 'EXTERNAL'
  | 'WALLET_CONNECT'
  | 'AUTH'
  | 'ID_AUTH'

/** A connector the visitor can pick (spec §3 Connector, without the live provider). */
export interface ConnectorInfo {
  /** The wagmi connector id; for EIP-6963 wallets this is the announced rdns. */
  readonly id: string
  readonly name: string
  /** Data URI from the EIP-6963 announcement, or the connector's own icon. */
  readonly icon: string | undefined
  readonly rdns: string | undefined
  readonly type: ConnectorType
  readonly namespace: ChainNamespace
}

/** The wallet behind a connection (spec §3 "Connected wallet info"). */
export interface ConnectedWalletInfo {
  readonly name: string
  readonly icon: string | undefined
  readonly rdns: string | undefined
}

/** State of one namespace's connection. Fields other than status are undefined when disconnected. */
export interface NamespaceConnection {
  readonly status: ConnectionStatus
  readonly address: Address | undefined
  /** CAIP-10 account id, `eip155:<chainId>:<address>`. */
  readonly caipAddress: string | undefined
  readonly chainId: number | undefined
  readonly connectorId: string | undefined
  readonly wallet: ConnectedWalletInfo | undefined
}

/**
 * One wallet connected in a namespace. A visitor may connect several wallets
 * per namespace (wagmi keeps each connector's connection); exactly one of them
 * is active and drives the namespace's account.
 */
export interface WalletConnection {
  readonly namespace: ChainNamespace
  /** The connector's id (for announced wallets, the rdns): what switchConnection and disconnectConnection take. */
  readonly connectorId: string
  readonly name: string
  readonly icon: string | undefined
  readonly rdns: string | undefined
  /** Every address the wallet shared with the page, the one in use first. */
  readonly accounts: readonly string[]
  readonly chainId: number | undefined
  /** Whether this connection is the namespace's active one. */
  readonly isActive: boolean
}

/** Immutable snapshot of the whole connection layer. */
export interface ConnectionState {
  /** Per namespace; `solana` is written by the Solana adapter (for apps that list a Solana network). */
  readonly namespaces: Readonly<Record<SupportedNamespace, NamespaceConnection>> & { readonly solana?: NamespaceConnection }
  /** Available connectors, updated as EIP-6963 wallets announce themselves. */
  readonly connectors: readonly ConnectorInfo[]
  /** Solana wallets found through the Wallet Standard (written by the Solana adapter), as announced connectors. */
  readonly walletStandard?: readonly ConnectorInfo[]
  /**
   * The Solana wallets connected (written by the Solana adapter beside namespaces.solana, the active one's
   * account): every Wallet Standard wallet the visitor connected, the active one first.
   */
  readonly solanaConnections?: readonly WalletConnection[]
}

/** The subset of the Web Storage API the controller uses: core's KeyValueStorage. */
export type StorageLike = KeyValueStorage

/** A namespace with nothing connected. */
export const disconnectedNamespace: NamespaceConnection = Object.freeze({
  status: 'disconnected',
  address: undefined,
  caipAddress: undefined,
  chainId: undefined,
  connectorId: undefined,
  wallet: undefined,
})

/** Parameters of {@link createConnectionController}. */
export interface ConnectionControllerParameters {
  /** The networks the app supports; the first is the default. */
  networks: readonly [Chain, ...Chain[]]
  /** The app's own wagmi config. Without it the controller creates one (see {@link createDefaultWagmiConfig}). */
  wagmiConfig?: Config | undefined
  /**
   * RPC URL per chain for the config the controller creates, usually
   * {@link latchRpcUrl} unless the app asked for the chain's own RPC URL.
   * Returning undefined uses the chain's `rpcUrls.default`. Ignored with `wagmiConfig`.
   */
  transportUrl?: ((chain: Chain) => string | undefined) | undefined
  /** Connectors the config the controller creates holds beside the injected one (e.g. WalletConnect). Ignored with `wagmiConfig`. */
  connectors?: readonly CreateConnectorFn[] | undefined
  /** Where connection state persists, normally `window.localStorage`. Absent → in memory (SSR-safe). */
  storage?: StorageLike | undefined
  /** Restore a stored connection in `init()` (spec §4). Default true. */
  enableReconnect?: boolean | undefined
  /** How long `init()` waits for the stored wallet's EIP-6963 announcement. Default 1000 ms. */
  announcementTimeoutMs?: number | undefined
  /** Where the connection snapshot lives: a slice of the instance's root store (default: a store of its own). */
  readonly slice?: SliceFactory<ConnectionState> | undefined
}

/** Options of {@link ConnectionController.connect}. */
export interface ConnectOptions {
  /** Ask the wallet to switch to this chain after connecting. */
  chainId?: number | undefined
}

/** The connection layer of a Latch instance. */
export interface ConnectionController {
  /** The current immutable snapshot. */
  getState(): ConnectionState
  /** Calls `listener` after every change of the snapshot; returns the unsubscribe function. */
  subscribe(listener: ConnectionListener): () => void
  /**
   * Restores the stored connection (spec §4). A stored 'connected' namespace
   * goes to 'reconnecting' and ends 'connected' (the same account, read with
   * `eth_accounts`, so the wallet never prompts) or 'disconnected' (storage
   * cleared). A stored 'disconnected' clears the cached address. Never
   * rejects; calling it again returns the same promise.
   */
  init(): Promise<void>
  /**
   * Connects the wagmi connector `connectorId` (for announced wallets, its
   * rdns). Status goes connecting → connected; on failure the previous state is
   * restored and a {@link LatchConnectError} is thrown (`kind` 'user_rejected'
   * when the wallet says the user declined). Waits for a running `init()`.
   */
  connect(connectorId: string, options?: ConnectOptions): Promise<NamespaceConnection>
  /**
   * Disconnects `namespace` (default: every connected namespace). Account data
   * and the stored connection are cleared; if wagmi holds another connection
   * the namespace switches to it, else it is 'disconnected' (spec §4). If the
   * wallet fails to disconnect, local state is cleared anyway and a
   * {@link LatchDisconnectError} (DISCONNECT_ERROR) is thrown.
   */
  disconnect(namespace?: SupportedNamespace): Promise<void>
  /**
   * Asks the connected wallet to switch to `chain` (one of `networks`). An
   * injected wallet that answers 4902 (unknown chain) is asked to add it with
   * the chain's name, native currency, RPC and explorer URLs, then to switch
   * (spec §4). Resolves once wagmi reports the new chain; the namespace's
   * chainId follows through the wallet's chainChanged. Throws a
   * {@link LatchSwitchNetworkError} (`kind` 'user_rejected' when declined).
   */
  switchChain(chain: Chain): Promise<void>
  /** Native balance of an account, formatted to 3 truncated decimals (spec §9). */
  getNativeBalance(params: { address: Address; chainId: number }): Promise<NativeBalance>
  /** The wagmi config in use, for the React layer's WagmiProvider. */
  getWagmiConfig(): Config
  /** Stops watching wagmi and wallets and drops all listeners. */
  destroy(): void
}
