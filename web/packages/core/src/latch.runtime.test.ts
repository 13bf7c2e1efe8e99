// Runtime updates (updateOptions, updateFeatures, addNetwork, removeNetwork) and open({ view, namespace, arguments }),
// over wagmi's mock connector.
import { createConfig, custom, mock } from '@wagmi/core'
import { base, mainnet, optimism, sepolia } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { alice } from './connection/test/fakeWallet'
import { createLatch } from './latch'
import type { Latch, LatchWallet } from './latch-types'
import { createMemoryStorage } from './storage'

const mockWallet: LatchWallet = { id: 'mock', name: 'Mock', kind: 'injected', installed: true, connectorId: 'mock' }
const rpc = custom({
  async request({ method }: { method: string }) {
    if (method === 'eth_getBalance') return '0xde0b6b3a7640000'
    throw new Error(`unexpected ${method}`)
  },
})

beforeEach(() => {
  vi.stubGlobal('localStorage', createMemoryStorage())
  vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'))
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function setup(own = true) {
  const wagmiConfig = createConfig({
    chains: [mainnet, sepolia],
    connectors: [mock({ accounts: [alice] })],
    storage: null,
    batch: { multicall: false },
    transports: { [mainnet.id]: rpc, [sepolia.id]: rpc },
  })
  const latch = createLatch({
    projectId: 'a'.repeat(32),
    apiUrl: 'http://127.0.0.1:1',
    networks: [mainnet, sepolia],
    themeMode: 'dark',
    walletConnect: false,
    ...(own ? { wagmiConfig } : {}),
  })
  return { latch, wagmiConfig: own ? wagmiConfig : latch.getWagmiConfig() }
}

describe('Latch.updateOptions / updateFeatures', () => {
  it('applies a valid update: theme, state, the options read live', async () => {
    const { latch } = setup()
    const seen = vi.fn()
    latch.subscribe(seen)
    await latch.updateOptions({ themeMode: 'light', themeVariables: { accent: '#ff0000' }, enableNetworkSwitch: false, termsConditionsUrl: 'https://example.com/terms' })
    const state = latch.getState()
    expect(state.themeMode).toBe('light')
    expect(state.themeVars['--latch-accent']).toBe('#ff0000')
    expect(state.enableNetworkSwitch).toBe(false)
    expect(seen).toHaveBeenCalled()
    expect(latch._internal.opts.termsConditionsUrl).toBe('https://example.com/terms')
    // An update is merged over the options in force.
    await latch.updateOptions({ privacyPolicyUrl: 'https://example.com/privacy' })
    expect(latch._internal.opts).toMatchObject({ termsConditionsUrl: 'https://example.com/terms', privacyPolicyUrl: 'https://example.com/privacy', enableNetworkSwitch: false })
    latch.destroy()
  })

  it('refuses an invalid update whole: nothing is half-applied', async () => {
    const { latch } = setup()
    const before = latch.getState()
    await expect(latch.updateOptions({ themeMode: 'light', featuredWalletIds: [''] })).rejects.toThrow('`featuredWalletIds` must be a list of non-empty wallet ids')
    expect(latch.getState()).toBe(before)
    expect(latch._internal.opts.themeMode).toBe('dark')
    await expect(latch.updateOptions({ projectId: 'b'.repeat(32) })).rejects.toMatchObject({ name: 'LatchOptionsError', message: '`projectId` cannot be changed after createLatch' })
    await expect(latch.updateOptions({ networks: [mainnet] })).rejects.toThrow('use addNetwork/removeNetwork')
    latch.destroy()
  })

  it('updateFeatures merges over the features in force; the account panels and the wallet list follow', async () => {
    const { latch } = setup()
    await latch.updateFeatures({ send: false, legalCheckbox: true })
    expect(latch.getState().features.send).toBe(false)
    expect(latch._internal.opts.features).toMatchObject({ send: false, legalCheckbox: true, receive: true })
    await latch.updateFeatures({ connectorTypeOrder: ['recent'] })
    expect(latch._internal.opts.features.legalCheckbox).toBe(true)
    expect(latch.getState().wallets.filter((w) => w.kind === 'injected')).toEqual([])
    await expect(latch.updateFeatures({ swaps: false })).rejects.toThrow("`features.swaps` is decided by latchd's project config")
    latch.destroy()
  })
})

describe('Latch.addNetwork / removeNetwork', () => {
  it('adds a chain: listed, in wagmi with a transport through latchd, and switchable', async () => {
    const { latch, wagmiConfig } = setup(false)
    await latch.addNetwork(base)
    expect(latch.getState().networks.map((n) => n.id)).toEqual([mainnet.id, sepolia.id, base.id])
    expect(wagmiConfig.chains.map((c) => c.id)).toContain(base.id)
    const transport = wagmiConfig._internal.transports[base.id as never] as unknown as (p: { chain: typeof base }) => { value?: { url?: string } }
    expect(transport({ chain: base }).value?.url).toBe(`http://127.0.0.1:1/v1?chainId=eip155:8453&projectId=${'a'.repeat(32)}`)
    await latch.switchNetwork(base.id)
    expect(latch.getState().activeNetwork.id).toBe(base.id)
    await expect(latch.addNetwork(base)).rejects.toThrow('chain 8453 is already configured')
    await expect(latch.addNetwork({ id: 'x' } as never)).rejects.toThrow('addNetwork takes a viem Chain object')
    latch.destroy()
  })

  it('removes a chain; the active one moves to the first remaining; the last cannot go', async () => {
    const { latch, wagmiConfig } = setup()
    await latch.switchNetwork(sepolia.id)
    const switched = vi.fn()
    latch.onNetworkSwitched(switched)
    await latch.removeNetwork(sepolia.id)
    expect(latch.getState().networks.map((n) => n.id)).toEqual([mainnet.id])
    expect(latch.getState().activeNetwork.id).toBe(mainnet.id)
    expect(switched).toHaveBeenCalledWith({ network: mainnet, previous: sepolia })
    expect(wagmiConfig.chains.map((c) => c.id)).toEqual([mainnet.id])
    await expect(latch.switchNetwork(sepolia.id)).rejects.toMatchObject({ kind: 'chain_not_configured' })
    await expect(latch.removeNetwork(mainnet.id)).rejects.toThrow('the last network cannot be removed')
    await expect(latch.removeNetwork(optimism.id)).rejects.toThrow('chain 10 is not configured')
    latch.destroy()
  })

  it('a connected wallet on the removed chain is then on an unsupported chain', async () => {
    const { latch } = setup()
    await latch.connectWallet(mockWallet)
    await latch.switchNetwork(sepolia.id)
    await latch.removeNetwork(sepolia.id)
    expect(latch.getState().unsupportedChainId).toBe(sepolia.id)
    await vi.waitFor(() => expect(latch.getState()).toMatchObject({ open: true, view: 'UnsupportedChain' }))
    latch.destroy()
  })
})

describe('Latch.open({ view, namespace, arguments })', () => {
  it('refuses an unknown view or namespace: open() rejects with a LatchOpenError, nothing opens', async () => {
    const { latch } = setup()
    await expect(latch.open({ view: 'Nope' as never })).rejects.toMatchObject({
      name: 'LatchOpenError',
      message: expect.stringContaining('open: unknown view "Nope"; one of Connect,'),
    })
    await expect(latch.open({ view: 'Nope' as never, arguments: {} })).rejects.toThrow('open: unknown view "Nope"')
    await expect(latch.open({ namespace: 'solana' })).rejects.toThrow('open: no configured network is in namespace "solana"; configured: eip155')
    expect(latch.getState().open).toBe(false)
    await latch.open({ view: 'Networks' })
    expect(latch.getState()).toMatchObject({ open: true, view: 'Networks' })
    latch.destroy()
  })

  it("refuses WalletSwap arguments the panel could not take, before anything opens", async () => {
    const { latch } = setup()
    const swap = (args: Record<string, unknown>) => latch.open({ view: 'WalletSwap', arguments: args })
    for (const amount of ['-1', '0', 'abc', '1e3', '', null]) {
      await expect(swap({ amount })).rejects.toThrow(`open: WalletSwap's amount must be a positive decimal number, not ${JSON.stringify(amount)}`)
    }
    await expect(swap({ fromToken: 5 })).rejects.toThrow("open: WalletSwap's fromToken must be a token symbol or address, not 5")
    await expect(swap({ toToken: {} })).rejects.toThrow("open: WalletSwap's toToken must be a token symbol or address, not {}")
    expect(latch.getState().open).toBe(false)
    // Disconnected, the tokens cannot be listed yet: well-formed arguments open the view.
    await swap({ fromToken: 'USDC', amount: '.5' })
    expect(latch.getState()).toMatchObject({ open: true, viewData: { arguments: { fromToken: 'USDC', amount: '.5' } } })
    latch.destroy()
  })

  it('passes arguments as the view data and fills the send form', async () => {
    const { latch } = setup()
    await latch.connectWallet(mockWallet)
    latch.open({ view: 'WalletSend', namespace: 'eip155', arguments: { amount: '0.5', to: '0x000000000000000000000000000000000000dEaD' } })
    await vi.waitFor(() => expect(latch.getState()).toMatchObject({ open: true, view: 'WalletSend' }))
    expect(latch.getState().viewData.arguments).toEqual({ amount: '0.5', to: '0x000000000000000000000000000000000000dEaD' })
    const send = latch._internal.send.controller!
    expect(send.store.getState()).toMatchObject({ sendTokenAmount: '0.5', receiverAddress: '0x000000000000000000000000000000000000dEaD' })
    latch.destroy()
  })
})
