// Types of the connection layer. Kept local to this module on purpose: the
// connection controller must not depend on the rest of @latchkit/core.
import type { KeyValueStorage } from '../storage'
import type { Address } from 'viem'

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

/** Immutable snapshot of the whole connection layer. */
export interface ConnectionState {
  readonly namespaces: Readonly<Record<SupportedNamespace, NamespaceConnection>>
  /** Available connectors, updated as EIP-6963 wallets announce themselves. */
  readonly connectors: readonly ConnectorInfo[]
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
