// The solana send driver over a scripted Solana node (JSON-RPC answered per
// method) and the scripted Wallet Standard wallet: balances, fee estimates
// (with the receiver's token account rent when it has none), the send options
// the wallet is handed, refusals, and the receipt wait.
import { createConfig, custom, mock } from '@wagmi/core'
import { getBase58Encoder } from '@solana/kit'
import { mainnet } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { TokenBalance } from '../../../account/types'
import { alice } from '../../../connection/test/fakeWallet'
import { createLatch } from '../../../latch'
import type { Latch } from '../../../latch-types'
import { LatchSendError } from '../../../send/errors'
import type { SendContext } from '../../../send/types'
import { createMemoryStorage } from '../../../storage'
import type { SendDriver } from '../../types'
import { defineSolanaNetwork } from '../network'
import { fakeSolanaWallet } from '../test/fakeSolanaWallet'
import { SYSTEM_PROGRAM, waitForSignature } from './driver'

const local = defineSolanaNetwork({ reference: 'HQ2bJg89gcM1yyS9v27XxUxWLXzcssKs', name: 'Latch Solana Dev', testnet: true })
const from = 'oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96'
const to = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const mint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'
const RENT = 2_039_280

const sol: TokenBalance = { name: 'Solana', symbol: 'SOL', chainId: local.caipNetworkId, price: 150, quantity: { decimals: '9', numeric: '2' }, iconUrl: '' }
const usdc: TokenBalance = { name: 'USD Coin', symbol: 'USDC', chainId: local.caipNetworkId, address: `${local.caipNetworkId}:${mint}`, price: 1, quantity: { decimals: '6', numeric: '10' }, iconUrl: '' }
const ctx: SendContext = { namespace: 'solana', address: from, chain: local }

/** The scripted node: what it answers and what it was asked. */
function node(options: { receiverHasTokenAccount?: boolean } = {}) {
  const asked: { method: string; params: unknown[] }[] = []
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    if (!String(url).includes('chainId=solana')) throw new TypeError('fetch failed')
    const { method, params, id } = JSON.parse(String(init?.body)) as { method: string; params: unknown[]; id: number }
    asked.push({ method, params })
    const ok = (result: unknown) => new Response(JSON.stringify({ jsonrpc: '2.0', id, result }))
    const ctxSlot = { slot: 5 }
    switch (method) {
      case 'getBalance':
        return ok({ context: ctxSlot, value: 2_000_000_000 })
      case 'getTokenAccountsByOwner':
        return ok({ context: ctxSlot, value: [{ pubkey: to, account: { data: { parsed: { info: { tokenAmount: { amount: '10000000' } } } } } }] })
      case 'getLatestBlockhash':
        return ok({ context: ctxSlot, value: { blockhash: to, lastValidBlockHeight: 100 } })
      case 'getFeeForMessage':
        return ok({ context: ctxSlot, value: 5000 })
      case 'getAccountInfo':
        return ok({ context: ctxSlot, value: options.receiverHasTokenAccount ? { lamports: 1, data: ['', 'base64'] } : null })
      case 'getMinimumBalanceForRentExemption':
        return ok(RENT)
      default:
        return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } }))
    }
  })
  return asked
}

