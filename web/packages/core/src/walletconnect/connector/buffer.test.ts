// The Buffer stand-in the SDK's one-click sign-in runs with in the browser:
// the calls sign-client makes (hex of a hash, base64 JSON of a ReCap), as
// Node's Buffer answers them, and its scope.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ByteBuffer, withBuffer, withBufferSync } from './buffer'

afterEach(() => vi.unstubAllGlobals())

describe('ByteBuffer', () => {
  it.each([
    ['hex', '00ff10ab'],
    ['base64', 'eyJhdHQiOnsiZWlwMTU1Ijp7fX19'],
    ['utf8', 'Sign in ✓'],
    ['utf-8', 'Sign in ✓'],
  ])('reads and writes %s as Node does', (encoding, text) => {
    expect(ByteBuffer.from(text, encoding).toString(encoding)).toBe(text)
    expect(ByteBuffer.from(text, encoding).toString(encoding)).toBe(Buffer.from(text, encoding as BufferEncoding).toString(encoding as BufferEncoding))
  })

  it('answers from(bytes), JSON as base64, concat, alloc, isBuffer and base64url like Node', () => {
    const bytes = new Uint8Array([1, 2, 250])
    expect(ByteBuffer.from(bytes).toString('hex')).toBe('0102fa')
    const recap = JSON.stringify({ att: { eip155: { 'request/personal_sign': [{}] } } })
    expect(ByteBuffer.from(recap).toString('base64')).toBe(Buffer.from(recap).toString('base64'))
    expect(ByteBuffer.from(Buffer.from(recap).toString('base64'), 'base64').toString('utf-8')).toBe(recap)
    expect(ByteBuffer.from('+/8=', 'base64').toString('base64url')).toBe(Buffer.from('+/8=', 'base64').toString('base64url'))
    expect(ByteBuffer.concat([ByteBuffer.from('ab'), new Uint8Array([99])]).toString()).toBe('abc')
    expect(ByteBuffer.alloc(3)).toHaveLength(3)
    expect(ByteBuffer.isBuffer(ByteBuffer.from('x'))).toBe(true)
    expect(ByteBuffer.isBuffer(new Uint8Array(1))).toBe(false)
    expect(ByteBuffer.byteLength('✓')).toBe(3)
  })

  it('refuses what it does not know rather than answering wrongly', () => {
    expect(() => ByteBuffer.from('zz', 'hex')).toThrow('invalid hex')
    expect(() => ByteBuffer.from('a', 'latin1')).toThrow('unsupported encoding latin1')
  })
})

describe('withBuffer', () => {
  it('puts the stand-in on globalThis only while it runs, and keeps a page’s own Buffer', async () => {
    vi.stubGlobal('Buffer', undefined)
    delete (globalThis as { Buffer?: unknown }).Buffer
    const seen = await withBuffer(async () => (globalThis as { Buffer?: unknown }).Buffer)
    expect(seen).toBe(ByteBuffer)
    expect('Buffer' in globalThis).toBe(false)
    expect(withBufferSync(() => (globalThis as { Buffer?: unknown }).Buffer)).toBe(ByteBuffer)
    expect('Buffer' in globalThis).toBe(false)

    const own = { own: true }
    vi.stubGlobal('Buffer', own)
    expect(await withBuffer(async () => (globalThis as { Buffer?: unknown }).Buffer)).toBe(own)
  })
})
