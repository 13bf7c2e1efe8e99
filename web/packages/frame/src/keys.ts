// The wallet's keys: one BIP-39 seed gives the EVM key (BIP-44,
// m/44'/60'/0'/0/0, secp256k1) and the Solana key (SLIP-0010 ed25519,
// m/44'/501'/0'/0'). What is split and stored is the seed's entropy (32 bytes,
// a 24-word mnemonic), so a mnemonic can be shown to the visitor later; the
// seed is computed from it only while signing (WebCrypto PBKDF2, native speed).
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { HDKey } from '@scure/bip32'
import { entropyToMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { HDKey as Ed25519HDKey } from 'micro-key-producer/slip10.js'
import { privateKeyToAddress } from 'viem/accounts'
import { bytesToHex, type Address, type Hex } from 'viem'

/** BIP-44 path of the EVM key. */
export const EVM_PATH = "m/44'/60'/0'/0/0"
/** SLIP-0010 path of the Solana key (every level hardened, as ed25519 requires). */
export const SOLANA_PATH = "m/44'/501'/0'/0'"
/** Bytes of entropy in a new wallet: a 24-word mnemonic. */
export const ENTROPY_BYTES = 32

/** The private keys of one wallet. Zero them with wipeKeys when done. */
export interface WalletKeys {
  /** secp256k1 private key. */
  readonly evm: Uint8Array
  /** ed25519 private key (its 32-byte seed). */
  readonly solana: Uint8Array
}

/** The public side of a wallet, safe to keep and show. */
export interface WalletAddresses {
  readonly evm: Address
  /** base58 public key. */
  readonly solana: string
}

/** newEntropy returns fresh entropy for a new wallet from the platform's CSPRNG. */
export function newEntropy(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(ENTROPY_BYTES))
}

/**
 * seedFromEntropy computes the 64-byte BIP-39 seed (no passphrase): PBKDF2-
 * HMAC-SHA512, 2048 rounds, salt "mnemonic", over the NFKD mnemonic, with the
 * platform's WebCrypto (the JavaScript PBKDF2 would take most of a signature's
 * time). The mnemonic is a JavaScript string on the way and cannot be zeroed;
 * it is dropped at once.
 */
export async function seedFromEntropy(entropy: Uint8Array): Promise<Uint8Array> {
  const enc = new TextEncoder()
  const password = enc.encode(entropyToMnemonic(entropy, wordlist).normalize('NFKD'))
  try {
    const key = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits'])
    const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-512', salt: enc.encode('mnemonic'), iterations: 2048 }, key, 512)
    return new Uint8Array(bits)
  } finally {
    password.fill(0)
  }
}

/** deriveKeys derives both private keys from a BIP-39 seed. */
export function deriveKeys(seed: Uint8Array): WalletKeys {
  const root = HDKey.fromMasterSeed(seed)
  const evmNode = root.derive(EVM_PATH)
  const evm = Uint8Array.from(evmNode.privateKey ?? [])
  evmNode.wipePrivateData()
  root.wipePrivateData()
  const solNode = Ed25519HDKey.fromMasterSeed(seed).derive(SOLANA_PATH)
  const solana = Uint8Array.from(solNode.privateKey)
  solNode.privateKey.fill(0)
  if (evm.length !== 32) throw new Error('EVM key derivation failed')
  return { evm, solana }
}

/** addressesOf computes the addresses of keys. */
export function addressesOf(keys: WalletKeys): WalletAddresses {
  return { evm: privateKeyToAddress(bytesToHex(keys.evm) as Hex), solana: base58.encode(ed25519.getPublicKey(keys.solana)) }
}

/** wipeKeys zeroes both private keys. */
export function wipeKeys(keys: WalletKeys): void {
  keys.evm.fill(0)
  keys.solana.fill(0)
}

/**
 * withKeys derives the keys from entropy, runs fn with them and zeroes the
 * seed and the keys afterwards, whatever fn does: the seed exists in memory
 * only while signing. (A hex copy viem makes of the EVM key is a string the
 * garbage collector frees; strings cannot be zeroed.)
 */
export async function withKeys<T>(entropy: Uint8Array, fn: (keys: WalletKeys) => Promise<T> | T): Promise<T> {
  const seed = await seedFromEntropy(entropy)
  let keys: WalletKeys | undefined
  try {
    keys = deriveKeys(seed)
    return await fn(keys)
  } finally {
    seed.fill(0)
    if (keys) wipeKeys(keys)
  }
}
