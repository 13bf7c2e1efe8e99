// latch.pay (issue 22): a refused request's messages, the Pay view opened,
// the balance check (ready or what is missing), paying through the send
// path with the amount and recipient fixed, and cancelling by closing.
import { createConfig, custom, mock } from '@wagmi/core'
import { mainnet, polygon } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { alice } from '../connection/test/fakeWallet'
import { createLatch } from '../latch'
import type { Latch, LatchWallet } from '../latch-types'
import { loadSendModule } from '../send/load'
import { createMemoryStorage } from '../storage'
import { checkPayBalance, confirmPay, getPayState } from './index'
import { getPayResult } from './result'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const bob = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const usdc = (numeric: string) => ({ name: 'USD Coin', symbol: 'USDC', chainId: 'eip155:137', address: 'eip155:137:0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', price: 1, value: Number(numeric), quantity: { decimals: '6', numeric }, iconUrl: '' })

beforeEach(() => {
  vi.stubGlobal('localStorage', createMemoryStorage())
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

async function connected(balance: string): Promise<Latch> {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input))
    if (url.pathname.endsWith('/balance')) return json({ balances: [usdc(balance)] })
    return json({ status: 'FAILED', code: 'not_found', reasons: [{ field: '', description: 'not found' }] }, 404)
  })
  const wagmiConfig = createConfig({
    chains: [polygon, mainnet],
    connectors: [mock({ accounts: [alice] })],
    storage: null,
    transports: { [mainnet.id]: custom({ request: async () => '0x0' }), [polygon.id]: custom({ request: async () => '0x0' }) },
  })
  const latch = createLatch({ projectId: 'a'.repeat(32), apiUrl: 'http://latchd.test', networks: [polygon, mainnet], wagmiConfig })
  const wallet: LatchWallet = { id: 'mock', name: 'Mock', kind: 'injected', installed: true, connectorId: 'mock' }
  await latch.connectWallet(wallet)
  return latch
}

describe('latch.pay', () => {
  it.each([
    [{ recipient: '0x12', amount: '5', asset: 'USDC', network: 137 }, 'The recipient must be an address: 0x followed by 40 hexadecimal characters'],
    [{ recipient: bob, amount: '5,0', asset: 'USDC', network: 137 }, 'Number `5,0` is not a valid decimal number.'],
    [{ recipient: bob, amount: '0', asset: 'USDC', network: 137 }, 'The amount must be greater than 0'],
    [{ recipient: bob, amount: 5, asset: '', network: 137 }, 'An asset is required'],
    [{ recipient: bob, amount: 5, asset: 'USDC', network: 'eip155:10' }, "Network eip155:10 is not among this app's networks"],
  ])('refuses %j: %s, and opens nothing', async (request, message) => {
    const latch = await connected('10')
    await expect(latch.pay(request)).rejects.toThrow(message)
    expect(latch.getState().open).toBe(false)
  })

  it('opens the Pay view; enough balance: ready; paying sends the fixed amount to the fixed recipient and resolves with the hash', async () => {
    const latch = await connected('10')
    const done = latch.pay({ recipient: bob, amount: 5, asset: 'USDC', network: 'eip155:137' })
    await vi.waitFor(() => expect(latch.getState().view).toBe('Pay'))
    expect(getPayState(latch)).toMatchObject({ status: 'idle', request: { recipient: bob, amount: '5', asset: 'USDC', chainId: 137 } })
    expect(await checkPayBalance(latch)).toMatchObject({ status: 'ready', balance: '10', missing: undefined })

    const controller = (await loadSendModule()).sendControllerOf(latch)
    const sendNow = vi.spyOn(controller, 'sendNow').mockResolvedValue({ hash: '0xabc', chainId: 137, explorerUrl: undefined, native: false })
    const result = await confirmPay(latch)
    expect(sendNow).toHaveBeenCalledWith({ token: expect.objectContaining({ symbol: 'USDC' }), amount: '5', receiver: bob })
    expect(await done).toEqual({ hash: '0xabc', chainId: 137, recipient: bob, amount: '5', asset: 'USDC' })
    expect(result).toEqual(await done)
    expect(getPayResult(latch)).toEqual(result)
  })

  it('the view’s messages follow the active locale; the promise’s rejections stay English', async () => {
    const latch = await connected('10')
    const done = latch.pay({ recipient: bob, amount: 5, asset: 'DAI', network: 137 })
    await vi.waitFor(() => expect(latch.getState().view).toBe('Pay'))
    const getState = latch.getState
    vi.spyOn(latch, 'getState').mockImplementation(() => ({ ...getState(), locale: 'de', catalogue: { 'pay.noToken': 'Kein {asset} in diesem Netzwerk' } }))
    expect(await confirmPay(latch)).toBeUndefined()
    expect(getPayState(latch)).toMatchObject({ status: 'error', error: 'Kein DAI in diesem Netzwerk' })
    latch.close()
    await expect(done).rejects.toThrow('Payment cancelled')
  })

  it('too little balance: insufficient with the missing amount', async () => {
    const latch = await connected('2.25')
    void latch.pay({ recipient: bob, amount: '5', asset: 'usdc', network: 137 }).catch(() => {})
    await vi.waitFor(() => expect(latch.getState().view).toBe('Pay'))
    expect(await checkPayBalance(latch)).toMatchObject({ status: 'insufficient', balance: '2.25', missing: '2.75' })
  })

  it('a failed send stays in the view for a retry; closing the modal rejects with Payment cancelled', async () => {
    const latch = await connected('10')
    const done = latch.pay({ recipient: bob, amount: '5', asset: 'USDC', network: 137 })
    await vi.waitFor(() => expect(latch.getState().view).toBe('Pay'))
    const controller = (await loadSendModule()).sendControllerOf(latch)
    vi.spyOn(controller, 'sendNow').mockRejectedValue(new Error('Signature declined'))
    expect(await confirmPay(latch)).toBeUndefined()
    expect(getPayState(latch)).toMatchObject({ status: 'error', error: 'Signature declined' })
    latch.close()
    await expect(done).rejects.toThrow('Payment cancelled')
    expect(getPayResult(latch)).toBeUndefined()
  })
})
