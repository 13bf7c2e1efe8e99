import { describe, expect, it } from 'vitest'
import { defineChain } from 'viem'
import { createLatch, LatchOptionsError } from '@latchkit/core'
import { AppKitCompatError, LATCH_FEATURES, MAPPED_OPTIONS, mapOptions, mapThemeVariables, REFUSED_OPTIONS, THEME_VARIABLE_MAP, type CreateAppKit } from './options'

const chainA = defineChain({ id: 31337, name: 'Dev A', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })
const chainB = defineChain({ id: 31338, name: 'Dev B', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:2'] } } })
const base: CreateAppKit = { networks: [chainA, chainB] }

/** A value for each option createLatch takes under AppKit's name. */
const samples: Record<(typeof MAPPED_OPTIONS)[number], unknown> = {
  projectId: 'p1',
  networks: [chainA, chainB],
  defaultNetwork: chainB,
  metadata: { name: 'App', description: 'd', url: 'https://app.example', icons: [] },
  themeMode: 'dark',
  siwx: { createMessage: () => 'm' },
  featuredWalletIds: ['a'.repeat(64)],
  includeWalletIds: ['b'.repeat(64)],
  excludeWalletIds: ['c'.repeat(64)],
  customWallets: [{ id: 'mine', name: 'Mine' }],
  allWallets: 'ONLY_MOBILE',
  allowUnsupportedChain: true,
  enableNetworkSwitch: false,
  enableEmbedded: true,
  enableReconnect: false,
  debug: false,
  termsConditionsUrl: 'https://app.example/terms',
  privacyPolicyUrl: 'https://app.example/privacy',
  defaultAccountTypes: { eip155: 'eoa' },
  apiUrl: 'http://127.0.0.1:9999',
  frameUrl: 'http://127.0.0.1:9998',
  wagmiConfig: { chains: [chainA] },
  tokens: { 'eip155:31337': { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' } },
  chainImages: { 31337: 'https://img.example/dev.svg' },
  connectorImages: { metamask: 'https://img.example/mm.svg' },
  siweConfig: { getNonce: () => 'n' },
}

describe('mapOptions', () => {
  it.each(MAPPED_OPTIONS)('passes %s to createLatch under the same name', (name) => {
    const out = mapOptions({ ...base, [name]: samples[name] } as CreateAppKit) as unknown as Record<string, unknown>
    expect(out[name]).toBe(samples[name])
  })

  it('maps enableWalletConnect: false to walletConnect: false, and leaves WalletConnect on otherwise', () => {
    expect(mapOptions({ ...base, enableWalletConnect: false })).toMatchObject({ walletConnect: false })
    expect('walletConnect' in mapOptions({ ...base, enableWalletConnect: true })).toBe(false)
    expect(() => mapOptions({ ...base, enableWalletConnect: 'no' as never })).toThrow('`enableWalletConnect` must be a boolean')
  })

  it.each(Object.entries(REFUSED_OPTIONS))('refuses %s by name', (name, why) => {
    expect(() => mapOptions({ ...base, [name]: true } as CreateAppKit)).toThrow(new AppKitCompatError(`createAppKit option \`${name}\` is not supported by Latch: ${why}`))
  })

  it('refuses an option AppKit does not have', () => {
    expect(() => mapOptions({ ...base, colour: 'red' } as CreateAppKit)).toThrow('createAppKit option `colour` is unknown')
  })

  it('ignores an option given as undefined (as AppKit does)', () => {
    expect(mapOptions({ ...base, customRpcUrls: undefined } as CreateAppKit)).toEqual({ networks: base.networks })
  })

  it('passes chainImages and connectorImages to Latch', () => {
    const images = { chainImages: { 1: 'https://img.example/eth.svg' }, connectorImages: { metamask: 'https://img.example/mm.svg' } }
    expect(mapOptions({ ...base, ...images } as CreateAppKit)).toMatchObject(images)
  })

  it.each(LATCH_FEATURES)('passes features.%s', (name) => {
    const features = { [name]: true }
    expect(mapOptions({ ...base, features } as CreateAppKit).features).toBe(features)
  })

  it.each(['reownAuthentication', 'smartSessions', 'pay', 'headless', 'reownBranding'])('refuses features.%s by name', (name) => {
    expect(() => mapOptions({ ...base, features: { [name]: true } } as CreateAppKit)).toThrow(`createAppKit option \`features.${name}\` is not supported by Latch yet`)
  })

  it('the mapped options are ones createLatch takes', () => {
    const latch = createLatch(
      mapOptions({
        ...base,
        defaultNetwork: chainB,
        themeMode: 'dark',
        enableNetworkSwitch: false,
        themeVariables: { '--w3m-accent': '#123456', '--w3m-z-index': 77 },
      }),
    )
    const state = latch.getState()
    expect(state.activeNetwork.id).toBe(chainB.id)
    expect(state.themeMode).toBe('dark')
    expect(state.enableNetworkSwitch).toBe(false)
    expect(state.themeVars['--latch-accent']).toBe('#123456')
    expect(state.themeVars['--latch-z-index']).toBe('77')
    latch.destroy()
  })
})

describe('mapThemeVariables', () => {
  const values: Record<keyof typeof THEME_VARIABLE_MAP, string | number> = {
    'font-family': 'Inter, sans-serif',
    accent: '#ff0000',
    'color-mix': '#00ff00',
    'color-mix-strength': 40,
    'font-size-master': '9px',
    'border-radius-master': '3px',
    'z-index': 500,
    'qr-color': '#0000ff',
  }
  it.each(Object.entries(THEME_VARIABLE_MAP))('--w3m-%s (and --apkt-) sets Latch\'s %s', (key, name) => {
    const value = values[key as keyof typeof values]
    expect(mapThemeVariables({ [`--w3m-${key}`]: value })).toEqual({ [name]: value })
    expect(mapThemeVariables({ [`--apkt-${key}`]: value })).toEqual({ [name]: value })
  })

  it('reads numeric strings for the z-index and the mix strength', () => {
    expect(mapThemeVariables({ '--w3m-z-index': '1000', '--w3m-color-mix-strength': '25' })).toEqual({ zIndex: 1000, colorMixStrength: 25 })
  })

  it('passes Latch\'s own names', () => {
    expect(mapThemeVariables({ accent: '#111111', modalWidth: undefined })).toEqual({ accent: '#111111' })
  })

  it('refuses other keys by name', () => {
    expect(() => mapThemeVariables({ '--w3m-color-fg-1': '#000' })).toThrow(/`themeVariables` key "--w3m-color-fg-1" is not supported; supported: --w3m-font-family, --w3m-accent/)
    expect(() => mapThemeVariables({ background: '#000' })).toThrow('`themeVariables` key "background" is not supported')
  })

  it('each key reaches the CSS variables Latch renders', () => {
    const latch = createLatch(
      mapOptions({
        ...base,
        themeMode: 'light',
        themeVariables: {
          '--w3m-font-family': 'Inter, sans-serif',
          '--w3m-accent': '#ff0000',
          '--w3m-color-mix': '#00ff00',
          '--w3m-color-mix-strength': 40,
          '--w3m-font-size-master': '9px',
          '--w3m-border-radius-master': '3px',
          '--w3m-z-index': 500,
          '--w3m-qr-color': '#0000ff',
        },
      }),
    )
    expect(latch.getState().themeVars).toMatchObject({
      '--latch-font-family': 'Inter, sans-serif',
      '--latch-accent': '#ff0000',
      '--latch-color-mix': '#00ff00',
      '--latch-color-mix-strength': '40%',
      '--latch-font-size-master': '9px',
      '--latch-border-radius-master': '3px',
      '--latch-z-index': '500',
      '--latch-qr-color': '#0000ff',
    })
    latch.destroy()
  })

  it('a bad value is refused by Latch, naming the variable', () => {
    expect(() => createLatch(mapOptions({ ...base, themeVariables: { '--w3m-font-size-master': 'big' } }))).toThrow(LatchOptionsError)
    expect(() => createLatch(mapOptions({ ...base, themeVariables: { '--w3m-font-size-master': 'big' } }))).toThrow(/fontSizeMaster/)
  })
})
