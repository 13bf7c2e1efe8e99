import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor } from '@testing-library/react'
import { loadSendModule } from '../../../../core/src/send/load'
import { connectedAddress, createConnectedFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const amount = (a: string, c: string) => ({ amount: a, currency: c })
const options = {
  paymentCurrencies: [{ id: 'USD', payment_method_limits: [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'ach_bank_account', min: '10.00', max: '25000.00' }] }],
  purchaseCurrencies: [{ id: 'USDC', name: 'USD Coin', symbol: 'USDC', networks: [{ name: 'eip155:1', display_name: 'Ethereum', chain_id: '1', contract_address: '0x00000000000000000000000000000000000000c1' }] }],
  providers: ['dev'],
  fallback: false,
}
const order = (status: string, purchase = '49.5') => ({ id: 'o1', provider: 'dev', status, address: connectedAddress, network: 'eip155:1', chainId: '1', purchaseCurrency: 'USDC', purchaseAmount: purchase, paymentCurrency: 'USD', paymentAmount: '50.00', ...(status === 'completed' ? { txHash: '0xfeed' } : {}) })
const bob = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** latchd's on-ramp and balance routes; `usdc` is the account's balance, raised by a completed order. */
function stubLatchd(state: { usdc: string; polls: number; quotes: string[] }) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input))
    if (url.pathname === '/v1/onramp/options') return json(options)
    if (url.pathname === '/v1/onramp/quote') {
      const body = JSON.parse(String(init?.body)) as { amount: string }
      state.quotes.push(body.amount)
      const fiat = Number(body.amount)
      return json({ paymentTotal: amount(fiat.toFixed(2), 'USD'), paymentSubtotal: amount((fiat * 0.99).toFixed(2), 'USD'), purchaseAmount: amount(String(fiat * 0.99), 'USDC'), fees: amount((fiat * 0.01).toFixed(2), 'USD'), networkFee: amount('0.00', 'USD'), quoteId: 'q', provider: 'dev' })
    }
    if (url.pathname === '/v1/generators/onrampurl') return json({ url: 'http://latchd.test/dev/onramp/checkout/o1', orderId: 'o1' })
    if (url.pathname === '/v1/onramp/orders/o1') {
      if (++state.polls < 2) return json(order('pending'))
      state.usdc = String(Number(state.usdc) + 49.5)
      return json(order('completed'))
    }
    if (url.pathname.endsWith('/balance')) {
      return json({ balances: [{ name: 'USD Coin', symbol: 'USDC', chainId: 'eip155:1', address: 'eip155:1:0x00000000000000000000000000000000000000c1', price: 1, quantity: { decimals: '6', numeric: state.usdc }, iconUrl: '' }] })
    }
    return json({ status: 'FAILED', code: 'not_found', reasons: [{ field: '', description: 'not found' }] }, 404)
  })
}

function stubPopup() {
  const popup = { location: { href: '' }, closed: false, close: vi.fn() }
  vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window)
  return popup
}

afterEach(() => vi.restoreAllMocks())

describe('Buy panel', () => {
  it("shows the method's limits, a refused amount's message, the live quote, then buys in a popup until the order completes", async () => {
    const state = { usdc: '0', polls: 0, quotes: [] as string[] }
    stubLatchd(state)
    const popup = stubPopup()
    const latch = createConnectedFakeLatch()
    const { user } = renderWithLatch(<></>, { latch })
    act(() => void latch.open({ view: 'OnRampProviders' }))
    expect((await screen.findByTestId('latch-onramp-limits')).textContent).toBe('From 10.00 to 7500.00 USD')
    expect(screen.getByRole('dialog', { name: 'Buy crypto' })).toBeTruthy()
    const input = screen.getByTestId('latch-onramp-amount')

    await user.type(input, '5')
    expect((await screen.findByTestId('latch-onramp-error')).textContent).toBe('Amount must be between 10.00 and 7500.00 USD for card')
    expect(state.quotes).toEqual([])
    expect((screen.getByTestId('latch-onramp-buy') as HTMLButtonElement).disabled).toBe(true)

    await user.type(input, '0')
    expect((await screen.findByTestId('latch-onramp-quote')).textContent).toBe('You get 49.5 USDC')
    expect(screen.queryByTestId('latch-onramp-error')).toBeNull()
    // ACH has its own limits.
    await user.selectOptions(screen.getByTestId('latch-onramp-method'), 'ach_bank_account')
    expect(screen.getByTestId('latch-onramp-limits').textContent).toBe('From 10.00 to 25000.00 USD')
    await screen.findByTestId('latch-onramp-quote')

    await user.click(screen.getByTestId('latch-onramp-buy'))
    await waitFor(() => expect(screen.getByTestId('latch-onramp-status').textContent).toBe('49.5 USDC bought'), { timeout: 5000 })
    expect(popup.location.href).toBe('http://latchd.test/dev/onramp/checkout/o1?locale=en')
    expect(popup.close).toHaveBeenCalled()
  }, 15_000)
})

