// Latch.switchNetwork and the UnsupportedChain wiring, over wagmi's mock connector.
import { createConfig, custom, mock } from '@wagmi/core'
import { mainnet, sepolia } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { alice } from './connection/test/fakeWallet'
import { createLatch } from './latch'
import type { Latch, LatchWallet } from './latch-types'
import { activeNetworkStorageKey } from './network/controller'
import { createMemoryStorage, type KeyValueStorage } from './storage'

const networks = [mainnet, sepolia] as const
const key = activeNetworkStorageKey('eip155')
const mockWallet: LatchWallet = { id: 'mock', name: 'Mock', kind: 'injected', installed: true, connectorId: 'mock' }

/** Balances differ per chain so a test can see which chain was read. */
const rpc = (wei: string) =>
  custom({
    async request({ method }: { method: string }) {
      if (method === 'eth_getBalance') return wei
      throw new Error(`unexpected ${method}`)
    },
  })

let storage: KeyValueStorage
beforeEach(() => {
  storage = createMemoryStorage()
  vi.stubGlobal('localStorage', storage)
  // latchd is not running: wallet prefetch fails and is only logged.
  vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'))
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function setup(options: { switchChainError?: Error; allowUnsupportedChain?: boolean; enableNetworkSwitch?: boolean } = {}) {
  const wagmiConfig = createConfig({
    chains: networks,
    connectors: [mock({ accounts: [alice], features: options.switchChainError ? { switchChainError: options.switchChainError } : {} })],
    storage: null,
    batch: { multicall: false },
    transports: { [mainnet.id]: rpc('0xde0b6b3a7640000'), [sepolia.id]: rpc('0x1bc16d674ec80000') }, // 1 ETH, 2 ETH
  })
  const latch = createLatch({
    projectId: 'a'.repeat(32),
    apiUrl: 'http://127.0.0.1:1',
    networks: [...networks],
    wagmiConfig,
    ...(options.allowUnsupportedChain !== undefined ? { allowUnsupportedChain: options.allowUnsupportedChain } : {}),
    ...(options.enableNetworkSwitch !== undefined ? { enableNetworkSwitch: options.enableNetworkSwitch } : {}),
  })
  const connector = wagmiConfig.connectors[0]!
  return { latch, wagmiConfig, connector }
}

async function connect(latch: Latch) {
  await latch.connectWallet(mockWallet)
  expect(latch.getState().account.status).toBe('connected')
}

async function openAt(latch: Latch, push?: 'Networks') {
  latch.open()
  await vi.waitFor(() => expect(latch.getState().open).toBe(true))
  if (push) latch.push(push)
}

describe('Latch.switchNetwork', () => {
  it('an unconfigured chain shows SWITCH_NETWORK_NOT_FOUND and rejects, changing nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { latch } = setup()
    await expect(latch.switchNetwork(10)).rejects.toMatchObject({ name: 'LatchSwitchNetworkError', kind: 'chain_not_configured' })
    expect(latch.getState().alert).toMatchObject({ code: 'SWITCH_NETWORK_NOT_FOUND', variant: 'error', message: expect.stringContaining('`networks`') })
    expect(latch.getState().activeNetwork.id).toBe(mainnet.id)
    expect(storage.getItem(key)).toBeNull()
    latch.destroy()
  })

  it('not connected: switches locally, persists, fires NETWORK_SWITCHED and leaves the Networks view', async () => {
    const { latch } = setup()
    const switched = vi.fn()
    latch.onNetworkSwitched(switched)
    const events: string[] = []
    latch.subscribeEvents((e) => events.push(e.data.event))
    latch.open({ view: 'Networks' })
    await vi.waitFor(() => expect(latch.getState().open).toBe(true))

    await latch.switchNetwork(sepolia.id)

    expect(latch.getState().activeNetwork.id).toBe(sepolia.id)
    expect(storage.getItem(key)).toBe('eip155:11155111')
    expect(switched).toHaveBeenCalledWith({ network: sepolia, previous: mainnet })
    expect(events).toContain('SWITCH_NETWORK')
    expect(latch.getState().open).toBe(false) // Networks was the first view: close
    latch.destroy()
  })

  it('restores the stored network on reload, and the default when the stored one is no longer configured', () => {
    storage.setItem(key, 'eip155:11155111')
    const first = setup().latch
    expect(first.getState().activeNetwork.id).toBe(sepolia.id)
    first.destroy()

    storage.setItem(key, 'eip155:10')
    const second = setup().latch
    expect(second.getState().activeNetwork.id).toBe(mainnet.id)
    second.destroy()
  })

  it('connected: the wallet switches, the active network and balance follow, and Networks goes back to Account', async () => {
    const { latch, wagmiConfig } = setup()
    await connect(latch)
    await vi.waitFor(() => expect(latch.getState().account.balance?.formatted).toBe('1.000'))
    await openAt(latch, 'Networks')
    expect(latch.getState().view).toBe('Networks')
    const switched = vi.fn()
    latch.onNetworkSwitched(switched)

    await latch.switchNetwork(sepolia.id)

    expect(wagmiConfig.state.chainId).toBe(sepolia.id)
    const state = latch.getState()
    expect(state.account.chainId).toBe(sepolia.id)
    expect(state.activeNetwork.id).toBe(sepolia.id)
    expect(storage.getItem(key)).toBe('eip155:11155111')
    expect(switched).toHaveBeenCalledTimes(1)
    expect(state.view).toBe('Account')
    expect(state.open).toBe(true)
    await vi.waitFor(() => expect(latch.getState().account.balance?.formatted).toBe('2.000'))
    latch.destroy()
  })

  it('connected, user rejects: goes back one view, toasts "Switch declined", rejects, and the network stays', async () => {
    const rejected = Object.assign(new Error('User rejected the request.'), { code: 4001 })
    const { latch } = setup({ switchChainError: rejected })
    await connect(latch)
    await openAt(latch, 'Networks')
    const switched = vi.fn()
    latch.onNetworkSwitched(switched)

    await expect(latch.switchNetwork(sepolia.id)).rejects.toMatchObject({ name: 'LatchSwitchNetworkError', kind: 'user_rejected' })

    const state = latch.getState()
    expect(state.view).toBe('Account')
    expect(state.historyLength).toBe(1)
    expect(state.toast).toMatchObject({ message: 'Switch declined', variant: 'error' })
    expect(state.activeNetwork.id).toBe(mainnet.id)
    expect(switched).not.toHaveBeenCalled()
    latch.destroy()
  })

  it('connected, wallet error: the toast carries the error message', async () => {
    const { latch } = setup({ switchChainError: Object.assign(new Error('Internal JSON-RPC error.'), { code: -32603 }) })
    await connect(latch)
    const failure = (await latch.switchNetwork(sepolia.id).then(
      () => new Error('switchNetwork resolved'),
      (error: unknown) => error,
    )) as Error & { kind: string; code: number }
    expect(failure).toMatchObject({ kind: 'unknown', code: -32603 })
    expect(latch.getState().toast).toMatchObject({ message: failure.message, variant: 'error' })
    expect(failure.message).not.toBe('')
    latch.destroy()
  })
})

describe('UnsupportedChain', () => {
  it('opens once when the wallet moves to an unconfigured chain; the active network stays configured', async () => {
    const { latch, connector } = setup()
    await connect(latch)
    expect(latch.getState().open).toBe(false)

    connector.onChainChanged('1337')

    await vi.waitFor(() => expect(latch.getState().open).toBe(true))
    const state = latch.getState()
    expect(state.view).toBe('UnsupportedChain')
    expect(state.unsupportedChainId).toBe(1337)
    expect(state.account.chainId).toBe(1337)
    expect(state.activeNetwork.id).toBe(mainnet.id)
    expect(state.account.balance).toBeUndefined() // no transport for 1337: unknown, not an error toast
    expect(state.toast).toBeNull()

    // Closed while still unsupported: it does not come back by itself.
    latch.close()
    await new Promise((r) => setTimeout(r, 10))
    expect(latch.getState().open).toBe(false)

    // Switching from the view brings the wallet back and closes the modal.
    latch.open({ view: 'UnsupportedChain' })
    await vi.waitFor(() => expect(latch.getState().open).toBe(true))
    await latch.switchNetwork(sepolia.id)
    expect(latch.getState().unsupportedChainId).toBeUndefined()
    expect(latch.getState().activeNetwork.id).toBe(sepolia.id)
    expect(latch.getState().open).toBe(false)
    latch.destroy()
  })

  it('closes when the wallet itself returns to a configured chain', async () => {
    const { latch, connector } = setup()
    await connect(latch)
    connector.onChainChanged('1337')
    await vi.waitFor(() => expect(latch.getState().view).toBe('UnsupportedChain'))
    connector.onChainChanged(String(sepolia.id))
    await vi.waitFor(() => expect(latch.getState().open).toBe(false))
    expect(latch.getState().activeNetwork.id).toBe(sepolia.id)
    latch.destroy()
  })

  it.each([
    ['allowUnsupportedChain is on', { allowUnsupportedChain: true }],
    ['network switching is off', { enableNetworkSwitch: false }],
  ])('does not open when %s', async (_, options) => {
    const { latch, connector } = setup(options)
    await connect(latch)
    connector.onChainChanged('1337')
    await vi.waitFor(() => expect(latch.getState().unsupportedChainId).toBe(1337))
    await new Promise((r) => setTimeout(r, 10))
    expect(latch.getState().open).toBe(false)
    latch.destroy()
  })

  it('disconnecting clears the unsupported chain', async () => {
    const { latch, connector } = setup()
    await connect(latch)
    connector.onChainChanged('1337')
    await vi.waitFor(() => expect(latch.getState().unsupportedChainId).toBe(1337))
    await latch.disconnect()
    expect(latch.getState().unsupportedChainId).toBeUndefined()
    expect(latch.getState().activeNetwork.id).toBe(mainnet.id)
    latch.destroy()
  })
})
