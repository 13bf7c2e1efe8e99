// The on-ramp module: the providers list rule (spec §5), the built-in
// options (spec §7, §9), the amount's messages, and over a real Latch the
// options' fallback, the quote's loading flag and stored error (spec §4, no
// made-up quote) and a checkout followed to completion.
import { createConfig, custom, mock } from '@wagmi/core'
import { mainnet, polygon } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { alice } from '../connection/test/fakeWallet'
import { createLatch } from '../latch'
import type { Latch, LatchWallet } from '../latch-types'
import { createMemoryStorage } from '../storage'
import {
  amountError,
  defaultOnrampOptions,
  fetchOnrampQuote,
  getOnrampState,
  loadOnrampOptions,
  onrampProviders,
  setOnrampForm,
  startOnrampCheckout,
} from './index'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const refusal = (status: number, description: string) => json({ status: 'FAILED', code: 'invalid', reasons: [{ field: 'amount', description }] }, status)
const amount = (a: string, c: string) => ({ amount: a, currency: c })
const quote = { paymentTotal: amount('50.00', 'USD'), paymentSubtotal: amount('49.50', 'USD'), purchaseAmount: amount('49.5', 'USDC'), fees: amount('0.50', 'USD'), networkFee: amount('0.00', 'USD'), quoteId: 'q', provider: 'dev' }

