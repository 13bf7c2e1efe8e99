import { describe, expect, it } from 'vitest'
import { combineShares, deriveShare, splitEntropy } from './shares'
import { newEntropy } from './keys'

const x = (s: Uint8Array) => s[s.length - 1]

describe('splitEntropy / combineShares', () => {
  it('rebuilds the entropy from any two of the three shares', async () => {
    const entropy = newEntropy()
    const { device, auth, recovery } = await splitEntropy(entropy)
    for (const [a, b] of [
      [device, auth],
      [auth, device],
      [device, recovery],
      [auth, recovery],
    ] as const) {
      expect(await combineShares(a, b)).toEqual(entropy)
    }
  })

  it('gives shares that alone are not the entropy, each at its own x', async () => {
    const entropy = newEntropy()
    const { device, auth, recovery } = await splitEntropy(entropy)
    expect(new Set([x(device), x(auth), x(recovery)]).size).toBe(3)
    for (const s of [device, auth, recovery]) expect(s.subarray(0, 32)).not.toEqual(entropy)
  })

  it('refuses the same share twice and shares of different lengths', async () => {
    const { device, auth } = await splitEntropy(newEntropy())
    await expect(combineShares(device, device)).rejects.toThrow('same share')
    await expect(combineShares(device, auth.subarray(1))).rejects.toThrow('do not belong together')
  })

  it('rebuilds something else from shares of two different splits', async () => {
    const one = await splitEntropy(newEntropy())
    const two = await splitEntropy(newEntropy())
    if (x(one.device) === x(two.auth)) return // same x: nothing to combine
    const mixed = await combineShares(one.device, two.auth)
    expect(mixed).not.toEqual(await combineShares(one.device, one.auth))
  })
})

describe('deriveShare', () => {
  it('makes a new share of the same split that combines with every old share', async () => {
    for (let round = 0; round < 20; round++) {
      const entropy = newEntropy()
      const { device, auth, recovery } = await splitEntropy(entropy)
      const fresh = await deriveShare(auth, recovery)
      expect(x(fresh)).not.toBe(x(auth))
      expect(x(fresh)).not.toBe(x(recovery))
      expect(await combineShares(fresh, auth)).toEqual(entropy)
      expect(await combineShares(fresh, recovery)).toEqual(entropy)
      if (x(fresh) !== x(device)) expect(await combineShares(fresh, device)).toEqual(entropy)
    }
  })

  it('skips the x coordinates of its inputs and zero', async () => {
    const { auth, recovery } = await splitEntropy(newEntropy())
    const picks = [0, x(auth)!, x(recovery)!, 0x42 === x(auth) || 0x42 === x(recovery) ? 0x43 : 0x42]
    const fresh = await deriveShare(auth, recovery, () => picks.shift()!)
    expect(x(fresh)).toBe(0x42 === x(auth) || 0x42 === x(recovery) ? 0x43 : 0x42)
  })

  it('refuses two copies of one share', async () => {
    const { auth } = await splitEntropy(newEntropy())
    await expect(deriveShare(auth, new Uint8Array(auth))).rejects.toThrow('do not belong together')
  })
})
