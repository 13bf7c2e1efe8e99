import { mainnet, optimism, sepolia } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { DEFAULT_API_URL, LatchOptionsError, resolveOptions, type LatchOptions } from './options'

const base: LatchOptions = { projectId: 'a'.repeat(32), networks: [mainnet, optimism] }

describe('resolveOptions', () => {
  it('fills the spec §9 defaults', () => {
    const o = resolveOptions(base)
    expect(o.apiUrl).toBe(DEFAULT_API_URL)
    expect(o.defaultNetwork.id).toBe(1)
    expect(o.features).toMatchObject({
      receive: true,
      send: true,
      emailShowWallets: true,
      analytics: true,
      allWallets: true,
      legalCheckbox: false,
      collapseWallets: false,
      connectorTypeOrder: ['walletConnect', 'recent', 'injected', 'featured', 'custom', 'external', 'recommended'],
      connectMethodsOrder: ['email', 'social', 'wallet'],
      walletFeaturesOrder: ['onramp', 'swaps', 'receive', 'send'],
    })
    expect(o).toMatchObject({
      allWallets: 'SHOW',
      allowUnsupportedChain: false,
      enableNetworkSwitch: true,
      enableEmbedded: false,
      debug: true,
      enableReconnect: true,
      localFeatures: undefined,
    })
  })

  it('keeps given values and trims the api URL', () => {
    const o = resolveOptions({
      ...base,
      apiUrl: 'https://latch.example.com/',
      defaultNetwork: optimism,
      features: { analytics: false, connectorTypeOrder: ['injected', 'walletConnect'] },
      excludeWalletIds: ['x', 'x'],
    })
    expect(o.apiUrl).toBe('https://latch.example.com')
    expect(o.defaultNetwork.id).toBe(10)
    expect(o.features.analytics).toBe(false)
    expect(o.features.connectorTypeOrder).toEqual(['injected', 'walletConnect'])
    expect(o.localFeatures).toEqual({ analytics: false, connectorTypeOrder: ['injected', 'walletConnect'] })
    expect(o.excludeWalletIds).toEqual(['x'])
  })

  it('allows a missing projectId (the alert reports it later)', () => {
    expect(resolveOptions({ networks: [mainnet] }).projectId).toBeUndefined()
  })

  it.each<[string, LatchOptions, string]>([
    ['siwe + siwx', { ...base, ...{ siweConfig: {} }, siwx: {} as NonNullable<LatchOptions['siwx']> }, 'Cannot set both `siweConfig` and `siwx` options'],
    ['no networks', { ...base, networks: [] }, '`networks` must list at least one network'],
    ['foreign default network', { ...base, defaultNetwork: sepolia }, '`defaultNetwork` (chain 11155111) must be one of `networks`'],
    ['bad theme mode', { ...base, themeMode: 'blue' as 'dark' }, 'themeMode must be "light" or "dark"'],
    ['bad api url', { ...base, apiUrl: 'latchd' }, '`apiUrl` must be an absolute URL'],
    ['bad social', { ...base, features: { socials: ['myspace' as 'x'] } }, '`features.socials` holds "myspace"'],
    ['bad order', { ...base, features: { connectorTypeOrder: ['qr' as 'recent'] } }, '`features.connectorTypeOrder` holds "qr"'],
    ['empty project id', { ...base, projectId: ' ' }, '`projectId` must be a non-empty string'],
    ['bad allWallets', { ...base, allWallets: 'SOME' as 'SHOW' }, '`allWallets` must be'],
  ])('rejects %s', (_, options, message) => {
    expect(() => resolveOptions(options)).toThrow(LatchOptionsError)
    expect(() => resolveOptions(options)).toThrow(message)
  })
})

describe('tokens', () => {
  const usdc = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'

  it('keeps valid entries (EVM contract, Solana mint) and defaults to none', () => {
    expect(resolveOptions({ networks: [mainnet] }).tokens).toEqual({})
    const tokens = { 'eip155:1': { address: usdc }, 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': { address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' } }
    expect(resolveOptions({ networks: [mainnet], tokens }).tokens).toEqual(tokens)
  })

  it.each<[string, LatchOptions['tokens'], string]>([
    ['a key that is no CAIP-2 id', { '1': { address: usdc } }, '`tokens` key "1" is not a CAIP-2 network id'],
    ['a short EVM address', { 'eip155:1': { address: '0x1234' } }, '`tokens["eip155:1"].address` is not a contract address'],
    ['an EVM address on Solana', { 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': { address: usdc } }, 'is not a mint address'],
    ['a list', [] as never, '`tokens` must be an object keyed by CAIP-2 network id'],
  ])('refuses %s', (_, tokens, message) => {
    expect(() => resolveOptions({ networks: [mainnet], tokens })).toThrow(message)
  })
})
