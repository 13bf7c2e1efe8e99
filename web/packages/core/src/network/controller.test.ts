import { describe, expect, it, vi } from 'vitest'
import { base, mainnet, sepolia } from 'viem/chains'
import { activeNetworkStorageKey, createNetworkController, restoreActiveNetwork } from './controller'
import { createMemoryStorage } from '../storage'

const networks = [mainnet, base, sepolia] as const
const key = activeNetworkStorageKey('eip155')

describe('restoreActiveNetwork', () => {
  it('uses the stored network while it is still configured, else the default', () => {
    const storage = createMemoryStorage()
    expect(restoreActiveNetwork({ networks, defaultNetwork: base, storage }).id).toBe(base.id)
    storage.setItem(key, 'eip155:11155111')
    expect(restoreActiveNetwork({ networks, defaultNetwork: base, storage }).id).toBe(sepolia.id)
    storage.setItem(key, 'eip155:10') // configured by an earlier version of the app
    expect(restoreActiveNetwork({ networks, defaultNetwork: base, storage }).id).toBe(base.id)
  })

  it('falls back to the default when storage throws', () => {
    const storage = { getItem: () => { throw new Error('SecurityError') }, setItem() {}, removeItem() {} }
    expect(restoreActiveNetwork({ networks, defaultNetwork: mainnet, storage }).id).toBe(mainnet.id)
  })
})

describe('createNetworkController', () => {
  it('setActiveNetwork persists the CAIP-2 id and fires NETWORK_SWITCHED once per change', () => {
    const storage = createMemoryStorage()
    const network = createNetworkController({ networks, defaultNetwork: mainnet, storage })
    const switched = vi.fn()
    network.onNetworkSwitched(switched)
    network.setActiveNetwork(base)
    network.setActiveNetwork(base)
    expect(network.store.getState().activeNetwork.id).toBe(base.id)
    expect(storage.getItem(key)).toBe('eip155:8453')
    expect(switched).toHaveBeenCalledTimes(1)
    expect(switched).toHaveBeenCalledWith({ network: base, previous: mainnet })
  })

  it('refuses a network that is not configured', () => {
    const network = createNetworkController({ networks: [mainnet], defaultNetwork: mainnet, storage: createMemoryStorage() })
    expect(() => network.setActiveNetwork(base)).toThrow('Chain is not supported')
  })

  it('followWalletChain: a configured chain becomes active; another one is only recorded as unsupported', () => {
    const storage = createMemoryStorage()
    const network = createNetworkController({ networks, defaultNetwork: mainnet, storage })
    network.followWalletChain(sepolia.id)
    expect(network.store.getState()).toEqual({ networks, activeNetwork: sepolia, unsupportedChainId: undefined })
    expect(storage.getItem(key)).toBe('eip155:11155111')

    network.followWalletChain(1337)
    expect(network.store.getState()).toEqual({ networks, activeNetwork: sepolia, unsupportedChainId: 1337 })
    expect(storage.getItem(key)).toBe('eip155:11155111')

    network.followWalletChain(undefined) // disconnected: nothing unsupported any more, the network stays
    expect(network.store.getState()).toEqual({ networks, activeNetwork: sepolia, unsupportedChainId: undefined })
  })

  it('a failing listener does not stop the others', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const network = createNetworkController({ networks, defaultNetwork: mainnet, storage: createMemoryStorage() })
    const second = vi.fn()
    network.onNetworkSwitched(() => {
      throw new Error('boom')
    })
    const unsubscribe = network.onNetworkSwitched(second)
    network.setActiveNetwork(base)
    expect(second).toHaveBeenCalledTimes(1)
    unsubscribe()
    network.setActiveNetwork(mainnet)
    expect(second).toHaveBeenCalledTimes(1)
    error.mockRestore()
  })
})

