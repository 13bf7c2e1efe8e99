// 2-of-3 Shamir shares of the wallet's entropy (shamir-secret-sharing, audited
// by Cure53 and Zellic): the device share stays in this browser, the auth
// share on latchd, the recovery share on latchd encrypted by latchd's recovery
// key or by the visitor's password. Any two rebuild the entropy.
//
// A share is the library's format: the y bytes, then one byte with its x
// coordinate (1..255).
import { combine, split } from 'shamir-secret-sharing'

/** The three shares of a new wallet. */
export interface WalletShares {
  readonly device: Uint8Array
  readonly auth: Uint8Array
  readonly recovery: Uint8Array
}

/** splitEntropy splits entropy into three shares, any two of which rebuild it. */
export async function splitEntropy(entropy: Uint8Array): Promise<WalletShares> {
  const [device, auth, recovery] = await split(entropy, 3, 2)
  if (!device || !auth || !recovery) throw new Error('split returned fewer than 3 shares')
  return { device, auth, recovery }
}

/** combineShares rebuilds the entropy from two shares of one split. */
export async function combineShares(a: Uint8Array, b: Uint8Array): Promise<Uint8Array> {
  if (a.length !== b.length || a.length < 2) throw new Error('The two key shares do not belong together')
  if (a[a.length - 1] === b[b.length - 1]) throw new Error('The two key shares are the same share')
  return combine([new Uint8Array(a), new Uint8Array(b)])
}

/**
 * deriveShare makes a new share of the same split, at a fresh x coordinate,
 * from two existing shares: a new device gets a device share of its own while
 * every other device's share, the auth share and the recovery share stay
 * valid (re-splitting instead would orphan the other devices' shares).
 *
 * It uses only the library's interpolation: in GF(2^8) subtraction is XOR, so
 * interpolating at 0 the points (x_i XOR x, y_i) gives the polynomial's value
 * at x. The tests check that the new share combines with each old one.
 */
export async function deriveShare(a: Uint8Array, b: Uint8Array, random: () => number = randomByte): Promise<Uint8Array> {
  const n = a.length - 1
  const xa = a[n]!
  const xb = b[n]!
  if (a.length !== b.length || n < 1 || xa === xb) throw new Error('The two key shares do not belong together')
  let x = 0
  while (x === 0 || x === xa || x === xb) x = random() & 0xff
  const shifted = (s: Uint8Array, xs: number): Uint8Array => {
    const c = new Uint8Array(s)
    c[n] = xs ^ x
    return c
  }
  const y = await combine([shifted(a, xa), shifted(b, xb)])
  const share = new Uint8Array(n + 1)
  share.set(y)
  share[n] = x
  y.fill(0)
  return share
}

function randomByte(): number {
  return crypto.getRandomValues(new Uint8Array(1))[0]!
}
