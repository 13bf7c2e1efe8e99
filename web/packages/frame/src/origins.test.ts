import { describe, expect, it } from 'vitest'
import { embedderOrigin, originAllowed } from './origins'

describe('originAllowed', () => {
  const rule = { allowedOrigins: ['https://app.example', 'https://*.dapp.example'], localOrigins: false }
  it.each([
    ['https://app.example', true],
    ['https://a.dapp.example', true],
    ['https://a.b.dapp.example', true],
    ['https://dapp.example', false],
    ['http://app.example', false],
    ['https://app.example:8443', false],
    ['https://evilapp.example', false],
    ['https://app.example.evil', false],
    ['http://a.dapp.example', false],
    ['null', false],
    ['', false],
    ['http://localhost:5173', false],
  ])('%s → %s', (origin, want) => {
    expect(originAllowed(origin, rule)).toBe(want)
  })

  it('admits local pages on any port only with localOrigins (latchd dev)', () => {
    const dev = { allowedOrigins: [], localOrigins: true }
    expect(originAllowed('http://localhost:5173', dev)).toBe(true)
    expect(originAllowed('http://127.0.0.1:3000', dev)).toBe(true)
    expect(originAllowed('https://localhost:5173', dev)).toBe(false)
    expect(originAllowed('http://localhost.evil.example', dev)).toBe(false)
  })
})

describe('embedderOrigin', () => {
  it('prefers ancestorOrigins, else the referrer origin', () => {
    const list = { length: 1, item: () => 'https://app.example', contains: () => true } as unknown as DOMStringList
    expect(embedderOrigin({ ancestorOrigins: list }, 'https://other.example/x')).toBe('https://app.example')
    expect(embedderOrigin({}, 'https://other.example/page?q=1')).toBe('https://other.example')
    expect(embedderOrigin({}, '')).toBeUndefined()
  })
})
