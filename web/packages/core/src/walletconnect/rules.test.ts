import { describe, expect, it } from 'vitest'
import { namespacesToDisconnect } from './disconnect.js'
import {
  formatNativeLink,
  formatUniversalLink,
  isHttpUrl,
  linkTarget,
  walletConnectLink,
  walletConnectPlatforms,
} from './links.js'
import { parseCaipNetworkId, validateNonEvmChains } from './namespaces.js'
import { buildOptionalNamespaces, EIP155_METHODS } from './proposal'
import { defaultRelayUrl, evmRpcUrl, resolveWalletConnectOptions, validateRelayUrl } from './options.js'
import {
  isPairingExpired,
  isRetryAllowed,
  PAIRING_LIFETIME_MS,
  PAIRING_RENEW_MARGIN_MS,
  PAIRING_RETRY_INTERVAL_MS,
  pairingExpiry,
  renewDelay,
} from './pairing.js'

const uri = 'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?expiryTimestamp=1700000300&relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303'
const encoded = encodeURIComponent(uri)

describe('pairing rules (spec §9)', () => {
  it('a new pairing lasts 4 minutes', () => {
    expect(PAIRING_LIFETIME_MS).toBe(240_000)
    expect(pairingExpiry(1_000)).toBe(241_000)
  })

  it('expires when under 10 s remain, or when there is none', () => {
    expect(PAIRING_RENEW_MARGIN_MS).toBe(10_000)
    const expiresAt = 100_000
    expect(isPairingExpired(expiresAt, 89_999)).toBe(false)
    expect(isPairingExpired(expiresAt, 90_000)).toBe(false) // exactly 10 s left
    expect(isPairingExpired(expiresAt, 90_001)).toBe(true)
    expect(isPairingExpired(expiresAt, 200_000)).toBe(true)
    expect(isPairingExpired(undefined, 0)).toBe(true)
  })

  it('renews 10 s before expiry, at once when already due', () => {
    expect(renewDelay(pairingExpiry(0), 0)).toBe(230_000)
    expect(renewDelay(100_000, 95_000)).toBe(0)
  })

  it('allows a retry 1 s after the last attempt', () => {
    expect(PAIRING_RETRY_INTERVAL_MS).toBe(1_000)
    expect(isRetryAllowed(5_000, 5_999)).toBe(false)
    expect(isRetryAllowed(5_000, 6_000)).toBe(true)
    expect(isRetryAllowed(Number.NEGATIVE_INFINITY, 0)).toBe(true)
  })
})

describe('wallet links', () => {
  it('tells universal links from custom schemes', () => {
    expect(isHttpUrl('https://metamask.app.link')).toBe(true)
    expect(isHttpUrl('http://localhost:3000')).toBe(true)
    expect(isHttpUrl('metamask://')).toBe(false)
    expect(isHttpUrl('trust:')).toBe(false)
  })

  it('universal links get a slash and wc?uri= with the URI encoded once', () => {
    expect(formatUniversalLink('https://metamask.app.link', uri)).toEqual({
      redirect: `https://metamask.app.link/wc?uri=${encoded}`,
      href: 'https://metamask.app.link/',
    })
    expect(formatUniversalLink('https://link.trustwallet.com/', uri).redirect).toBe(`https://link.trustwallet.com/wc?uri=${encoded}`)
    // the URI's own query never leaks into the link
    const { searchParams } = new URL(formatUniversalLink('https://w.example', uri).redirect)
    expect(searchParams.get('uri')).toBe(uri)
    expect([...searchParams.keys()]).toEqual(['uri'])
  })

  it('custom schemes are normalised to scheme://', () => {
    expect(formatNativeLink('metamask://', uri)).toEqual({ redirect: `metamask://wc?uri=${encoded}`, href: 'metamask://' })
    expect(formatNativeLink('trust:', uri).redirect).toBe(`trust://wc?uri=${encoded}`)
    expect(formatNativeLink('rainbow', uri).redirect).toBe(`rainbow://wc?uri=${encoded}`)
    expect(formatNativeLink('zerion://app', uri).redirect).toBe(`zerion://app/wc?uri=${encoded}`)
    // a universal link given as the native one stays a universal link
    expect(formatNativeLink('https://rnbwapp.com', uri).redirect).toBe(`https://rnbwapp.com/wc?uri=${encoded}`)
    expect(formatUniversalLink('ledgerlive:', uri).redirect).toBe(`ledgerlive://wc?uri=${encoded}`)
  })

  it('picks the platforms a wallet can be reached on, default first', () => {
    const all = { mobileLink: 'metamask://', desktopLink: 'metamask-desktop://', webappLink: 'https://web.metamask.io' }
    expect(walletConnectPlatforms(all, false)).toEqual(['qrcode', 'web', 'desktop'])
    expect(walletConnectPlatforms(all, true)).toEqual(['mobile', 'web'])
    expect(walletConnectPlatforms({ webappLink: 'https://w.example' }, false)).toEqual(['web'])
    expect(walletConnectPlatforms({}, false)).toEqual(['qrcode'])
    expect(walletConnectPlatforms({}, true)).toEqual(['qrcode'])
    expect(walletConnectPlatforms(undefined, true)).toEqual(['qrcode'])
  })

  it('builds each platform link from the matching registry link', () => {
    const wallet = { mobileLink: 'trust:', desktopLink: null, webappLink: 'https://app.trust.example' }
    expect(walletConnectLink(wallet, 'mobile', uri)?.redirect).toBe(`trust://wc?uri=${encoded}`)
    expect(walletConnectLink(wallet, 'web', uri)?.redirect).toBe(`https://app.trust.example/wc?uri=${encoded}`)
    expect(walletConnectLink(wallet, 'desktop', uri)).toBeUndefined()
    expect(walletConnectLink(wallet, 'qrcode', uri)).toBeUndefined()
  })

  it('opens mobile links in place, web links in a new tab, custom schemes in place', () => {
    expect(linkTarget('mobile', 'https://metamask.app.link/wc?uri=x', false)).toBe('_self')
    expect(linkTarget('mobile', 'metamask://wc?uri=x', true)).toBe('_top')
    expect(linkTarget('web', 'https://web.example/wc?uri=x', false)).toBe('_blank')
    expect(linkTarget('desktop', 'ledgerlive://wc?uri=x', false)).toBe('_self')
    expect(linkTarget('desktop', 'ledgerlive://wc?uri=x', true)).toBe('_top')
  })
})

