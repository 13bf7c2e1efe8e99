import { describe, expect, it } from 'vitest'
import { openWithPassword, sealWithPassword, WrongPasswordError } from './recovery'

// A low cost keeps the test fast; the default (2^17) is checked for its value only.
const cost = { logN: 10, r: 8, p: 1 }
const share = new Uint8Array(33).map((_, i) => i)

describe('password recovery box', () => {
  it('opens with the password it was sealed with, and gives latchd only ciphertext and parameters', async () => {
    const box = await sealWithPassword(share, 'correct horse battery', cost)
    expect(Object.keys(box).sort()).toEqual(['ciphertext', 'iv', 'kdf', 'logN', 'p', 'r', 'salt'])
    expect(JSON.stringify(box)).not.toContain('correct horse')
    expect(await openWithPassword(box, 'correct horse battery')).toEqual(share)
  })

  it('refuses a wrong password and an altered ciphertext', async () => {
    const box = await sealWithPassword(share, 'correct horse battery', cost)
    await expect(openWithPassword(box, 'correct horse batterY')).rejects.toBeInstanceOf(WrongPasswordError)
    const flipped = box.ciphertext.startsWith('A') ? 'B' + box.ciphertext.slice(1) : 'A' + box.ciphertext.slice(1)
    await expect(openWithPassword({ ...box, ciphertext: flipped }, 'correct horse battery')).rejects.toBeInstanceOf(WrongPasswordError)
  })

  it('refuses parameters out of bounds (a tampered record cannot weaken or blow up scrypt)', async () => {
    const box = await sealWithPassword(share, 'correct horse battery', cost)
    await expect(openWithPassword({ ...box, logN: 4 }, 'correct horse battery')).rejects.toThrow('out of range')
    await expect(openWithPassword({ ...box, logN: 19 }, 'correct horse battery')).rejects.toThrow('out of range')
  })

  it('uses a new salt and iv each time', async () => {
    const a = await sealWithPassword(share, 'pw-pw-pw-pw', cost)
    const b = await sealWithPassword(share, 'pw-pw-pw-pw', cost)
    expect(a.salt).not.toBe(b.salt)
    expect(a.iv).not.toBe(b.iv)
  })
})
