// What a smart account signs and sends (a script of its own, loaded when a
// smart account first signs): eth_sendTransaction as an ERC-4337 v0.7 user
// operation through latchd's bundler and paymaster, and personal_sign /
// typed data as the owner's signature, which LatchSmartAccount's ERC-1271
// isValidSignature accepts once deployed and which is ERC-6492 wrapped
// (the factory call that would deploy it) before then.
//
// The three calls and the hashes are ABI-encoded here, for exactly the
// shapes used (a generic encoder and ABI parser would be most of this
// script): the same bytes viem's encodeFunctionData, getUserOperationHash
// and serializeErc6492Signature give, which the tests check.
import { z } from 'zod/mini'
import { addressSchema, checkOwner, hashMessage, hexBytes, hexSchema, InvalidParamsError, isStrictAddress, keccak256, parse, signHash, toHex, type Address, type ChainCall, type Hex } from './evm'
import type { SmartAccountNetwork } from './smartAccount'

/** Selectors: execute(address,uint256,bytes), createAccount(address,uint256), getNonce(address,uint192). */
const EXECUTE = '0xb61d27f6'
const CREATE_ACCOUNT = '0x5fbfb9cf'
const GET_NONCE = '0x35567e1a'
/** ERC-6492's magic suffix. */
const ERC6492_MAGIC = '6492'.repeat(16)

/** word is n as a 32-byte ABI word (64 hex digits); n must fit in bits. */
function word(n: bigint, bits = 256): string {
  if (n < 0n || n >= 1n << BigInt(bits)) throw new Error(`Number "${n}" is not in the range of uint${bits}`)
  return n.toString(16).padStart(bits / 4, '0').padStart(64, '0')
}

/** addressWord is an address as an ABI word; a mixed-case address must carry a valid EIP-55 checksum. */
function addressWord(a: string): string {
  if (!isStrictAddress(a)) throw new Error(`Address "${a}" is invalid.`)
  return a.slice(2).toLowerCase().padStart(64, '0')
}

/** bytesTail is ABI bytes' tail: the length, then the bytes right-padded to 32 (odd-length hex read with a leading zero, as everywhere). */
function bytesTail(h: Hex): string {
  const d = h.length % 2 ? `0${h.slice(2)}` : h.slice(2)
  return word(BigInt(d.length / 2)) + d.padEnd(Math.ceil(d.length / 64) * 64, '0')
}

/** gas16 is a quantity as 16 bytes (accountGasLimits, gasFees, paymaster gas limits). */
const gas16 = (q: Hex | undefined): string => word(q ? BigInt(q) : 0n, 128).slice(32)
const keccakHex = (h: string): string => toHex(keccak256(hexBytes(h))).slice(2)

/** Spec §9: default gas fee multiplier, applied to the base fee. */
const BASE_FEE_MULTIPLIER_PERCENT = 120n
/** How often and how long a sent operation's receipt is waited for. */
export const RECEIPT_POLL_MS = 250
export const RECEIPT_TIMEOUT_MS = 60_000
/**
 * A signature of the right shape for gas estimation: the account answers
 * "signature failed" for it rather than reverting, as ERC-4337 asks.
 */
const DUMMY_SIGNATURE: Hex = `0x${'ff'.repeat(32)}${'7f'.repeat(32)}1c`

/** Where a smart account is: its address, owner, network and whether it exists. */
export interface SmartAccountRef {
  readonly address: Address
  readonly owner: Address
  readonly network: SmartAccountNetwork
  readonly deployed: boolean
}

/** factoryCall is the factory and its createAccount(owner, 0) data: a first operation's initCode, ERC-6492's deployment. */
function factoryCall(account: SmartAccountRef): { factory: Address; factoryData: Hex } {
  return { factory: account.network.factory, factoryData: `${CREATE_ACCOUNT}${addressWord(account.owner)}${word(0n)}` }
}

/** wrapForUndeployed ERC-6492-wraps signature when the account does not exist yet. */
export function wrapForUndeployed(account: SmartAccountRef, signature: Hex): Hex {
  if (account.deployed) return signature
  const { factory, factoryData } = factoryCall(account)
  const data = bytesTail(factoryData)
  return `0x${addressWord(factory)}${word(0x60n)}${word(BigInt(0x60 + data.length / 2))}${data}${bytesTail(signature)}${ERC6492_MAGIC}`
}

const personalSignParams = z.tuple([z.string(), addressSchema])

/** personalSign signs for the smart account (params' address): the owner's EIP-191 signature, ERC-6492 wrapped when undeployed. */
export async function personalSign(key: Uint8Array, account: SmartAccountRef, params: unknown): Promise<Hex> {
  const [message] = parse(personalSignParams, params, 'personal_sign')
  checkOwner(key, account.owner)
  return wrapForUndeployed(account, signHash(key, hashMessage(message)))
}

const typedDataParams = z.tuple([addressSchema, z.unknown()])

