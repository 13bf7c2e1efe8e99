import { describe, expect, it } from 'vitest'
import { base58 } from './base58'

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))
const ADDRESS = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'

describe('base58', () => {
  it.each([
    ['', new Uint8Array()],
    ['1', new Uint8Array([0])],
    ['112', new Uint8Array([0, 0, 1])],
    ['JxF12TrwUP45BMd', ascii('Hello World')],
  ])('%j', (text, bytes) => {
    expect(base58.encode(bytes)).toBe(text)
    expect(base58.decode(text)).toEqual(bytes)
  })

  it('decodes a Solana address to its 32-byte key and refuses characters outside the alphabet', () => {
    expect(base58.decode(ADDRESS)).toHaveLength(32)
    expect(base58.encode(base58.decode(ADDRESS))).toBe(ADDRESS)
    expect(() => base58.decode('0OIl')).toThrow('Invalid base58 character "0"')
  })
})
