// The network controller: which configured network is active, and whether the
// connected wallet sits on a chain the app did not configure (spec §2
// UnsupportedChain, §4 switching). It only keeps state and storage; the wallet
// switch itself lives in the connection controller and createLatch wires the
// two (alerts, router, toasts).
import type { Chain } from 'viem'
import { caipNetworkIdOf } from '../options'
import { STORAGE_PREFIX, type KeyValueStorage } from '../storage'
import { createStore, type SliceFactory, type Store } from '../store'

/** Where the active network persists, per namespace (AppKit's `activeCaipNetworkId`). */
export const activeNetworkStorageKey = (namespace: 'eip155') => `${STORAGE_PREFIX}activeCaipNetworkId:${namespace}` as const

/** Network state. */
export interface NetworkState {
  /** The configured networks (options.networks, then the addNetwork/removeNetwork actions), never empty. */
  readonly networks: readonly [Chain, ...Chain[]]
  /** Always one of the configured networks, even while the wallet is on another chain. */
  readonly activeNetwork: Chain
  /** The connected wallet's chain when it is not among the configured networks. */
  readonly unsupportedChainId: number | undefined
}

/** What NETWORK_SWITCHED listeners receive. */
export interface NetworkSwitchedEvent {
  readonly network: Chain
  readonly previous: Chain
}

/** Called after every change of the active network (spec §4: send form state is cleared on it). */
export type NetworkSwitchedListener = (event: NetworkSwitchedEvent) => void

/** Parameters of {@link createNetworkController}. */
export interface NetworkControllerParameters {
  readonly networks: readonly [Chain, ...Chain[]]
  readonly defaultNetwork: Chain
  readonly storage: KeyValueStorage
  /** Where the state lives: a slice of the instance's root store (default: a store of its own). */
  readonly slice?: SliceFactory<NetworkState>
}

/** The network controller. */
export interface NetworkController {
  readonly store: Store<NetworkState>
  /** The configured network with this chain id, if any. */
  find(chainId: number): Chain | undefined
  /** Makes a configured network active and persists it; NETWORK_SWITCHED fires when it changed. */
  setActiveNetwork(network: Chain): void
  /**
   * Follows the connected wallet's chain: a configured chain becomes active
   * (and persists); any other chain is recorded as unsupportedChainId while
   * the active network stays as it was. undefined (no connection) clears it.
   */
  followWalletChain(chainId: number | undefined): void
  /** NETWORK_SWITCHED: subscribes to active-network changes; returns the unsubscribe function. */
  onNetworkSwitched(listener: NetworkSwitchedListener): () => void
}

/**
 * restoreActiveNetwork reads the stored active network: the stored one when
 * it is still configured, else the default (a stale id from an earlier
 * configuration must not select a network the app dropped).
 */
export function restoreActiveNetwork(params: NetworkControllerParameters): Chain {
  let stored: string | null = null
  try {
    stored = params.storage.getItem(activeNetworkStorageKey('eip155'))
  } catch {
    // Storage can throw (private modes); the default is then the answer.
  }
  return params.networks.find((n) => caipNetworkIdOf(n) === stored) ?? params.defaultNetwork
}

/** createNetworkController starts from the stored active network (see {@link restoreActiveNetwork}). */
export function createNetworkController(params: NetworkControllerParameters): NetworkController {
  const store = (params.slice ?? createStore)({ networks: params.networks, activeNetwork: restoreActiveNetwork(params), unsupportedChainId: undefined })
  const listeners = new Set<NetworkSwitchedListener>()
  const find = (chainId: number): Chain | undefined => store.getState().networks.find((n) => n.id === chainId)

  const persist = (network: Chain): void => {
    try {
      params.storage.setItem(activeNetworkStorageKey('eip155'), caipNetworkIdOf(network))
    } catch {
      // Persistence is best effort; the switch itself has happened.
    }
  }

  const setActive = (network: Chain, unsupportedChainId: number | undefined): void => {
    const previous = store.getState().activeNetwork
    store.setState({ activeNetwork: network, unsupportedChainId })
    persist(network)
    if (previous.id === network.id) return
    for (const listener of [...listeners]) {
      try {
        listener({ network, previous })
      } catch (error) {
        console.error('[latch] NETWORK_SWITCHED listener failed', error)
      }
    }
  }

  return {
    store,
    find,
    setActiveNetwork(network) {
      const configured = find(network.id)
      if (!configured) throw new Error('Chain is not supported')
      setActive(configured, undefined)
    },
    followWalletChain(chainId) {
      if (chainId === undefined) {
        store.setState({ unsupportedChainId: undefined })
        return
      }
      const configured = find(chainId)
      if (configured) setActive(configured, undefined)
      else store.setState({ unsupportedChainId: chainId })
    },
    onNetworkSwitched(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