let latch: Latch
let wallet: ReturnType<typeof fakeSolanaWallet>
let driver: SendDriver
beforeEach(async () => {
  vi.stubGlobal('localStorage', createMemoryStorage())
  const win = new EventTarget()
  vi.stubGlobal('window', win)
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  wallet = fakeSolanaWallet()
  wallet.register(win)
  const wagmiConfig = createConfig({ chains: [mainnet], connectors: [mock({ accounts: [alice] })], storage: null, transports: { [mainnet.id]: custom({ request: async () => '0x0' }) } })
  latch = createLatch({ projectId: 'p'.repeat(32), apiUrl: 'http://127.0.0.1:1', networks: [mainnet, local], wagmiConfig })
  await latch.init()
  await latch._internal.clients.get('solana')!.connect('solana:Phantomish')
  driver = (await latch._internal.clients.get('solana')!.sendDriver())
})
afterEach(() => {
  latch.destroy()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const bytes = (address: string) => new Uint8Array(getBase58Encoder().encode(address))
const contains = (haystack: Uint8Array, needle: Uint8Array) => Buffer.from(haystack).includes(Buffer.from(needle))
const sent = () => wallet.calls.filter((c) => c.method === 'signAndSendTransaction').map((c) => (c.input as { transaction: Uint8Array; chain: string; options: unknown }[])[0]!)

describe('the solana send driver', () => {
  it('reads SOL and an SPL token balance on chain', async () => {
    const asked = node()
    expect(await driver.readBalances(ctx, sol)).toEqual({ native: 2_000_000_000n, token: 2_000_000_000n })
    expect(await driver.readBalances(ctx, usdc)).toEqual({ native: 2_000_000_000n, token: 10_000_000n })
    expect(asked.find((a) => a.method === 'getTokenAccountsByOwner')?.params.slice(0, 2)).toEqual([from, { mint }])
  })

  it('estimates a SOL transfer at the node’s fee for its message, in SOL and USD', async () => {
    const asked = node()
    const fee = await driver.estimateFee(ctx, { token: sol, to, amount: 500_000_000n }, {}, [sol])
    expect(fee).toMatchObject({ expected: 5000n, worstCase: 5000n, formatted: '0.000005', nativeSymbol: 'SOL', nativeDecimals: 9 })
    expect(fee.usd).toBeCloseTo(0.00075)
    expect(asked.map((a) => a.method)).toEqual(['getLatestBlockhash', 'getFeeForMessage'])
  })

  it('a token transfer to a receiver without a token account creates it, and its rent counts in the fee', async () => {
    node()
    const fee = await driver.estimateFee(ctx, { token: usdc, to, amount: 2_000_000n }, {}, [sol, usdc])
    expect(fee.worstCase).toBe(5000n + BigInt(RENT))
    await driver.send(ctx, { token: usdc, to, amount: 2_000_000n }, fee)
    expect(contains(sent()[0]!.transaction, bytes(ATA_PROGRAM))).toBe(true)
  })

  it('a token transfer to an existing token account only transfers', async () => {
    node({ receiverHasTokenAccount: true })
    const fee = await driver.estimateFee(ctx, { token: usdc, to, amount: 2_000_000n }, {}, [sol, usdc])
    expect(fee.worstCase).toBe(5000n)
    await driver.send(ctx, { token: usdc, to, amount: 2_000_000n }, fee)
    expect(contains(sent()[0]!.transaction, bytes(ATA_PROGRAM))).toBe(false)
  })

  it('hands the wallet the transaction on the network’s chain with the caller’s send options, and returns the base58 signature', async () => {
    node()
    const options = { skipPreflight: true, preflightCommitment: 'processed', maxRetries: 3, minContextSlot: 7 } as const
    const fee = await driver.estimateFee(ctx, { token: sol, to, amount: 500_000_000n }, options, [sol])
    const signature = await driver.send(ctx, { token: sol, to, amount: 500_000_000n }, fee)
    expect(signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    const [input] = sent()
    expect(input!.chain).toBe(local.caipNetworkId)
    expect(input!.options).toEqual(options)
    // The System program's transfer to the receiver, paid by the sender.
    expect(contains(input!.transaction, bytes(to))).toBe(true)
    expect(contains(input!.transaction, bytes(from))).toBe(true)
    expect(contains(input!.transaction, bytes(SYSTEM_PROGRAM))).toBe(true)
  })

  it.each([
    [{ gas: 21000n }, 'gas is an EVM fee field; a Solana send takes skipPreflight, preflightCommitment, maxRetries and minContextSlot'],
    [{ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }, 'maxFeePerGas, maxPriorityFeePerGas are EVM fee fields; a Solana send takes skipPreflight, preflightCommitment, maxRetries and minContextSlot'],
    [{ preflightCommitment: 'soon' }, 'preflightCommitment must be one of processed, confirmed, finalized, recent, single, singleGossip, root or max, not "soon"'],
    [{ maxRetries: -1 }, 'maxRetries must be a whole number of 0 or more, not -1'],
    [{ minContextSlot: 1.5 }, 'minContextSlot must be a whole number of 0 or more, not 1.5'],
    [{ skipPreflight: 'yes' }, 'skipPreflight must be true or false'],
  ])('refuses %o before asking the node or the wallet', async (overrides, message) => {
    const asked = node()
    const error = await driver.estimateFee(ctx, { token: sol, to, amount: 1n }, overrides as never, [sol]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LatchSendError)
    expect((error as LatchSendError).kind).toBe('invalid_options')
    expect((error as LatchSendError).message).toBe(message)
    expect(asked).toEqual([])
    expect(sent()).toEqual([])
  })

  it('names receivers only through an app’s resolver', async () => {
    await expect(driver.nameResolver().resolve('alice.sol', local)).rejects.toThrow('Names cannot be resolved on Latch Solana Dev')
    expect(driver.nativeTokenId(local.id)).toBe(`${local.caipNetworkId}:${SYSTEM_PROGRAM}`)
  })
})

describe('waitForSignature', () => {
  it('polls until the signature is confirmed: success, or reverted when it failed on chain', async () => {
    const answers = [null, { err: null, confirmationStatus: 'processed' }, { err: null, confirmationStatus: 'confirmed' }]
    const rpc = vi.fn(async () => ({ value: [answers.shift() ?? null] })) as never
    await expect(waitForSignature(rpc, 'sig', { timeoutMs: 1000, firstDelayMs: 1 })).resolves.toBe('success')
    const failed = vi.fn(async () => ({ value: [{ err: { InstructionError: [0, 'Custom'] }, confirmationStatus: 'finalized' }] })) as never
    await expect(waitForSignature(failed, 'sig', { timeoutMs: 1000, firstDelayMs: 1 })).resolves.toBe('reverted')
    const never = vi.fn(async () => ({ value: [null] })) as never
    await expect(waitForSignature(never, 'sig', { timeoutMs: 20, firstDelayMs: 5 })).rejects.toThrow('No confirmation of sig after 20 ms')
  })
})
