// Password recovery: the recovery share encrypted by a key derived from the
// visitor's password (scrypt, then AES-256-GCM). latchd stores only the
// ciphertext and the parameters; the password never leaves the frame.
import { scryptAsync } from '@noble/hashes/scrypt.js'
import { base64 } from '@scure/base'

/** The stored form of a password-encrypted recovery share. */
export interface PasswordBox {
  readonly kdf: 'scrypt'
  /** scrypt cost: N = 2^logN. */
  readonly logN: number
  readonly r: number
  readonly p: number
  /** base64 */
  readonly salt: string
  /** base64, 12 bytes */
  readonly iv: string
  /** base64 AES-GCM ciphertext with its tag */
  readonly ciphertext: string
}

/** Default scrypt cost: N = 2^17, r = 8, p = 1 (OWASP's scrypt minimum; 128 MiB, about a second in a browser). */
export const DEFAULT_SCRYPT = { logN: 17, r: 8, p: 1 } as const
// Bounds on parameters read back from latchd: a tampered record must not make
// the frame spend gigabytes or accept a weak setting.
const MIN_LOG_N = 10
const MAX_LOG_N = 18

/** Thrown when the password does not open the box (or the box was altered). */
export class WrongPasswordError extends Error {
  override name = 'WrongPasswordError'
}

const aad = new TextEncoder().encode('latch recovery share v1')

async function deriveKey(password: string, salt: Uint8Array, logN: number, r: number, p: number): Promise<CryptoKey> {
  if (!Number.isInteger(logN) || logN < MIN_LOG_N || logN > MAX_LOG_N || r < 1 || r > 32 || p < 1 || p > 16) {
    throw new Error('Recovery parameters out of range')
  }
  const raw = await scryptAsync(password.normalize('NFKC'), salt, { N: 2 ** logN, r, p, dkLen: 32 })
  try {
    return await crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt'])
  } finally {
    raw.fill(0)
  }
}

/** sealWithPassword encrypts share under password. */
export async function sealWithPassword(share: Uint8Array, password: string, cost: { logN: number; r: number; p: number } = DEFAULT_SCRYPT): Promise<PasswordBox> {
  const salt = crypto.getRandomValues(new Uint8Array(16))
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const key = await deriveKey(password, salt, cost.logN, cost.r, cost.p)
  const copy = new Uint8Array(share)
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, copy))
  copy.fill(0)
  return { kdf: 'scrypt', ...cost, salt: base64.encode(salt), iv: base64.encode(iv), ciphertext: base64.encode(ct) }
}

/** openWithPassword decrypts a box; WrongPasswordError when the password (or the box) is wrong. */
export async function openWithPassword(box: PasswordBox, password: string): Promise<Uint8Array> {
  if (box.kdf !== 'scrypt') throw new Error(`Unknown recovery key derivation ${String(box.kdf)}`)
  const key = await deriveKey(password, base64.decode(box.salt), box.logN, box.r, box.p)
  try {
    const pt = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: new Uint8Array(base64.decode(box.iv)), additionalData: aad }, key, new Uint8Array(base64.decode(box.ciphertext)))
    return new Uint8Array(pt)
  } catch {
    throw new WrongPasswordError('Wrong recovery password')
  }
}
