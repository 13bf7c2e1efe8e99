import { afterEach, describe, expect, it, vi } from 'vitest'
import { connect, createConfig, custom, disconnect, mock, type Config } from '@wagmi/core'
import { decodeFunctionData, encodeAbiParameters, erc20Abi, getAddress, numberToHex, type Address, type Hex } from 'viem'
import { defineChain } from 'viem'
import { createAccountClient } from '../account/client'
import { createAccountData } from '../account/data'
import type { TokenBalance } from '../account/types'
import { createEip155SendDriver } from '../adapters/eip155/send/driver'
import { createSendController, type SendNotice } from './controller'
import { LatchSendError } from './errors'

const alice: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const bob: Address = getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc')
const usdcAddress: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const devnet = defineChain({
  id: 31337,
  name: 'Latch Dev A',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://rpc.dev.test/'] } },
  blockExplorers: { default: { name: 'DevScan', url: 'https://scan.dev.test/' } },
  testnet: true,
})

const ether = 10n ** 18n
const gwei = 10n ** 9n

/**
 * A tiny in-memory EVM for the transport: balances, an ERC-20 at usdcAddress,
 * EIP-1559 fees (base fee 1 gwei, tip 1 gwei), gas 21000 for a transfer and
 * 52000 for a token call, receipts. eth_sendTransaction applies the transfer.
 */
function fakeChain() {
  const native = new Map<string, bigint>([[alice.toLowerCase(), 10n * ether]])
  const usdc = new Map<string, bigint>([[alice.toLowerCase(), 100_000_000n]])
  const sent: Record<string, unknown>[] = []
  const calls: string[] = []
  let reject: { code: number; message: string } | undefined
  let nodeError: { code: number; message: string } | undefined
  let nonce = 0
  const request = async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
    calls.push(method)
    const p = (params ?? []) as any[]
    switch (method) {
      case 'eth_chainId':
        return numberToHex(devnet.id)
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return [alice]
      case 'eth_getBalance':
        return numberToHex(native.get(String(p[0]).toLowerCase()) ?? 0n)
      case 'eth_call': {
        const { args } = decodeFunctionData({ abi: erc20Abi, data: p[0].data as Hex })
        return encodeAbiParameters([{ type: 'uint256' }], [usdc.get(String(args![0]).toLowerCase()) ?? 0n])
      }
      case 'eth_estimateGas':
        if (nodeError) throw Object.assign(new Error(nodeError.message), nodeError)
        return numberToHex(p[0].data ? 52_000n : 21_000n)
      case 'eth_gasPrice':
        return numberToHex(2n * gwei)
      case 'eth_maxPriorityFeePerGas':
        return numberToHex(1n * gwei)
      case 'eth_getBlockByNumber':
        return { number: '0x10', baseFeePerGas: numberToHex(1n * gwei), hash: `0x${'11'.repeat(32)}`, timestamp: '0x1', transactions: [] }
      case 'eth_sendTransaction': {
        if (reject) {
          const e = reject
          reject = undefined
          throw Object.assign(new Error(e.message), e)
        }
        const tx = p[0]
        sent.push(tx)
        const from = String(tx.from).toLowerCase()
        if (tx.data && tx.data !== '0x') {
          const { args } = decodeFunctionData({ abi: erc20Abi, data: tx.data as Hex })
          const [to, amount] = args as [Address, bigint]
          usdc.set(from, (usdc.get(from) ?? 0n) - amount)
          usdc.set(to.toLowerCase(), (usdc.get(to.toLowerCase()) ?? 0n) + amount)
        } else {
          const value = BigInt(tx.value ?? 0)
          native.set(from, (native.get(from) ?? 0n) - value)
          native.set(String(tx.to).toLowerCase(), (native.get(String(tx.to).toLowerCase()) ?? 0n) + value)
        }
        return `0x${(++nonce).toString(16).padStart(64, '0')}`
      }
      case 'eth_getTransactionReceipt':
        return {
          transactionHash: p[0],
          blockHash: `0x${'22'.repeat(32)}`,
          blockNumber: '0x11',
          status: '0x1',
          logs: [],
          cumulativeGasUsed: '0x5208',
          gasUsed: '0x5208',
          effectiveGasPrice: '0x1',
          from: alice,
          to: bob,
          type: '0x2',
          transactionIndex: '0x0',
          logsBloom: `0x${'00'.repeat(256)}`,
          contractAddress: null,
        }
      case 'eth_blockNumber':
        return '0x11'
      default:
        throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 })
    }
  }
  return {
    native,
    usdc,
    sent,
    calls,
    request,
    rejectNext: (e = { code: 4001, message: 'User rejected the request.' }) => void (reject = e),
    failEstimate: (e: { code: number; message: string } | undefined) => void (nodeError = e),
  }
}