describe('Pay view', () => {
  it('latch.pay with enough balance: the request, the balance, Pay sends it and resolves with the hash', async () => {
    stubLatchd({ usdc: '10', polls: 0, quotes: [] })
    const latch = createConnectedFakeLatch()
    const { user } = renderWithLatch(<></>, { latch })
    const controller = (await loadSendModule()).sendControllerOf(latch)
    const sendNow = vi.spyOn(controller, 'sendNow').mockResolvedValue({ hash: '0xabc', chainId: 1, explorerUrl: undefined, native: false })
    let done!: Promise<unknown>
    act(() => void (done = latch.pay({ recipient: bob, amount: '5', asset: 'USDC', network: 1 })))
    expect((await screen.findByTestId('latch-pay-summary')).textContent).toBe('Pay 5 USDC')
    expect((await screen.findByTestId('latch-pay-balance')).textContent).toBe('Your balance: 10 USDC')
    await user.click(screen.getByTestId('latch-pay-submit'))
    await expect(done).resolves.toMatchObject({ hash: '0xabc', recipient: bob, amount: '5' })
    expect(sendNow).toHaveBeenCalledWith(expect.objectContaining({ amount: '5', receiver: bob }))
  })

  it('too little balance offers the buy step; after the purchase Pay completes', async () => {
    const state = { usdc: '2', polls: 0, quotes: [] as string[] }
    stubLatchd(state)
    stubPopup()
    const latch = createConnectedFakeLatch()
    const { user } = renderWithLatch(<></>, { latch })
    const controller = (await loadSendModule()).sendControllerOf(latch)
    vi.spyOn(controller, 'sendNow').mockResolvedValue({ hash: '0xdef', chainId: 1, explorerUrl: undefined, native: false })
    let done!: Promise<unknown>
    act(() => void (done = latch.pay({ recipient: bob, amount: '5', asset: 'USDC', network: 'eip155:1' })))
    expect((await screen.findByTestId('latch-pay-missing')).textContent).toBe('You need 3 USDC more')
    expect((screen.getByTestId('latch-pay-submit') as HTMLButtonElement).disabled).toBe(true)
    await user.click(screen.getByTestId('latch-pay-buy'))
    await waitFor(() => expect(screen.getByTestId('latch-pay-balance').textContent).toBe('Your balance: 51.5 USDC'), { timeout: 5000 })
    // The rate from a quote at the minimum, then enough fiat for 3 USDC, at least the minimum.
    expect(state.quotes).toEqual(['10.00'])
    await user.click(screen.getByTestId('latch-pay-submit'))
    await expect(done).resolves.toMatchObject({ hash: '0xdef' })
  }, 15_000)

  it('Cancel rejects latch.pay with Payment cancelled', async () => {
    stubLatchd({ usdc: '10', polls: 0, quotes: [] })
    const latch = createConnectedFakeLatch()
    const { user } = renderWithLatch(<></>, { latch })
    let done!: Promise<unknown>
    act(() => void (done = latch.pay({ recipient: bob, amount: '5', asset: 'USDC', network: 1 })))
    done.catch(() => {}) // awaited below, after the click that rejects it
    await user.click(await screen.findByTestId('latch-pay-cancel'))
    await expect(done).rejects.toThrow('Payment cancelled')
  })
})