/** signTypedDataV4 signs EIP-712 data for the smart account (the owner signs it), wrapped like personalSign. */
export async function signTypedDataV4(key: Uint8Array, account: SmartAccountRef, params: unknown): Promise<Hex> {
  const [, typed] = parse(typedDataParams, params, 'eth_signTypedData_v4')
  const { signTypedDataV4: ownerSigns } = await import('./evmTypedData')
  return wrapForUndeployed(account, await ownerSigns(key, [account.owner, typed]))
}

const quantity = z.optional(z.union([hexSchema, z.bigint(), z.int().check(z.nonnegative())]))
const sendTxParams = z.tuple([
  z.object({ from: addressSchema, to: z.optional(z.nullable(addressSchema)), value: quantity, data: z.optional(hexSchema), input: z.optional(hexSchema) }),
])

const hex = (n: bigint): Hex => `0x${n.toString(16)}`
const gasFields = z.object({
  preVerificationGas: hexSchema,
  verificationGasLimit: hexSchema,
  callGasLimit: hexSchema,
  paymasterVerificationGasLimit: z.optional(hexSchema),
  paymasterPostOpGasLimit: z.optional(hexSchema),
})
const stubSchema = z.object({
  paymaster: addressSchema,
  paymasterData: hexSchema,
  paymasterVerificationGasLimit: z.optional(hexSchema),
  paymasterPostOpGasLimit: z.optional(hexSchema),
})
const paymasterSchema = z.object({ paymaster: addressSchema, paymasterData: hexSchema })
const receiptSchema = z.object({
  success: z.boolean(),
  reason: z.optional(z.string()),
  receipt: z.object({ transactionHash: hexSchema }),
})

/**
 * sessionProofMessage is what the owner signs to show latchd's paymaster
 * that the operation's sender is the smart account of the signed-in
 * visitor's wallet (docs/smart-accounts.md; latchd's
 * bundler.SessionProofMessage): the session appears as its SHA-256 only.
 */
export async function sessionProofMessage(account: SmartAccountRef, session: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(session)))
  return `Latch sponsorship\nAccount: ${account.address.toLowerCase()}\nChain: ${account.network.chainId}\nSession: ${toHex(digest).slice(2)}`
}

/**
 * sponsorContext is the paymaster's ERC-7677 context: the visitor's Latch
 * session when signed in, with the owner's proof once the key is at hand
 * (pm_getPaymasterData), for projects that sponsor signed-in wallets only.
 */
async function sponsorContext(account: SmartAccountRef, session: string | undefined, key?: Uint8Array): Promise<Record<string, string>> {
  if (!session) return {}
  if (!key) return { latchSession: session }
  return { latchSession: session, latchSessionProof: signHash(key, hashMessage(await sessionProofMessage(account, session))) }
}

/** A v0.7 user operation in its JSON-RPC form (ERC-7769): hex quantities. */
export type RpcUserOperation = Record<string, Hex>

/** A user operation ready for the visitor's approval: what is shown, and the rest of the flow. */
export interface PreparedOperation {
  readonly op: RpcUserOperation
  /** Whether latchd's paymaster agreed to look at it (pm_getPaymasterStubData answered). */
  readonly sponsored: boolean
  /** What ApproveTransaction shows: the call, its fee cap and the operation's total gas. */
  readonly shown: Record<string, unknown>
}

/**
 * prepareOperation turns eth_sendTransaction's [tx] from the smart account
 * into a user operation: execute(to, value, data), the EntryPoint's nonce,
 * the factory when the account does not exist yet, fees (the node's tip;
 * base fee × 1.2 + tip), the paymaster's stub data (when latchd sponsors
 * the project, with the visitor's session when signed in; without it the
 * account pays) and the bundler's gas estimate.
 */
