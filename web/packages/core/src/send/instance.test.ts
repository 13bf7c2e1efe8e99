import { describe, expect, it, vi } from 'vitest'
import { defineChain, getAddress, type Address } from 'viem'
import type { TokenBalance } from '../account/types'
import type { SendDriver } from '../adapters/types'
import { createLatch } from '../latch'
import { loadSendController } from './actions/loadSendController'
import type { FeeEstimate } from './types'

const alice: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const bob: Address = getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc')
const devnet = defineChain({
  id: 31337,
  name: 'Latch Dev A',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:1'] } },
})
const ether = 10n ** 18n
const ethBalance: TokenBalance = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:31337', price: 3000, value: 30000, quantity: { decimals: '18', numeric: '10' }, iconUrl: '' }
const fee: FeeEstimate = {
  gas: 21_000n,
  maxFeePerGas: 2n,
  maxPriorityFeePerGas: 1n,
  expected: 21_000n,
  worstCase: 42_000n,
  nativeSymbol: 'ETH',
  nativeDecimals: 18,
  formatted: '0.000000000000021',
  usd: undefined,
}

/** A Latch whose eip155 account is connected (the connection slice set as the controller would) and whose eip155 client's send driver is `driver`. */
function connectedLatch(driver: SendDriver) {
  const latch = createLatch({ networks: [devnet], walletConnect: false })
  const { root, clients } = latch._internal
  const eip155 = clients.get('eip155')!
  eip155.sendDriver = async () => driver
  root.setState((s) => ({
    connection: {
      ...s.connection,
      namespaces: {
        ...s.connection.namespaces,
        eip155: { status: 'connected', address: alice, caipAddress: `eip155:31337:${alice}`, chainId: 31337, connectorId: 'mock', wallet: undefined },
      },
    },
  }))
  return latch
}

describe('the instance send form', () => {
  it('does the chain work through the account namespace adapter: balances, fee, the wallet transaction, the receipt', async () => {
    const driver: SendDriver = {
      readBalances: vi.fn(async () => ({ native: 10n * ether, token: 10n * ether })),
      estimateFee: vi.fn(async () => fee),
      send: vi.fn(async () => `0x${'ab'.repeat(32)}`),
      waitForReceipt: vi.fn(async () => 'success' as const),
      nativeTokenId: (chainId) => `test:${chainId}:native`,
      nameResolver: () => ({ resolve: async () => null }),
    }
    const latch = connectedLatch(driver)
    expect(latch.getState().account.status).toBe('connected')
    const refreshed: unknown[] = []
    latch.accountData.onTransaction((t) => refreshed.push(t))
    const controller = await loadSendController(latch)
    const result = await controller.sendNow({ token: ethBalance, amount: '1', receiver: bob })
    expect(result.hash).toBe(`0x${'ab'.repeat(32)}`)
    const ctx = { namespace: 'eip155', address: alice, chain: devnet }
    expect(driver.readBalances).toHaveBeenCalledWith(ctx, ethBalance)
    expect(driver.estimateFee).toHaveBeenCalledWith(ctx, { token: ethBalance, to: bob, amount: ether }, expect.anything(), [])
    expect(driver.send).toHaveBeenCalledWith(ctx, { token: ethBalance, to: bob, amount: ether }, fee)
    await vi.waitFor(() => expect(refreshed).toHaveLength(1))
    expect(driver.waitForReceipt).toHaveBeenCalledWith(31337, result.hash, expect.objectContaining({ timeoutMs: 180_000 }))
    // latchd's balance route is told of the native coin by the driver's id for it.
    expect(refreshed[0]).toMatchObject({ hash: result.hash, chainId: 31337, tokens: ['test:31337:native'] })
    // The form's state is the send slice of the instance's root store.
    expect(latch._internal.root.getState().send).toBe(controller.store.getState())
    latch.destroy()
  })

  it('a name is resolved by the namespace driver default resolver unless the app set one', async () => {
    const resolve = vi.fn(async () => bob.toLowerCase())
    const driver: SendDriver = {
      readBalances: async () => ({ native: 0n, token: 0n }),
      estimateFee: async () => fee,
      send: async () => '0x',
      waitForReceipt: async () => 'success',
      nativeTokenId: String,
      nameResolver: () => ({ resolve }),
    }
    const latch = connectedLatch(driver)
    const controller = await loadSendController(latch)
    await controller.setReceiver('bob.test')
    expect(resolve).toHaveBeenCalledWith('bob.test', devnet)
    expect(controller.store.getState()).toMatchObject({ resolvedReceiver: bob, receiverProfileName: 'bob.test' })
    latch.destroy()
  })
})
