// EVM signing: personal_sign, eth_signTypedData_v4 and eth_sendTransaction
// (EIP-1559), with viem's local account. Parameters are validated here; the
// page's approval has been given before any of these run.
import { z } from 'zod/mini'
import { privateKeyToAddress, signMessage, signTransaction, signTypedData } from 'viem/accounts'
import { bytesToHex, isAddress, isAddressEqual, isHex, type Address, type Hex, type TransactionSerializableEIP1559 } from 'viem'

/** Sends one JSON-RPC call to the chain (through latchd's RPC proxy). */
export type ChainCall = (method: string, params: unknown[]) => Promise<unknown>

/** Spec §9: default gas fee multiplier, applied to the base fee. */
const BASE_FEE_MULTIPLIER_PERCENT = 120n

const hexSchema = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/))
const addressSchema = z.string().check(z.refine((s) => isAddress(s, { strict: false })))
const quantity = z.optional(z.union([hexSchema, z.bigint(), z.int().check(z.nonnegative())]))

const personalSignParams = z.tuple([z.string(), addressSchema])
const typedDataParams = z.tuple([addressSchema, z.union([z.string(), z.record(z.string(), z.unknown())])])
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

/** Bad parameters of a signing call. */
export class InvalidParamsError extends Error {
  override name = 'InvalidParamsError'
  readonly code = -32602
}

function parse<S extends z.ZodMiniType>(schema: S, params: unknown, method: string): z.infer<S> {
  const r = schema.safeParse(params)
  if (!r.success) throw new InvalidParamsError(`Invalid params for ${method}`)
  return r.data
}

/** keyFor returns key as viem takes it, after checking that it is expected's. */
function keyFor(key: Uint8Array, expected: string): Hex {
  const privateKey = bytesToHex(key)
  if (!isAddressEqual(privateKeyToAddress(privateKey), expected as Address)) throw new InvalidParamsError(`Address ${expected} is not this wallet's`)
  return privateKey
}

const big = (v: string | bigint | number | undefined): bigint | undefined => (v === undefined ? undefined : BigInt(v))

/** personalSign answers personal_sign [message, address]: a hex message is signed as bytes, other text as UTF-8. */
export async function personalSign(key: Uint8Array, params: unknown): Promise<Hex> {
  const [message, address] = parse(personalSignParams, params, 'personal_sign')
  return signMessage({ message: isHex(message) ? { raw: message } : message, privateKey: keyFor(key, address) })
}

/** signTypedDataV4 answers eth_signTypedData_v4 [address, typedData (JSON text or object)]. */
export async function signTypedDataV4(key: Uint8Array, params: unknown): Promise<Hex> {
  const [address, raw] = parse(typedDataParams, params, 'eth_signTypedData_v4')
  let typed: unknown = raw
  if (typeof raw === 'string') {
    try {
      typed = JSON.parse(raw)
    } catch {
      throw new InvalidParamsError('Invalid params for eth_signTypedData_v4: typed data is not JSON')
    }
  }
  const t = parse(
    z.object({ domain: z.optional(z.record(z.string(), z.unknown())), types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))), primaryType: z.string(), message: z.record(z.string(), z.unknown()) }),
    typed,
    'eth_signTypedData_v4',
  )
  const { EIP712Domain: _domain, ...types } = t.types
  const privateKey = keyFor(key, address)
  // viem checks the message against the types and refuses what does not match.
  return signTypedData({ domain: t.domain ?? {}, types, primaryType: t.primaryType, message: t.message, privateKey } as Parameters<typeof signTypedData>[0])
}

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
