// The Solana key and signing with it: the key (SLIP-0010 ed25519), its
// address, signMessage, signTransaction and signAndSendTransaction. A
// transaction is signed as given: its message bytes are not rebuilt, only our
// signature is put in its slot. A script of its own: the EVM paths never
// load ed25519, and this one never loads secp256k1.
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { HDKey } from 'micro-key-producer/slip10.js'
import { z } from 'zod/mini'
import { InvalidParamsError, parse } from './params'

/** SLIP-0010 path of the Solana key (every level hardened, as ed25519 requires). */
export const SOLANA_PATH = "m/44'/501'/0'/0'"

/** solanaKey derives the wallet's ed25519 private key (its 32-byte seed) at m/44'/501'/0'/0' from a BIP-39 seed. */
export function solanaKey(seed: Uint8Array): Uint8Array {
  const node = HDKey.fromMasterSeed(seed).derive(SOLANA_PATH)
  const key = Uint8Array.from(node.privateKey)
  node.privateKey.fill(0)
  return key
}

const signMessageParams = z.object({ message: z.string().check(z.minLength(1)), pubkey: z.string() })
const signTxParams = z.object({ transaction: z.string().check(z.minLength(1)) })
const sendOptions = z.optional(
  z.object({
    skipPreflight: z.optional(z.boolean()),
    preflightCommitment: z.optional(z.enum(['processed', 'confirmed', 'finalized', 'recent', 'single', 'singleGossip', 'root', 'max'])),
    maxRetries: z.optional(z.int().check(z.nonnegative())),
    minContextSlot: z.optional(z.int().check(z.nonnegative())),
  }),
)
const signAndSendParams = z.object({ transaction: z.string().check(z.minLength(1)), options: sendOptions })

/** Reads a compact-u16 (shortvec) at offset; returns [value, bytes read]. */
function shortvec(b: Uint8Array, offset: number): [number, number] {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const byte = b[offset + i]
    if (byte === undefined) throw new InvalidParamsError('Invalid transaction: truncated')
    value |= (byte & 0x7f) << (7 * i)
    if ((byte & 0x80) === 0) return [value, i + 1]
  }
  throw new InvalidParamsError('Invalid transaction: bad length')
}

/**
 * signWireTransaction signs a serialized transaction (legacy or versioned):
 * it finds our public key among the message's signers and writes our
 * signature over the message bytes into that slot.
 */
export function signWireTransaction(secretKey: Uint8Array, wire: Uint8Array): Uint8Array {
  const [numSigs, sigLen] = shortvec(wire, 0)
  const messageStart = sigLen + numSigs * 64
  const message = wire.subarray(messageStart)
  if (message.length < 4) throw new InvalidParamsError('Invalid transaction: no message')
  const versioned = (message[0]! & 0x80) !== 0
  const header = versioned ? 1 : 0
  const numRequired = message[header]!
  if (numRequired !== numSigs) throw new InvalidParamsError('Invalid transaction: signature count does not match its message')
  const [numKeys, keysLen] = shortvec(message, header + 3)
  const keysStart = header + 3 + keysLen
  if (message.length < keysStart + numKeys * 32 || numRequired > numKeys) throw new InvalidParamsError('Invalid transaction: truncated keys')
  const pub = ed25519.getPublicKey(secretKey)
  let slot = -1
  for (let i = 0; i < numRequired; i++) {
    const k = message.subarray(keysStart + i * 32, keysStart + (i + 1) * 32)
    if (k.every((v, j) => v === pub[j])) slot = i
  }
  if (slot < 0) throw new InvalidParamsError('The transaction does not need this wallet\'s signature')
  const out = new Uint8Array(wire)
  out.set(ed25519.sign(message, secretKey), sigLen + slot * 64)
  return out
}

/** solanaAddress is the base58 public key of secretKey. */
export function solanaAddress(secretKey: Uint8Array): string {
  return base58.encode(ed25519.getPublicKey(secretKey))
}

/** signMessage answers solana_signMessage {message (base58), pubkey} with {signature (base58)}. */
export function signMessage(secretKey: Uint8Array, params: unknown): { signature: string } {
  const p = parse(signMessageParams, params, 'solana_signMessage')
  if (p.pubkey !== solanaAddress(secretKey)) throw new InvalidParamsError(`Public key ${p.pubkey} is not this wallet's`)
  let message: Uint8Array
  try {
    message = base58.decode(p.message)
  } catch {
    throw new InvalidParamsError('Invalid params for solana_signMessage: message is not base58')
  }
  return { signature: base58.encode(ed25519.sign(message, secretKey)) }
}

/**
 * shownMessage is what ApproveTransaction gets for solana_signMessage: the
 * params as given, plus the message as text when its bytes are UTF-8 (the page
 * has no base58 decoder of its own to spare on its first load).
 */
export function shownMessage(params: unknown): unknown {
  const p = signMessageParams.safeParse(params)
  if (!p.success) return params
  try {
    return { ...p.data, text: new TextDecoder('utf-8', { fatal: true }).decode(base58.decode(p.data.message)) }
  } catch {
    return params
  }
}

function decodeTx(s: string): Uint8Array {
  try {
    return base64.decode(s)
  } catch {
    throw new InvalidParamsError('Invalid transaction: not base64')
  }
}

/** signTransaction answers solana_signTransaction {transaction (base64 wire bytes)} with the signed transaction (base64). */
export function signTransaction(secretKey: Uint8Array, params: unknown): { transaction: string } {
  const p = parse(signTxParams, params, 'solana_signTransaction')
  return { transaction: base64.encode(signWireTransaction(secretKey, decodeTx(p.transaction))) }
}

/**
 * signAndSendTransaction answers solana_signAndSendTransaction: it signs and
 * sends with sendTransaction (base64) and returns {signature (base58)}.
 */
export async function signAndSendTransaction(
  secretKey: Uint8Array,
  params: unknown,
  call: (method: string, params: unknown[]) => Promise<unknown>,
): Promise<{ signature: string }> {
  const p = parse(signAndSendParams, params, 'solana_signAndSendTransaction')
  const signed = signWireTransaction(secretKey, decodeTx(p.transaction))
  const signature = await call('sendTransaction', [base64.encode(signed), { encoding: 'base64', ...p.options }])
  if (typeof signature !== 'string') throw new Error('sendTransaction answered without a signature')
  return { signature }
}