describe('namespaces', () => {
  it('requests every configured EVM network with wallet methods, events and latchd RPC URLs', () => {
    const ns = buildOptionalNamespaces({
      evmChainIds: [31337, 31338, 31337],
      rpcUrl: (id) => `http://127.0.0.1:8080/v1?chainId=eip155:${id}&projectId=p`,
    })
    expect(Object.keys(ns)).toEqual(['eip155'])
    expect(ns.eip155).toEqual({
      chains: ['eip155:31337', 'eip155:31338'],
      methods: [...EIP155_METHODS],
      events: ['chainChanged', 'accountsChanged'],
      rpcMap: {
        '31337': 'http://127.0.0.1:8080/v1?chainId=eip155:31337&projectId=p',
        '31338': 'http://127.0.0.1:8080/v1?chainId=eip155:31338&projectId=p',
      },
    })
    for (const method of ['personal_sign', 'eth_sendTransaction', 'eth_signTypedData_v4', 'wallet_switchEthereumChain', 'wallet_addEthereumChain']) {
      expect(ns.eip155!.methods).toContain(method)
    }
    expect(ns.eip155!.methods).not.toContain('eth_call')
  })

  it('adds configured non-EVM namespaces with their methods, and nothing else', () => {
    const ns = buildOptionalNamespaces({
      evmChainIds: [1],
      nonEvm: {
        solana: ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
        bip122: ['bip122:000000000019d6689c085ae165831e93'],
        polkadot: ['polkadot:91b171bb158e2d3848fa23a9f1c25182'],
        cosmos: ['cosmos:cosmoshub-4'],
      },
    })
    expect(Object.keys(ns)).toEqual(['eip155', 'solana', 'bip122', 'polkadot', 'cosmos'])
    expect(ns.eip155!.rpcMap).toBeUndefined()
    expect(ns.solana!.methods).toContain('solana_signMessage')
    expect(ns.bip122!.methods).toEqual(['sendTransfer', 'signMessage', 'signPsbt', 'getAccountAddresses'])
    expect(ns.bip122!.events).toContain('bip122_addressesChanged')
    expect(ns.polkadot!.chains).toEqual(['polkadot:91b171bb158e2d3848fa23a9f1c25182'])
    expect(ns.cosmos!.methods).toContain('cosmos_signDirect')
    expect(buildOptionalNamespaces({ evmChainIds: [], nonEvm: { solana: [] } })).toEqual({})
  })

  it('validates non-EVM chain lists with spec §5 CAIP-2 errors', () => {
    expect(validateNonEvmChains(undefined)).toEqual({})
    expect(validateNonEvmChains({ cosmos: ['cosmos:cosmoshub-4', 'cosmos:cosmoshub-4'], solana: [] })).toEqual({ cosmos: ['cosmos:cosmoshub-4'] })
    expect(() => validateNonEvmChains({ tron: ['tron:0x2b6653dc'] })).toThrow(/holds "tron"; allowed: solana, bip122, polkadot, cosmos/)
    expect(() => validateNonEvmChains({ solana: ['mainnet'] })).toThrow('Invalid CAIP-2 network id: mainnet')
    expect(() => validateNonEvmChains({ solana: ['cosmos:cosmoshub-4'] })).toThrow(/a chain of another namespace/)
    expect(() => validateNonEvmChains({ solana: 'solana:x' })).toThrow(/must be a list/)
    expect(() => validateNonEvmChains([])).toThrow(/must be an object/)
    expect(parseCaipNetworkId('eip155:1')).toEqual({ namespace: 'eip155', reference: '1' })
    expect(() => parseCaipNetworkId('eip155:1:0xabc')).toThrow('Invalid CAIP-2 network id: eip155:1:0xabc')
  })
})