beforeEach(() => {
  vi.stubGlobal('localStorage', createMemoryStorage())
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('onrampProviders (spec §5)', () => {
  it.each([
    [['meld', 'coinbase'], ['meld', 'coinbase']],
    [['dev', 'unknown'], ['dev']],
    [['meld', 3], []],
    ['meld', []],
    [{ 0: 'meld' }, []],
    [null, []],
    [undefined, []],
  ])('%j → %j', (value, want) => {
    expect(onrampProviders(value)).toEqual(want)
  })
})

describe('defaultOnrampOptions (spec §7, §9)', () => {
  it('USD by card 10.00–7500.00 or ACH 10.00–25000.00, EUR by card; USDC on Ethereum and Polygon', () => {
    const o = defaultOnrampOptions()
    expect(o.paymentCurrencies.map((c) => c.id)).toEqual(['USD', 'EUR'])
    expect(o.paymentCurrencies[0]?.payment_method_limits).toEqual([
      { id: 'card', min: '10.00', max: '7500.00' },
      { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
    ])
    expect(o.purchaseCurrencies[0]?.symbol).toBe('USDC')
    expect(o.purchaseCurrencies[0]?.networks.map((n) => n.chain_id)).toEqual(['1', '137'])
  })
})

describe('amountError', () => {
  const usd = defaultOnrampOptions().paymentCurrencies[0]
  it.each([
    ['', 'card', 'An amount is required'],
    ['12,5', 'card', 'Number `12,5` is not a valid decimal number.'],
    ['9.99', 'card', 'Amount must be between 10.00 and 7500.00 USD for card'],
    ['7500.01', 'card', 'Amount must be between 10.00 and 7500.00 USD for card'],
    ['25000.01', 'ach_bank_account', 'Amount must be between 10.00 and 25000.00 USD for ACH bank account'],
    ['10', 'card', undefined],
    ['25000', 'ach_bank_account', undefined],
  ])('%j by %s → %j', (text, method, want) => {
    expect(amountError(text, usd, method)).toBe(want)
  })

  it('speaks the instance’s language when given it', () => {
    const catalogue = {
      'onramp.amountOutOfRange': 'Der Betrag muss zwischen {min} und {max} {currency} für {method} liegen',
      'onramp.methodAch': 'ACH-Bankkonto',
    }
    const latch = { getState: () => ({ locale: 'de', catalogue }) } as unknown as Latch
    expect(amountError('25000.01', usd, 'ach_bank_account', latch)).toBe('Der Betrag muss zwischen 10.00 und 25000.00 USD für ACH-Bankkonto liegen')
    expect(amountError('', usd, 'card', latch)).toBe('An amount is required')
  })
})

describe('over a Latch', () => {
  const wallet: LatchWallet = { id: 'mock', name: 'Mock', kind: 'injected', installed: true, connectorId: 'mock' }
  const devOptions = {
    paymentCurrencies: [{ id: 'USD', payment_method_limits: [{ id: 'card', min: '10.00', max: '7500.00' }] }],
    purchaseCurrencies: [
      { id: 'USDC', name: 'USD Coin', symbol: 'USDC', networks: [
        { name: 'eip155:1', display_name: 'Ethereum', chain_id: '1', contract_address: '0x00000000000000000000000000000000000000c1' },
        { name: 'eip155:137', display_name: 'Polygon', chain_id: '137', contract_address: '0x00000000000000000000000000000000000000c2' },
      ] },
    ],
    providers: ['dev'],
    fallback: false,
  }

  async function latchWith(routes: (url: URL, init: RequestInit | undefined) => Response | Promise<Response | undefined> | undefined, connect = true) {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = new URL(String(input))
      return (await routes(url, init)) ?? json({ status: 'FAILED', code: 'not_found', reasons: [{ field: '', description: 'not found' }] }, 404)
    })
    const wagmiConfig = createConfig({
      chains: [polygon, mainnet],
      connectors: [mock({ accounts: [alice] })],
      storage: null,
      transports: { [mainnet.id]: custom({ request: async () => '0x0' }), [polygon.id]: custom({ request: async () => '0x0' }) },
    })
    const latch = createLatch({ projectId: 'a'.repeat(32), apiUrl: 'http://latchd.test', networks: [polygon, mainnet], wagmiConfig })
    if (connect) await latch.connectWallet(wallet)
    return latch
  }

  it("options: latchd's, with its providers; the form starts on the active network's USDC", async () => {
    const latch = await latchWith((url) => (url.pathname === '/v1/onramp/options' ? json(devOptions) : undefined))
    const s = await loadOnrampOptions(latch)
    expect(s).toMatchObject({ providers: ['dev'], fallback: false, paymentCurrency: 'USD', paymentMethod: 'card', purchaseCurrency: 'USDC', network: 'eip155:137' })
  })

  it('options: latchd unreachable → the built-in options, flagged; a malformed providers list is emptied', async () => {
    const down = await latchWith(() => {
      throw new TypeError('Failed to fetch')
    })
    expect(await loadOnrampOptions(down)).toMatchObject({ fallback: true, providers: [], options: defaultOnrampOptions(), network: 'polygon-mainnet' })
    const odd = await latchWith((url) => (url.pathname === '/v1/onramp/options' ? json({ ...devOptions, providers: 'dev' }) : undefined))
    expect((await loadOnrampOptions(odd)).providers).toEqual([])
  })

  it('quote: quotesLoading while latchd answers, then the quote; a refusal is stored as its message, never a made-up quote', async () => {
    let answer: () => Response = () => json(quote)
    let posted: Record<string, unknown> | undefined
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const latch = await latchWith(async (url, init) => {
      if (url.pathname === '/v1/onramp/options') return json(devOptions)
      if (url.pathname === '/v1/onramp/quote') {
        posted = JSON.parse(String(init?.body)) as Record<string, unknown>
        await gate
        return answer()
      }
      return undefined
    })
    await loadOnrampOptions(latch)
    setOnrampForm(latch, { amount: '50' })
    const pending = fetchOnrampQuote(latch)
    await vi.waitFor(() => expect(getOnrampState(latch).quotesLoading).toBe(true))
    release()
    expect(await pending).toEqual(quote)
    expect(getOnrampState(latch)).toMatchObject({ quotesLoading: false, quote, error: undefined })
    expect(posted).toEqual({ purchaseCurrency: 'USDC', paymentCurrency: 'USD', amount: '50', network: 'eip155:137', paymentMethod: 'card', address: alice })

    answer = () => json({ status: 'FAILED', code: 'unavailable', reasons: [{ field: '', description: 'The on-ramp provider dev could not give a quote; try again later' }] }, 503)
    setOnrampForm(latch, { amount: '60' })
    expect(await fetchOnrampQuote(latch)).toBeUndefined()
    expect(getOnrampState(latch)).toMatchObject({ quotesLoading: false, quote: undefined, error: 'The on-ramp provider dev could not give a quote; try again later' })

    // An amount outside the limits is refused without asking latchd.
    posted = undefined
    setOnrampForm(latch, { amount: '5' })
    await fetchOnrampQuote(latch)
    expect(posted).toBeUndefined()
    expect(getOnrampState(latch).error).toBe('Amount must be between 10.00 and 7500.00 USD for card')
  })

  it('checkout: the popup loads the URL, the order is polled until completed, balances refresh, the popup closes', async () => {
    let polls = 0
    let checkoutBody: Record<string, unknown> | undefined
    const order = (status: string) => ({ id: 'o1', provider: 'dev', status, address: alice, network: 'eip155:137', chainId: '137', purchaseCurrency: 'USDC', purchaseAmount: '49.5', paymentCurrency: 'USD', paymentAmount: '50.00', ...(status === 'completed' ? { txHash: '0xfeed' } : {}) })
    const latch = await latchWith((url, init) => {
      if (url.pathname === '/v1/onramp/options') return json(devOptions)
      if (url.pathname === '/v1/generators/onrampurl') {
        checkoutBody = JSON.parse(String(init?.body)) as Record<string, unknown>
        return json({ url: 'http://latchd.test/dev/onramp/checkout/o1', orderId: 'o1' })
      }
      if (url.pathname === '/v1/onramp/orders/o1') return json(order(++polls < 3 ? 'pending' : 'completed'))
      return undefined
    })
    await loadOnrampOptions(latch)
    setOnrampForm(latch, { amount: '50' })
    const popup = { location: { href: '' }, closed: false, close: vi.fn() }
    const notified = vi.fn()
    latch.accountData.onTransaction(notified)
    const success = vi.spyOn(latch._internal.toasts, 'showSuccess')
    const done = await startOnrampCheckout(latch, { popup, pollMs: 1 })
    expect(done.status).toBe('completed')
    expect(popup.location.href).toBe('http://latchd.test/dev/onramp/checkout/o1?locale=en')
    expect(popup.close).toHaveBeenCalled()
    expect(checkoutBody).toMatchObject({ destinationWallets: [{ address: alice, assets: ['USDC'] }], defaultNetwork: 'eip155:137', presetFiatAmount: '50', defaultExperience: 'buy' })
    expect(notified).toHaveBeenCalledWith({ hash: '0xfeed', chainId: 137, tokens: ['eip155:137:0x00000000000000000000000000000000000000c2'] })
    expect(getOnrampState(latch).checkout).toMatchObject({ status: 'completed', orderId: 'o1' })
    expect(success).toHaveBeenCalledWith('49.5 USDC bought')
  })

  it('checkout: a failed order rejects with its reason; a refused amount never reaches latchd', async () => {
    const latch = await latchWith((url) => {
      if (url.pathname === '/v1/onramp/options') return json(devOptions)
      if (url.pathname === '/v1/generators/onrampurl') return json({ url: 'http://x/', orderId: 'o2' })
      if (url.pathname === '/v1/onramp/orders/o2') return json({ id: 'o2', provider: 'dev', status: 'failed', address: alice, network: 'eip155:137', chainId: '137', purchaseCurrency: 'USDC', purchaseAmount: '9.9', paymentCurrency: 'USD', paymentAmount: '10.00', error: 'Your card was declined' })
      return undefined
    })
    await loadOnrampOptions(latch)
    setOnrampForm(latch, { amount: '10' })
    const popup = { location: { href: '' }, closed: false, close: vi.fn() }
    await expect(startOnrampCheckout(latch, { popup, pollMs: 1 })).rejects.toThrow('Your card was declined')
    expect(getOnrampState(latch).checkout).toMatchObject({ status: 'failed', error: 'Your card was declined' })
    setOnrampForm(latch, { amount: '1' })
    const calls = vi.mocked(globalThis.fetch).mock.calls.length
    await expect(startOnrampCheckout(latch, { popup, pollMs: 1 })).rejects.toThrow('Amount must be between 10.00 and 7500.00 USD for card')
    expect(vi.mocked(globalThis.fetch).mock.calls.length).toBe(calls)
  })
})