const ethBalance: TokenBalance = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:31337', price: 3000, value: 30000, quantity: { decimals: '18', numeric: '10' }, iconUrl: '' }
const usdcBalance: TokenBalance = {
  name: 'USD Coin',
  symbol: 'USDC',
  chainId: 'eip155:31337',
  address: `eip155:31337:${usdcAddress}`,
  price: 1,
  value: 100,
  quantity: { decimals: '6', numeric: '100' },
  iconUrl: '',
}

let config: Config | undefined
afterEach(async () => {
  if (config) await disconnect(config).catch(() => {})
  config = undefined
  vi.unstubAllGlobals()
})

/** wagmi's mock connector sends wallet methods to the chain's RPC URL: answer them from the fake chain. */
function routeRpc(chain: ReturnType<typeof fakeChain>) {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!String(input).startsWith('http://rpc.dev.test')) throw new Error(`unexpected fetch ${String(input)}`)
    const body = JSON.parse(String(init?.body)) as { id: number; method: string; params?: unknown }
    try {
      const result = await chain.request(body)
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }), { headers: { 'Content-Type': 'application/json' } })
    } catch (error) {
      const { code, message } = error as { code: number; message: string }
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code, message } }), { headers: { 'Content-Type': 'application/json' } })
    }
  })
}

async function setup(options: { namespace?: string; connected?: boolean; catalogue?: Record<string, string> } = {}) {
  const chain = fakeChain()
  routeRpc(chain)
  const wagmi = createConfig({
    chains: [devnet],
    connectors: [mock({ accounts: [alice] })],
    storage: null,
    batch: { multicall: false },
    transports: { [devnet.id]: custom({ request: chain.request }) },
  })
  config = wagmi
  await connect(wagmi, { connector: wagmi.connectors[0]! })
  const notices: SendNotice[] = []
  const errors: string[] = []
  const returnToAccount = vi.fn()
  const transactions: unknown[] = []
  const accountData = createAccountData({
    client: createAccountClient({ apiUrl: 'http://latchd.test', projectId: 'p', sdkVersion: 't', fetch: async () => new Response('{}', { status: 500 }) }),
    showError: () => {},
  })
  accountData.onTransaction((t) => transactions.push(t))
  let switched: (() => void) | undefined
  const controller = createSendController({
    // The eip155 adapter's driver over this config; other namespaces have none yet.
    driver: async (namespace) => (namespace === 'eip155' ? createEip155SendDriver(wagmi) : undefined),
    getContext: () => (options.connected === false ? undefined : { namespace: options.namespace ?? 'eip155', address: alice, chain: devnet }),
    accountData,
    notify: { success: (n) => notices.push(n), error: (m) => errors.push(m) },
    returnToAccount,
    onNetworkSwitched: (listener) => {
      switched = listener
      return () => (switched = undefined)
    },
    waitForReceipt: false,
    locale: () => ({ locale: options.catalogue ? 'de' : 'en', catalogue: options.catalogue }),
  })
  controller.setTokenBalances([ethBalance, usdcBalance])
  return { chain, controller, notices, errors, returnToAccount, transactions, switchNetwork: () => switched?.() }
}