describe('relay and RPC defaults', () => {
  it('the relay is the configured latchd, over ws(s)', () => {
    expect(defaultRelayUrl('http://127.0.0.1:8080')).toBe('ws://127.0.0.1:8080')
    expect(defaultRelayUrl('https://latch.example.com/')).toBe('wss://latch.example.com')
    expect(defaultRelayUrl('https://example.com/latch/?x=1#y')).toBe('wss://example.com/latch')
    expect(() => defaultRelayUrl('ftp://example.com')).toThrow(/http\(s\) URL/)
  })

  it('accepts only ws(s) relay URLs', () => {
    expect(validateRelayUrl('wss://relay.example/relay')).toBe('wss://relay.example/relay')
    expect(() => validateRelayUrl('https://relay.example')).toThrow(/ws:\/\/ or wss:\/\//)
    expect(() => validateRelayUrl('relay')).toThrow(/absolute URL/)
    expect(() => validateRelayUrl(3)).toThrow(/must be a string/)
  })

  it('resolves the option: false leaves WalletConnect out, the default relay is latchd', () => {
    expect(resolveWalletConnectOptions(false, 'http://127.0.0.1:8080')).toBeUndefined()
    expect(resolveWalletConnectOptions(undefined, 'http://127.0.0.1:8080')).toEqual({
      relayUrl: 'ws://127.0.0.1:8080',
      namespaces: {},
      logLevel: 'silent',
    })
    expect(resolveWalletConnectOptions({ relayUrl: 'wss://r.example', logLevel: 'warn' }, 'http://a')).toEqual({
      relayUrl: 'wss://r.example',
      namespaces: {},
      logLevel: 'warn',
    })
    expect(() => resolveWalletConnectOptions({ logLevel: 'loud' as never }, 'http://a')).toThrow(/logLevel/)
    expect(() => resolveWalletConnectOptions('yes' as never, 'http://a')).toThrow(/must be an object or false/)
  })

  it('reads go to latchd’s RPC proxy', () => {
    expect(evmRpcUrl({ apiUrl: 'https://latch.example/', projectId: 'a b' }, 8453)).toBe(
      'https://latch.example/v1?chainId=eip155:8453&projectId=a%20b',
    )
  })
})

describe('disconnect rule (spec §4)', () => {
  const connections = [
    { namespace: 'eip155', connectorId: 'walletConnect', connectorType: 'WALLET_CONNECT' as const },
    { namespace: 'solana', connectorId: 'walletConnect', connectorType: 'WALLET_CONNECT' as const },
    { namespace: 'bip122', connectorId: 'xverse', connectorType: 'ANNOUNCED' as const },
    { namespace: 'cosmos', connectorId: undefined, connectorType: undefined },
  ]

  it('a pairing-protocol disconnect takes the other chains on the same connector along', () => {
    expect(namespacesToDisconnect('solana', connections)).toEqual(['solana', 'eip155'])
    expect(namespacesToDisconnect('eip155', connections)).toEqual(['eip155', 'solana'])
  })

  it('an injected wallet disconnects only its own chain', () => {
    expect(namespacesToDisconnect('bip122', connections)).toEqual(['bip122'])
    expect(namespacesToDisconnect('cosmos', connections)).toEqual(['cosmos'])
    expect(namespacesToDisconnect('polkadot', connections)).toEqual(['polkadot'])
  })

  it('applies to the embedded wallet too', () => {
    const auth = [
      { namespace: 'eip155', connectorId: 'auth', connectorType: 'AUTH' as const },
      { namespace: 'solana', connectorId: 'auth', connectorType: 'AUTH' as const },
    ]
    expect(namespacesToDisconnect('eip155', auth)).toEqual(['eip155', 'solana'])
  })
})
