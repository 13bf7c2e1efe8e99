// eth_sendTransaction (EIP-1559): the transaction filled in, RLP-encoded as
// EIP-1559 and EIP-2718 type 2 give it, and signed like every EVM hash
// (evm.ts): byte for byte what viem's signTransaction makes (the tests
// compare the two). A script of its own, loaded when first used.
import { z } from 'zod/mini'
import { concatBytes } from '@noble/hashes/utils.js'
import { addressSchema, checkOwner, hexBytes, hexSchema, InvalidParamsError, isStrictAddress, keccak256, parse, signHash, toHex, type Address, type ChainCall, type Hex } from './evm'

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

/** An EIP-1559 transaction to sign, from the wallet's address. */
export interface Eip1559Transaction {
  readonly type: 'eip1559'
  readonly from: Address
  readonly to: Address | null
  readonly value: bigint
  readonly data?: Hex
  readonly chainId: number
  readonly nonce: number
  readonly gas: bigint
  readonly maxFeePerGas: bigint
  readonly maxPriorityFeePerGas: bigint
}

/**
 * buildTransaction fills an eth_sendTransaction request into an EIP-1559
 * transaction: nonce (pending count), gas (estimate), and fees (the node's
 * priority fee; max fee = base fee × 1.2 + priority fee) where not given.
 */
export async function buildTransaction(params: unknown, chainId: number, call: ChainCall): Promise<Eip1559Transaction> {
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

const MAX_UINT256 = 2n ** 256n - 1n

type RlpItem = Uint8Array | RlpItem[]

/** rlpLength is the prefix of an RLP string (base 0x80) or list (base 0xc0) of len bytes. */
function rlpLength(base: number, len: number): Uint8Array {
  if (len <= 55) return Uint8Array.of(base + len)
  const n = uint(BigInt(len))
  return concatBytes(Uint8Array.of(base + 55 + n.length), n)
}

/** rlp encodes bytes and nested lists of them (the Ethereum yellow paper, appendix B). */
export function rlp(item: RlpItem): Uint8Array {
  if (item instanceof Uint8Array) return item.length === 1 && item[0]! < 0x80 ? item : concatBytes(rlpLength(0x80, item.length), item)
  const body = concatBytes(...item.map(rlp))
  return concatBytes(rlpLength(0xc0, body.length), body)
}

/** uint is a non-negative integer as RLP takes it: big-endian, no leading zero bytes, zero as no bytes. */
function uint(n: bigint | number): Uint8Array {
  if (typeof n === 'number' && !Number.isSafeInteger(n)) throw new Error(`Number "${n}" is not in safe integer range (0 to ${Number.MAX_SAFE_INTEGER})`)
  return n ? hexBytes(`0x${n.toString(16)}`) : new Uint8Array(0)
}

/**
 * serializeTransaction is the EIP-2718 type 2 encoding of tx: 0x02 ‖
 * rlp([chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gas, to, value,
 * data, accessList (empty), and, when signed, yParity, r, s]).
 */
export function serializeTransaction(tx: Eip1559Transaction, signature?: Hex): Uint8Array {
  if (tx.chainId <= 0) throw new Error(`Chain id "${tx.chainId}" is invalid.`)
  if (tx.to && !isStrictAddress(tx.to)) throw new Error(`Address "${tx.to}" is invalid.`)
  if (tx.maxFeePerGas > MAX_UINT256) throw new Error('The fee cap (maxFeePerGas) cannot be higher than the maximum allowed value (2^256-1).')
  if (tx.maxPriorityFeePerGas > tx.maxFeePerGas) throw new Error('The tip (maxPriorityFeePerGas) cannot be higher than the fee cap (maxFeePerGas).')
  const fields: RlpItem[] = [
    uint(tx.chainId),
    uint(tx.nonce),
    uint(tx.maxPriorityFeePerGas),
    uint(tx.maxFeePerGas),
    uint(tx.gas),
    tx.to ? hexBytes(tx.to) : new Uint8Array(0),
    uint(tx.value),
    hexBytes(tx.data ?? '0x'),
    [],
  ]
  if (signature) {
    const sig = hexBytes(signature)
    const word = (b: Uint8Array) => uint(BigInt(toHex(b)))
    fields.push(uint(sig[64]! - 27), word(sig.subarray(0, 32)), word(sig.subarray(32, 64)))
  }
  return concatBytes(Uint8Array.of(2), rlp(fields))
}

/** sendTransaction signs tx with key and sends it with eth_sendRawTransaction; it returns the hash. */
export async function sendTransaction(key: Uint8Array, tx: Eip1559Transaction, call: ChainCall): Promise<Hex> {
  checkOwner(key, tx.from)
  const signature = signHash(key, keccak256(serializeTransaction(tx)))
  return (await call('eth_sendRawTransaction', [toHex(serializeTransaction(tx, signature))])) as Hex
}
