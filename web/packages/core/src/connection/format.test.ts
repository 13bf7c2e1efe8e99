import { describe, expect, it } from 'vitest'

import { formatBalance, toCaipAddress, truncateAddress, truncateDecimals } from './format.js'
import { alice } from './test/fakeWallet.js'

describe('truncateAddress', () => {
  it('keeps 0x, 4 leading and 6 trailing characters around an ellipsis (spec §9)', () => {
    expect(truncateAddress(alice)).toBe('0xf3…b92266')
  })
  it('returns short strings unchanged', () => {
    expect(truncateAddress('0x12345678')).toBe('0x12345678')
    expect(truncateAddress('')).toBe('')
  })
  it('works without a 0x prefix', () => {
    expect(truncateAddress('7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU')).toBe('7xKX…osgAsU')
  })
})

describe('truncateDecimals', () => {
  it.each([
    ['1.23456', 3, '1.234'],
    ['1.9999', 3, '1.999'],
    ['0.0009', 3, '0.000'],
    ['2', 3, '2'],
    ['2.5', 3, '2.5'],
    ['0.9999', 0, '0'],
    ['-1.23456', 2, '-1.23'],
    ['12.', 3, '12'],
  ])('truncateDecimals(%s, %i) = %s', (value, decimals, expected) => {
    expect(truncateDecimals(value, decimals)).toBe(expected)
  })
})

describe('formatBalance', () => {
  it.each([
    ['9999.97999', '9,999.979'],
    ['10000', '10,000.000'],
    ['1234567.1', '1,234,567.100'],
    ['0.0009', '0.000'],
    ['0.5', '0.500'],
    ['-1234.5678', '-1,234.567'],
  ])('formatBalance(%s) = %s', (value, expected) => {
    expect(formatBalance(value)).toBe(expected)
  })
})

describe('toCaipAddress', () => {
  it('builds eip155:<chainId>:<address>', () => {
    expect(toCaipAddress(8453, alice)).toBe(`eip155:8453:${alice}`)
  })
})
