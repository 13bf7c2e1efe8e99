// The eip155 send driver's JSON-RPC. Reads (gas, fees, balances,
// receipts) go through the wagmi config's client for the chain, i.e. latchd's
// RPC proxy; the transaction goes to the connected wallet's EIP-1193 provider
// as eth_sendTransaction. Using the methods directly rather than viem's
// actions keeps their error classes (which share modules with the page's
// first-load bundle) out of the page; failures are mapped by toSendError from
// the node's and wallet's own codes and messages.
import { getConnection, type Config } from '@wagmi/core'
import { encodeFunctionData, hexToBigInt, numberToHex, type Address, type Hex } from 'viem'
import { LatchSendError, SEND_MESSAGES } from '../../../send/errors'

/** Spec §9 "Default gas fee multiplier 1.2", on the base fee (EIP-1559) or the gas price (legacy). */
export const FEE_MULTIPLIER_PERCENT = 120n

/**
 * The two ERC-20 functions send uses (rather than viem's full erc20Abi, which
 * lives in a module the first-load bundle shares).
 */
export const erc20TransferAbi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'recipient', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
] as const

/** A transaction to estimate or send. */
export interface EvmTransaction {
  readonly from: Address
  readonly to: Address
  readonly value: bigint
  readonly data?: Hex | undefined
}

/** Fees per gas: EIP-1559, or a legacy gas price (never both). */
export type EvmFees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint }

type Request = (method: string, params?: readonly unknown[]) => Promise<unknown>

/** JSON-RPC to the chain through the wagmi config's transport for it (latchd's RPC proxy). */
function chainRpc(config: Config, chainId: number): Request {
  const client = config.getClient({ chainId })
  return (method, params) => (client.request as (args: { method: string; params?: readonly unknown[] }) => Promise<unknown>)({ method, ...(params ? { params } : {}) })
}

const quantity = (value: unknown, what: string): bigint => {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) throw new Error(`${what}: the node answered ${JSON.stringify(value)}`)
  return hexToBigInt(value as Hex)
}

const rpcTransaction = (tx: EvmTransaction) => ({
  from: tx.from,
  to: tx.to,
  ...(tx.value > 0n ? { value: numberToHex(tx.value) } : {}),
  ...(tx.data && tx.data !== '0x' ? { data: tx.data } : {}),
})

/** eth_estimateGas. */
export async function estimateGas(config: Config, chainId: number, tx: EvmTransaction): Promise<bigint> {
  return quantity(await chainRpc(config, chainId)('eth_estimateGas', [rpcTransaction(tx)]), 'eth_estimateGas')
}

/** eth_gasPrice: what a unit of gas costs now. */
export async function gasPrice(config: Config, chainId: number): Promise<bigint> {
  return quantity(await chainRpc(config, chainId)('eth_gasPrice'), 'eth_gasPrice')
}

/**
 * Fees per gas to send with: on an EIP-1559 chain (the latest block has a
 * base fee) maxFeePerGas = base fee × 1.2 + tip, the tip from
 * eth_maxPriorityFeePerGas (else gas price − base fee); on a legacy chain the
 * gas price × 1.2.
 */
export async function estimateFees(config: Config, chainId: number): Promise<EvmFees> {
  const rpc = chainRpc(config, chainId)
  const block = (await rpc('eth_getBlockByNumber', ['latest', false])) as { baseFeePerGas?: unknown } | null
  if (block && typeof block.baseFeePerGas === 'string') {
    const baseFee = quantity(block.baseFeePerGas, 'baseFeePerGas')
    let tip: bigint
    try {
      tip = quantity(await rpc('eth_maxPriorityFeePerGas'), 'eth_maxPriorityFeePerGas')
    } catch {
      const price = await gasPrice(config, chainId)
      tip = price > baseFee ? price - baseFee : 0n
    }
    return { maxFeePerGas: (baseFee * FEE_MULTIPLIER_PERCENT) / 100n + tip, maxPriorityFeePerGas: tip }
  }
  return { gasPrice: ((await gasPrice(config, chainId)) * FEE_MULTIPLIER_PERCENT) / 100n }
}

/** eth_getBalance at the latest block. */
export async function nativeBalance(config: Config, chainId: number, address: Address): Promise<bigint> {
  return quantity(await chainRpc(config, chainId)('eth_getBalance', [address, 'latest']), 'eth_getBalance')
}

/** balanceOf(owner) of an ERC-20, by eth_call. */
export async function tokenBalance(config: Config, chainId: number, token: Address, owner: Address): Promise<bigint> {
  const data = encodeFunctionData({ abi: erc20TransferAbi, functionName: 'balanceOf', args: [owner] })
  const result = await chainRpc(config, chainId)('eth_call', [{ to: token, data }, 'latest'])
  if (result === '0x') throw new Error(`${token} is not an ERC-20 token on chain ${chainId} (balanceOf returned no data)`)
  return quantity(result, 'balanceOf')
}

/**
 * Sends through the connected wallet: eth_sendTransaction with the gas limit
 * and fees given. The wallet must be on `chainId` (it is asked, not assumed).
 */
export async function sendTransaction(
  config: Config,
  chainId: number,
  tx: EvmTransaction & { gas: bigint; fees: EvmFees },
): Promise<Hex> {
  const { connector, status } = getConnection(config)
  if (status !== 'connected' || !connector) throw new LatchSendError('unknown', 'No ActiveCaipAddress found')
  const provider = (await connector.getProvider()) as { request(args: { method: string; params?: unknown[] }): Promise<unknown> }
  const walletChain = Number(await provider.request({ method: 'eth_chainId' }))
  if (walletChain !== chainId) throw new LatchSendError('unknown', SEND_MESSAGES.wrongChain(walletChain, chainId))
  const fees =
    'gasPrice' in tx.fees
      ? { gasPrice: numberToHex(tx.fees.gasPrice) }
      : { maxFeePerGas: numberToHex(tx.fees.maxFeePerGas), maxPriorityFeePerGas: numberToHex(tx.fees.maxPriorityFeePerGas) }
  const hash = await provider.request({
    method: 'eth_sendTransaction',
    params: [{ ...rpcTransaction(tx), gas: numberToHex(tx.gas), ...fees }],
  })
  if (typeof hash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new Error(`eth_sendTransaction: the wallet answered ${JSON.stringify(hash)}`)
  return hash as Hex
}

/**
 * Waits for a transaction's receipt: polls eth_getTransactionReceipt from
 * 200 ms, doubling up to 4 s between polls (spec §9: 200 ms doubling), until
 * `timeoutMs` (spec §9: 180 s). Resolves 'success' or 'reverted'; rejects on
 * timeout.
 */
export async function waitForReceipt(
  config: Config,
  chainId: number,
  hash: Hex,
  options: { timeoutMs: number; firstDelayMs: number },
): Promise<'success' | 'reverted'> {
  const rpc = chainRpc(config, chainId)
  const deadline = Date.now() + options.timeoutMs
  let delay = options.firstDelayMs
  for (;;) {
    try {
      const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { status?: unknown } | null
      if (receipt) return receipt.status === '0x1' ? 'success' : 'reverted'
    } catch {
      // A failed poll is retried like an empty one.
    }
    if (Date.now() + delay > deadline) throw new Error(`No receipt for ${hash} after ${options.timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, delay))
    delay = Math.min(delay * 2, 4_000)
  }
}