export async function prepareOperation(account: SmartAccountRef, params: unknown, call: ChainCall, session?: string): Promise<PreparedOperation> {
  const [tx] = parse(sendTxParams, params, 'eth_sendTransaction')
  if (tx.from.toLowerCase() !== account.address.toLowerCase()) throw new InvalidParamsError(`Address ${tx.from} is not this wallet's`)
  if (!tx.to) throw new InvalidParamsError('A smart account cannot deploy a contract with eth_sendTransaction')
  const value = tx.value === undefined ? 0n : BigInt(tx.value)
  const data = (tx.data ?? tx.input ?? '0x') as Hex
  const { entryPoint, chainId } = account.network
  const [nonce, priority, block] = await Promise.all([
    call('eth_call', [{ to: entryPoint, data: `${GET_NONCE}${addressWord(account.address)}${word(0n)}` }, 'latest']),
    call('eth_maxPriorityFeePerGas', []).then((p) => BigInt(p as string)),
    call('eth_getBlockByNumber', ['latest', false]) as Promise<{ baseFeePerGas?: string } | null>,
  ])
  if (!block?.baseFeePerGas) throw new Error('The network does not support EIP-1559 fees')
  const tip = priority > 0n ? priority : 1n
  const op: RpcUserOperation = {
    sender: account.address,
    nonce: hex(BigInt(nonce as string)),
    ...(account.deployed ? {} : factoryCall(account)),
    callData: `${EXECUTE}${addressWord(tx.to)}${word(value)}${word(0x60n)}${bytesTail(data)}`,
    maxFeePerGas: hex((BigInt(block.baseFeePerGas) * BASE_FEE_MULTIPLIER_PERCENT) / 100n + tip),
    maxPriorityFeePerGas: hex(tip),
    signature: DUMMY_SIGNATURE,
  }
  let sponsored = false
  try {
    const context = await sponsorContext(account, session)
    const stub = parse(stubSchema, await call('pm_getPaymasterStubData', [op, entryPoint, hex(BigInt(chainId)), context]), 'pm_getPaymasterStubData')
    Object.assign(op, stub)
    sponsored = true
  } catch {
    // No sponsorship for this project or network: the account pays its own gas.
  }
  const gas = parse(gasFields, await call('eth_estimateUserOperationGas', [op, entryPoint]), 'eth_estimateUserOperationGas')
  for (const [k, v] of Object.entries(gas)) if (v !== undefined) op[k] = v as Hex
  const total = ['preVerificationGas', 'verificationGasLimit', 'callGasLimit', 'paymasterVerificationGasLimit', 'paymasterPostOpGasLimit'].reduce(
    (sum, k) => sum + (op[k] ? BigInt(op[k]) : 0n),
    0n,
  )
  return {
    op,
    sponsored,
    shown: { from: account.address, to: tx.to, value: hex(value), ...(data !== '0x' ? { data } : {}), gas: hex(total), maxFeePerGas: op.maxFeePerGas, chainId: hex(BigInt(chainId)), sponsored },
  }
}

/**
 * userOperationHash is EntryPoint v0.7's hash of op: keccak256 of
 * abi.encode(keccak256(the packed operation), entryPoint, chainId), where
 * the packed operation is abi.encode(sender, nonce, keccak256(initCode),
 * keccak256(callData), accountGasLimits, preVerificationGas, gasFees,
 * keccak256(paymasterAndData)).
 */
export function userOperationHash(op: RpcUserOperation, entryPoint: Address, chainId: number): Hex {
  const initCode = op.factory ? `${op.factory}${(op.factoryData ?? '0x').slice(2)}` : '0x'
  const paymasterAndData = op.paymaster ? `${op.paymaster}${gas16(op.paymasterVerificationGasLimit)}${gas16(op.paymasterPostOpGasLimit)}${(op.paymasterData ?? '0x').slice(2)}` : '0x'
  const packed = [
    addressWord(op.sender!),
    word(BigInt(op.nonce!)),
    keccakHex(initCode),
    keccakHex(op.callData!),
    gas16(op.verificationGasLimit) + gas16(op.callGasLimit),
    word(op.preVerificationGas ? BigInt(op.preVerificationGas) : 0n),
    gas16(op.maxPriorityFeePerGas) + gas16(op.maxFeePerGas),
    keccakHex(paymasterAndData),
  ].join('')
  return `0x${keccakHex(`0x${keccakHex(`0x${packed}`)}${addressWord(entryPoint)}${word(BigInt(chainId))}`)}`
}

/**
 * sendOperation finishes an approved operation: the paymaster's signed data
 * (pm_getPaymasterData, for the final gas and fees; with the visitor's
 * session and the owner's proof when signed in), the owner's signature
 * of the userOpHash (personal_sign, as LatchSmartAccount checks it),
 * eth_sendUserOperation, then the receipt: it returns the hash of the
 * transaction that included it, and throws when the call reverted.
 */
export async function sendOperation(
  key: Uint8Array,
  account: SmartAccountRef,
  prepared: PreparedOperation,
  call: ChainCall,
  wait: { sleep: (ms: number) => Promise<void>; now: () => number },
  session?: string,
): Promise<Hex> {
  const { entryPoint, chainId } = account.network
  const op = { ...prepared.op }
  if (prepared.sponsored) {
    const context = await sponsorContext(account, session, key)
    const pm = parse(paymasterSchema, await call('pm_getPaymasterData', [op, entryPoint, hex(BigInt(chainId)), context]), 'pm_getPaymasterData')
    op.paymaster = pm.paymaster as Hex
    op.paymasterData = pm.paymasterData as Hex
  }
  checkOwner(key, account.owner)
  op.signature = signHash(key, hashMessage(userOperationHash(op, entryPoint, chainId)))
  const sent = (await call('eth_sendUserOperation', [op, entryPoint])) as Hex
  const deadline = wait.now() + RECEIPT_TIMEOUT_MS
  for (;;) {
    const r = await call('eth_getUserOperationReceipt', [sent])
    if (r) {
      const receipt = parse(receiptSchema, r, 'eth_getUserOperationReceipt')
      if (!receipt.success) throw new Error(`The transaction reverted${receipt.reason && receipt.reason !== '0x' ? `: ${receipt.reason}` : ''}`)
      return receipt.receipt.transactionHash as Hex
    }
    if (wait.now() > deadline) throw new Error(`User operation ${sent} was not included within ${RECEIPT_TIMEOUT_MS / 1000} s`)
    await wait.sleep(RECEIPT_POLL_MS)
  }
}
