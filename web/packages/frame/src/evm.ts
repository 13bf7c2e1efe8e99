// The EVM key and personal_sign, straight on @noble/curves (secp256k1) and
// @noble/hashes (keccak-256): the key (BIP-44 with @scure/bip32), its
// address, and the signature of a 32-byte hash as r ‖ s ‖ v. These are the
// few steps viem's local account takes, done the same way (RFC 6979
// deterministic signatures, low s, v = 27 + recovery bit); the tests check
// each one against viem. eth_signTypedData_v4 (evmTypedData.ts) and
// eth_sendTransaction (evmTransaction.ts) are scripts of their own, loaded
// when first used. Parameters are validated here; the page's approval has
// been given before any of these run.
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { HDKey } from '@scure/bip32'
import { z } from 'zod/mini'
import { ADDRESS_RE, addressSchema, HEX_RE, InvalidParamsError, parse, type Address, type Hex } from './params'

export { addressSchema, hexSchema, InvalidParamsError, parse, type Address, type ChainCall, type Hex } from './params'

/** BIP-44 path of the EVM key. */
export const EVM_PATH = "m/44'/60'/0'/0/0"

/** keccak256 of bytes. */
export const keccak256 = (b: Uint8Array): Uint8Array => keccak_256(b)

/** toHex is bytes as 0x-prefixed lower-case hex. */
export const toHex = (b: Uint8Array): Hex => `0x${bytesToHex(b)}`

/**
 * hexBytes reads 0x-hex as bytes; an odd number of digits gets a leading
 * zero, as viem reads it.
 */
export function hexBytes(hex: string): Uint8Array {
  const d = hex.slice(2)
  return hexToBytes(d.length % 2 ? `0${d}` : d)
}

/** checksumAddress writes an address in EIP-55 mixed case. */
export function checksumAddress(address: string): Address {
  const lower = address.slice(2).toLowerCase()
  const h = keccak_256(utf8ToBytes(lower))
  let out = '0x'
  for (let i = 0; i < 40; i++) out += (h[i >> 1]! >> (i % 2 ? 0 : 4)) & 8 ? lower[i]!.toUpperCase() : lower[i]
  return out as Address
}

/** isStrictAddress: 40 hex digits, all lower case or a valid EIP-55 checksum (viem's isAddress). */
export function isStrictAddress(a: string): boolean {
  return ADDRESS_RE.test(a) && (a.toLowerCase() === a || checksumAddress(a) === a)
}

/** evmKey derives the wallet's EVM private key (m/44'/60'/0'/0/0) from a BIP-39 seed. */
export function evmKey(seed: Uint8Array): Uint8Array {
  const root = HDKey.fromMasterSeed(seed)
  const node = root.derive(EVM_PATH)
  const key = Uint8Array.from(node.privateKey ?? [])
  node.wipePrivateData()
  root.wipePrivateData()
  if (key.length !== 32) throw new Error('EVM key derivation failed')
  return key
}

/** evmAddress is key's checksummed address: the last 20 bytes of keccak256 of the uncompressed public key. */
export function evmAddress(key: Uint8Array): Address {
  return checksumAddress(toHex(keccak_256(secp256k1.getPublicKey(key, false).subarray(1)).subarray(12)))
}

/** checkOwner throws unless expected is key's address (any case). */
export function checkOwner(key: Uint8Array, expected: string): void {
  if (evmAddress(key).toLowerCase() !== expected.toLowerCase()) throw new InvalidParamsError(`Address ${expected} is not this wallet's`)
}

/** signHash signs a 32-byte hash: r ‖ s ‖ v (27 or 28), RFC 6979 nonce, low s. */
export function signHash(key: Uint8Array, hash: Uint8Array): Hex {
  const sig = secp256k1.sign(hash, key, { lowS: true, extraEntropy: false })
  return `0x${sig.toCompactHex()}${sig.recovery ? '1c' : '1b'}`
}

/**
 * hashMessage is EIP-191's hash of a personal message: keccak256 of
 * "\x19Ethereum Signed Message:\n" + its byte length + the message. A 0x-hex
 * message is its bytes (with viem's reading of an odd digit count), any
 * other text its UTF-8.
 */
export function hashMessage(message: string): Uint8Array {
  const hex = message !== '' && HEX_RE.test(message)
  const digits = hex ? message.slice(2) : bytesToHex(utf8ToBytes(message))
  const prefix = bytesToHex(utf8ToBytes(`\x19Ethereum Signed Message:\n${Math.ceil(digits.length / 2)}`))
  return keccak_256(hexBytes(`0x${prefix}${digits}`))
}

const personalSignParams = z.tuple([z.string(), addressSchema])

/** personalSign answers personal_sign [message, address]: a hex message is signed as bytes, other text as UTF-8. */
export async function personalSign(key: Uint8Array, params: unknown): Promise<Hex> {
  const [message, address] = parse(personalSignParams, params, 'personal_sign')
  checkOwner(key, address)
  return signHash(key, hashMessage(message))
}
