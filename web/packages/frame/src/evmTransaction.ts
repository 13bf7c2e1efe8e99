// eth_sendTransaction (EIP-1559) with viem's local account: a script of its
// own, loaded when first used (see evm.ts).
import { z } from 'zod/mini'
import { signTransaction } from 'viem/accounts'
import type { Address, Hex, TransactionSerializableEIP1559 } from 'viem'
import { addressSchema, hexSchema, InvalidParamsError, keyFor, parse, type ChainCall } from './signer'

/** Spec §9: default gas fee multiplier, applied to the base fee. */
const BASE_FEE_MULTIPLIER_PERCENT = 120n

const quantity = z.optional(z.union([hexSchema, z.bigint(), z.int().check(z.nonnegative())]))
const txSchema = z.object({
  from: addressSchema,
  to: z.optional(z.nullable(addressSchema)),
  value: quantity,
  data: z.optional(hexSchema),
  input: z.optional(hexSchema),
  gas: quantity,
  nonce: quantity,
  maxFeePerGas: quantity,
  maxPriorityFeePerGas: quantity,
  gasPrice: quantity,
})
const sendTxParams = z.tuple([txSchema])

const big = (v: string | bigint | number | undefined): bigint | undefined => (v === undefined ? undefined : BigInt(v))

/**
 * buildTransaction fills an eth_sendTransaction request into an EIP-1559
 * transaction: nonce (pending count), gas (estimate), and fees (the node's
 * priority fee; max fee = base fee × 1.2 + priority fee) where not given.
 */
export async function buildTransaction(params: unknown, chainId: number, call: ChainCall): Promise<TransactionSerializableEIP1559 & { from: Address }> {
  const [tx] = parse(sendTxParams, params, 'eth_sendTransaction')
  if (tx.gasPrice !== undefined && (tx.maxFeePerGas !== undefined || tx.maxPriorityFeePerGas !== undefined)) {
    throw new InvalidParamsError('Cannot specify both gasPrice and maxFeePerGas/maxPriorityFeePerGas')
  }
  const from = tx.from as Address
  const data = (tx.data ?? tx.input) as Hex | undefined
  const base = { from, to: (tx.to ?? null) as Address | null, value: big(tx.value) ?? 0n, ...(data ? { data } : {}) }
  const rpcTx = { from, ...(tx.to ? { to: tx.to } : {}), value: `0x${base.value.toString(16)}`, ...(data ? { data } : {}) }
  const [nonce, gas, priority, block] = await Promise.all([
    tx.nonce !== undefined ? big(tx.nonce)! : call('eth_getTransactionCount', [from, 'pending']).then((n) => BigInt(n as string)),
    tx.gas !== undefined ? big(tx.gas)! : call('eth_estimateGas', [rpcTx]).then((g) => BigInt(g as string)),
    tx.maxPriorityFeePerGas !== undefined ? big(tx.maxPriorityFeePerGas)! : call('eth_maxPriorityFeePerGas', []).then((p) => BigInt(p as string)),
    tx.maxFeePerGas !== undefined || tx.gasPrice !== undefined ? undefined : (call('eth_getBlockByNumber', ['latest', false]) as Promise<{ baseFeePerGas?: string } | null>),
  ])
  let maxFeePerGas = big(tx.maxFeePerGas) ?? big(tx.gasPrice)
  if (maxFeePerGas === undefined) {
    const baseFee = block?.baseFeePerGas
    if (!baseFee) throw new Error('The network does not support EIP-1559 fees')
    maxFeePerGas = (BigInt(baseFee) * BASE_FEE_MULTIPLIER_PERCENT) / 100n + priority
  }
  return { ...base, type: 'eip1559', chainId, nonce: Number(nonce), gas, maxFeePerGas, maxPriorityFeePerGas: priority > maxFeePerGas ? maxFeePerGas : priority }
}

/** sendTransaction signs tx with key and sends it with eth_sendRawTransaction; it returns the hash. */
export async function sendTransaction(key: Uint8Array, tx: TransactionSerializableEIP1559 & { from: Address }, call: ChainCall): Promise<Hex> {
  const { from, ...serializable } = tx
  const signed = await signTransaction({ transaction: serializable, privateKey: keyFor(key, from) })
  return (await call('eth_sendRawTransaction', [signed])) as Hex
}
