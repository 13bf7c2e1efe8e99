// The solana adapter: Solana networks over Wallet Standard wallets and
// @solana/kit. Only a network made by defineSolanaNetwork brings it, and
// everything past the id helpers is one on-demand chunk (./client, loaded
// when the instance starts), so an EVM-only page carries none of it.
import type { NamespaceConnection } from '../../connection/types'
import { loadLazy } from '../../loadLazy'
import type { LatchNetwork, NamespaceAdapter, NamespaceClientContext } from '../types'
import type { SolanaClient } from './client'

/** A namespace with nothing connected (kept here, not imported, so the connection types stay out of Solana's chunks). */
export const SOLANA_DISCONNECTED: NamespaceConnection = /* @__PURE__ */ Object.freeze({
  status: 'disconnected',
  address: undefined,
  caipAddress: undefined,
  chainId: undefined,
  connectorId: undefined,
  wallet: undefined,
})

/** Where the Solana client remembers the connected wallets and their accounts, for the reconnect after a reload. */
export const SOLANA_CONNECTION_KEY = 'latch:solana:connection'

// Until the client's chunk has loaded, a remembered connection reads as 'reconnecting' (as wagmi's does for eip155),
// so the account shown does not fall back to another namespace, nor the active network with it, meanwhile.
const RECONNECTING: NamespaceConnection = /* @__PURE__ */ Object.freeze({
  status: 'reconnecting',
  address: undefined,
  caipAddress: undefined,
  chainId: undefined,
  connectorId: undefined,
  wallet: undefined,
})
const remembered = (): boolean => {
  try {
    return Boolean(globalThis.localStorage?.getItem(SOLANA_CONNECTION_KEY))
  } catch {
    return false
  }
}

/** A Solana address: 32 to 44 base58 characters (spec §5). */
export const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

const owns = (network: LatchNetwork): boolean => network.chainNamespace === 'solana'

/** The solana namespace (CAIP-2 `solana:<genesis hash prefix>`). */
export const solanaAdapter: NamespaceAdapter = {
  namespace: 'solana',
  ownsNetwork: owns,
  caipNetworkId: (network) => network.caipNetworkId ?? `solana:${network.id}`,
  // A Solana address is the same account on every Solana cluster the app configured.
  networksForAddress: (address, networks) => (SOLANA_ADDRESS.test(address) ? networks.filter(owns) : []),
  createClient: (context) => createLazySolanaClient(context),
}

/** The Solana client's code: one chunk, loaded on the first call that needs it. */
export const loadSolanaClient = () => loadLazy().then((l) => l.solanaClient())

/**
 * The Solana client of one instance: `account` reads the connection slice
 * (written by the loaded client); every other method loads the client's
 * chunk and runs there.
 */
function createLazySolanaClient(context: NamespaceClientContext): SolanaClient {
  let real: Promise<SolanaClient> | undefined
  const client = (): Promise<SolanaClient> =>
    (real ??= loadSolanaClient().then((m) => m.createSolanaClient(context)).catch((error: unknown) => {
      real = undefined
      throw error
    }))
  return {
    connect: async (connectorId, options) => (await client()).connect(connectorId, options),
    reconnect: async () => (await client()).reconnect(),
    disconnect: async () => (await client()).disconnect(),
    disconnectConnection: async (connectorId) => (await client()).disconnectConnection(connectorId),
    account: (state = context.connection.getState()) => state.namespaces.solana ?? (remembered() ? RECONNECTING : SOLANA_DISCONNECTED),
    balance: async (params) => (await client()).balance(params),
    sendDriver: async () => (await client()).sendDriver(),
    sendTransaction: async (params) => (await client()).sendTransaction(params),
    signMessage: async (params) => (await client()).signMessage(params),
    switchNetwork: async (network) => (await client()).switchNetwork(network),
    provider: async () => (await client()).provider(),
  }
}
