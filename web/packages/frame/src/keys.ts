// The wallet's keys: one BIP-39 seed gives the EVM key (BIP-44,
// m/44'/60'/0'/0/0, secp256k1; evm.ts) and the Solana key (SLIP-0010 ed25519,
// m/44'/501'/0'/0'; solana.ts). What is split and stored is the seed's
// entropy (32 bytes, a 24-word mnemonic), so a mnemonic can be shown to the
// visitor later; the seed is computed from it only while signing (WebCrypto
// PBKDF2, native speed). Each chain's key code is a script of its own,
// loaded by withKeys for the chains it is asked for: an EVM signature never
// loads ed25519 and a Solana one never loads secp256k1.
import { entropyToMnemonic } from '@scure/bip39'
import type { Address } from './params'
import { wordlist } from './wordlist'

/** Bytes of entropy in a new wallet: a 24-word mnemonic. */
export const ENTROPY_BYTES = 32

/** The chains the wallet has a key for. */
export type Chain = 'evm' | 'solana'
/** Both chains. */
export const CHAINS: readonly Chain[] = ['evm', 'solana']

/** The private keys of one wallet; a chain withKeys was not asked for has an empty key. */
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

/** A chain's key code: the key from a BIP-39 seed, and its address. */
interface ChainKeys {
  key(seed: Uint8Array): Uint8Array
  address(key: Uint8Array): string
}
const chainKeys: Record<Chain, () => Promise<ChainKeys>> = {
  evm: () => import('./evm').then((m) => ({ key: m.evmKey, address: m.evmAddress })),
  solana: () => import('./solana').then((m) => ({ key: m.solanaKey, address: m.solanaAddress })),
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
  const password = enc.encode(entropyToMnemonic(entropy, wordlist as string[]).normalize('NFKD'))
  try {
    const key = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits'])
    const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-512', salt: enc.encode('mnemonic'), iterations: 2048 }, key, 512)
    return new Uint8Array(bits)
  } finally {
    password.fill(0)
  }
}

/** wipeKeys zeroes both private keys. */
export function wipeKeys(keys: WalletKeys): void {
  keys.evm.fill(0)
  keys.solana.fill(0)
}

/**
 * withKeys derives the keys of chains (both by default) from entropy, runs
 * fn with them and their addresses, and zeroes the seed and the keys
 * afterwards, whatever fn does: the seed exists in memory only while signing.
 * The key code of each chain is loaded before the seed is computed.
 */
export async function withKeys<T>(
  entropy: Uint8Array,
  fn: (keys: WalletKeys, addresses: Partial<WalletAddresses>) => Promise<T> | T,
  chains: readonly Chain[] = CHAINS,
): Promise<T> {
  const code = await Promise.all(chains.map((c) => chainKeys[c]()))
  const keys: { evm: Uint8Array; solana: Uint8Array } = { evm: new Uint8Array(0), solana: new Uint8Array(0) }
  const addresses: { evm?: string; solana?: string } = {}
  const seed = await seedFromEntropy(entropy)
  try {
    chains.forEach((c, i) => {
      keys[c] = code[i]!.key(seed)
      addresses[c] = code[i]!.address(keys[c])
    })
    seed.fill(0)
    return await fn(keys, addresses as Partial<WalletAddresses>)
  } finally {
    seed.fill(0)
    wipeKeys(keys)
  }
}

/** addressesOf derives both addresses of the wallet of entropy. */
export function addressesOf(entropy: Uint8Array): Promise<WalletAddresses> {
  return withKeys(entropy, (_, a) => ({ evm: a.evm!, solana: a.solana! }))
}