describe('send controller', () => {
  it('ERC-20: review estimates gas × price in ETH and USD, then transfer() through the wallet; loading set and cleared; back to Account', async () => {
    const { chain, controller, notices, returnToAccount, transactions } = await setup()
    controller.setToken(usdcBalance)
    controller.setAmount('1.5')
    await controller.setReceiver(bob)
    expect(await controller.review()).toBe(true)
    const { fee, step } = controller.store.getState()
    expect(step).toBe('review')
    expect(fee).toMatchObject({ gas: 52_000n, maxPriorityFeePerGas: 1n * gwei, nativeSymbol: 'ETH' })
    expect(fee!.expected).toBe(52_000n * 2n * gwei) // gas × current gas price
    expect(fee!.worstCase).toBe(52_000n * fee!.maxFeePerGas!)
    expect(fee!.formatted).toBe('0.000104')
    expect(fee!.usd).toBeCloseTo(0.000104 * 3000)

    const loading: boolean[] = []
    const unsubscribe = controller.store.subscribe((s, prev) => s.loading !== prev.loading && loading.push(s.loading))
    const result = await controller.send()
    unsubscribe()
    expect(loading).toEqual([true, false])
    expect(chain.sent).toHaveLength(1)
    const tx = chain.sent[0]!
    expect(String(tx.to).toLowerCase()).toBe(usdcAddress.toLowerCase())
    expect(decodeFunctionData({ abi: erc20Abi, data: tx.data as Hex })).toEqual({ functionName: 'transfer', args: [bob, 1_500_000n] })
    expect(chain.usdc.get(bob.toLowerCase())).toBe(1_500_000n)
    expect(result).toMatchObject({ chainId: 31337, native: false, explorerUrl: `https://scan.dev.test/tx/${result.hash}` })
    expect(notices).toEqual([{ message: 'Sent 1.5 USDC', link: { url: result.explorerUrl, label: 'View on DevScan' } }])
    expect(returnToAccount).toHaveBeenCalledOnce()
    expect(transactions).toEqual([{ hash: result.hash, chainId: 31337, caipNetworkId: 'eip155:31337', tokens: [usdcBalance.address] }])
    // The form is reset (spec §4); the balances stay.
    expect(controller.store.getState()).toMatchObject({ token: ethBalance, sendTokenAmount: '', receiverAddress: '', step: 'form', loading: false })
    expect(controller.store.getState().tokenBalances).toHaveLength(2)
  })

  it('native: eth_sendTransaction with the value; back to Account too; forceUpdate names the native coin', async () => {
    const { chain, controller, returnToAccount, transactions } = await setup()
    const result = await controller.sendNow({ token: ethBalance, amount: '0.01', receiver: bob.toLowerCase() })
    expect(chain.sent).toHaveLength(1)
    expect(BigInt(chain.sent[0]!.value as string)).toBe(10n ** 16n)
    expect(getAddress(String(chain.sent[0]!.to))).toBe(bob)
    expect(chain.native.get(bob.toLowerCase())).toBe(10n ** 16n)
    expect(result.native).toBe(true)
    // Every successful send returns to Account, a native one too.
    expect(returnToAccount).toHaveBeenCalledOnce()
    expect(transactions).toEqual([{ hash: result.hash, chainId: 31337, caipNetworkId: 'eip155:31337', tokens: ['eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'] }])
  })

  it.each([
    ['empty fields', {}, 'An amount and receiver address are required'],
    ['no token', { amount: '1', receiver: bob }, 'A token is required'],
    ['bad amount', { token: usdcBalance, amount: '1.2.3', receiver: bob }, 'Number `1.2.3` is not a valid decimal number.'],
    ['bad address', { token: usdcBalance, amount: '1', receiver: '0x1234' }, 'Address "0x1234" is invalid.'],
    ['over the token balance', { token: usdcBalance, amount: '100.000001', receiver: bob }, 'Insufficient USDC balance'],
    ['amount + fee over the ETH balance', { token: ethBalance, amount: '10', receiver: bob }, 'Insufficient ETH balance for the amount plus the network fee'],
  ])('%s: the message, and nothing is sent', async (_, request, message) => {
    const { chain, controller } = await setup()
    // The form starts on the native coin; these requests are checked without a token chosen.
    controller.setToken(undefined)
    await expect(controller.sendNow(request)).rejects.toThrow(message)
    expect(controller.store.getState().error).toBe(message)
    expect(chain.calls).not.toContain('eth_sendTransaction')
  })

  it('messages follow the active locale; the kind does not', async () => {
    const catalogue = {
      'send.insufficientToken': 'Unzureichendes {symbol}-Guthaben',
      'send.tokenRequired': 'Ein Token ist erforderlich',
      'send.sent': '{amount} {symbol} gesendet',
      'send.viewOn': 'Auf {name} ansehen',
    }
    const { controller, notices } = await setup({ catalogue })
    const error = await controller.sendNow({ token: usdcBalance, amount: '100.000001', receiver: bob }).catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'insufficient_balance', message: 'Unzureichendes USDC-Guthaben' })
    expect(controller.store.getState()).toMatchObject({ errorKind: 'insufficient_balance', error: 'Unzureichendes USDC-Guthaben' })
    // A key the catalogue lacks falls back to English.
    await expect(controller.sendNow({ token: usdcBalance, amount: '1', receiver: '0x1234' })).rejects.toThrow('Address "0x1234" is invalid.')
    controller.setToken(undefined)
    await controller.setMax()
    expect(controller.store.getState()).toMatchObject({ errorKind: 'missing_token', error: 'Ein Token ist erforderlich' })
    const result = await controller.sendNow({ token: usdcBalance, amount: '1.5', receiver: bob })
    expect(notices).toEqual([{ message: '1.5 USDC gesendet', link: { url: result.explorerUrl, label: 'Auf DevScan ansehen' } }])
  })

  it('"Unsupported chain" for a namespace other than eip155/solana', async () => {
    const { controller, chain } = await setup({ namespace: 'bip122' })
    await expect(controller.sendNow({ token: ethBalance, amount: '1', receiver: bob })).rejects.toThrow('Unsupported chain')
    expect(chain.calls).not.toContain('eth_sendTransaction')
  })

  it('a wallet rejection is shown as such; loading cleared; the form is kept for another try', async () => {
    const { chain, controller, notices } = await setup()
    controller.setToken(ethBalance)
    controller.setAmount('0.5')
    await controller.setReceiver(bob)
    await controller.review()
    chain.rejectNext()
    const error = await controller.send().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LatchSendError)
    expect(error).toMatchObject({ kind: 'user_rejected', message: 'User rejected the request.' })
    expect(controller.store.getState()).toMatchObject({ loading: false, error: 'User rejected the request.', sendTokenAmount: '0.5', step: 'review' })
    expect(notices).toEqual([])
    expect(chain.native.get(bob.toLowerCase())).toBeUndefined()
  })

  it('node gas errors map to their message at review', async () => {
    const { chain, controller } = await setup()
    chain.failEstimate({ code: -32000, message: 'execution reverted: ERC20: transfer amount exceeds balance' })
    controller.setToken(usdcBalance)
    controller.setAmount('1')
    await controller.setReceiver(bob)
    expect(await controller.review()).toBe(false)
    expect(controller.store.getState()).toMatchObject({ errorKind: 'reverted', error: 'The transaction would fail: ERC20: transfer amount exceeds balance', step: 'form' })
  })

  it('the fee conflict is refused before anything is asked', async () => {
    const { chain, controller } = await setup()
    await expect(controller.sendNow({ token: ethBalance, amount: '1', receiver: bob, gasPrice: 1n, maxFeePerGas: 2n })).rejects.toThrow(
      'Cannot specify both gasPrice and maxFeePerGas/maxPriorityFeePerGas',
    )
    expect(chain.calls).not.toContain('eth_sendTransaction')
  })

  it('Max: the token balance, or the ETH balance less the worst-case fee', async () => {
    const { controller } = await setup()
    controller.setToken(usdcBalance)
    await controller.setMax()
    expect(controller.store.getState().sendTokenAmount).toBe('100')
    controller.setToken(ethBalance)
    await controller.setMax()
    const { sendTokenAmount } = controller.store.getState()
    const max = BigInt(Math.round(Number(sendTokenAmount) * 1e9)) * 10n ** 9n
    expect(max < 10n * ether).toBe(true)
    // and that amount passes the balance check
    await controller.setReceiver(bob)
    expect(await controller.review()).toBe(true)
  })

  it('a name is refused where no resolver can resolve it', async () => {
    const { controller } = await setup()
    await controller.setReceiver('alice.eth')
    expect(controller.store.getState().error).toBe('Names cannot be resolved on Latch Dev A')
  })

  it('a pluggable resolver turns a name into the receiver, and the send goes to that address', async () => {
    const { chain, controller } = await setup()
    const asked: string[] = []
    controller.setResolver({
      resolve: async (name) => {
        asked.push(name)
        return name === 'bob.dev' ? bob.toLowerCase() : null
      },
    })
    await controller.setReceiver('bob.dev')
    expect(controller.store.getState()).toMatchObject({ resolvedReceiver: bob, receiverProfileName: 'bob.dev', error: undefined })
    await controller.setReceiver('nobody.dev')
    expect(controller.store.getState().error).toBe('No address found for nobody.dev')
    await controller.sendNow({ token: ethBalance, amount: '0.5', receiver: 'bob.dev' })
    expect(getAddress(String(chain.sent[0]!.to))).toBe(bob)
    expect(asked).toEqual(['bob.dev', 'nobody.dev', 'bob.dev'])
  })

  it('the form starts on the native coin, and again after a send or a reset', async () => {
    const { controller } = await setup()
    expect(controller.store.getState().token).toBe(ethBalance)
    controller.setToken(usdcBalance)
    controller.setTokenBalances([ethBalance, usdcBalance])
    expect(controller.store.getState().token).toBe(usdcBalance)
    controller.reset()
    expect(controller.store.getState().token).toBe(ethBalance)
    controller.setToken(undefined)
    controller.setTokenBalances([usdcBalance])
    expect(controller.store.getState().token).toBeUndefined()
  })

  it('a network switch clears the form and the balances (spec §4)', async () => {
    const { controller, switchNetwork } = await setup()
    controller.setToken(usdcBalance)
    controller.setAmount('3')
    switchNetwork()
    expect(controller.store.getState()).toMatchObject({ token: undefined, sendTokenAmount: '', tokenBalances: [] })
  })

  it('disconnected: "No ActiveCaipAddress found"', async () => {
    const { controller } = await setup({ connected: false })
    await expect(controller.sendNow({ token: ethBalance, amount: '1', receiver: bob })).rejects.toThrow('No ActiveCaipAddress found')
  })
})
