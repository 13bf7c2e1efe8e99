// Pure formatting helpers for accounts and amounts (spec §3, §9).
import type { Address } from 'viem'

/** Builds a CAIP-10 account id for an EVM account: `eip155:<chainId>:<address>`. */
export function toCaipAddress(chainId: number, address: Address | string): string {
  return `eip155:${chainId}:${address}`
}

/** Characters kept at the start and the end by {@link truncateAddress} (spec §9). */
export const truncatedAddressLead = 4
export const truncatedAddressTail = 6

/**
 * Shortens an address for display as AppKit does: the first 4 characters
 * (with `0x`), an ellipsis (U+2026) and the last 6, e.g.
 * `0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266` → `0xf3…b92266`. Case is kept
 * so checksummed addresses stay recognisable; strings too short to gain from
 * shortening are returned unchanged.
 */
export function truncateAddress(address: string, lead = truncatedAddressLead, tail = truncatedAddressTail): string {
  if (address.length <= lead + tail + 1) return address
  return `${address.slice(0, lead)}…${address.slice(-tail)}`
}

/**
 * The one display format of a token amount (spec §9: balances truncated to 3 decimals, fungible quantities with 3
 * decimals, en-US numbers): truncated, never rounded up, to exactly `decimals` fraction digits, with en-US
 * grouping: `'9999.97999'` → `'9,999.979'`, `'10000'` → `'10,000.000'`. The account button, the Account view and
 * the token lists all show this.
 */
export function formatBalance(value: string, decimals = 3): string {
  const [whole = '0', fraction = ''] = truncateDecimals(value, decimals).split('.')
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${decimals > 0 ? `.${fraction.padEnd(decimals, '0')}` : ''}`
}

/**
 * Cuts a decimal string to at most `decimals` fraction digits without rounding
 * (spec §9: balances show 3 decimals, truncated). No padding is added, and a
 * fraction cut to nothing drops its dot: `('1.23456', 3)` → `'1.234'`,
 * `('2', 3)` → `'2'`, `('0.9999', 0)` → `'0'`.
 */
export function truncateDecimals(value: string, decimals: number): string {
  const dot = value.indexOf('.')
  if (dot === -1) return value
  const whole = value.slice(0, dot)
  const fraction = value.slice(dot + 1, dot + 1 + Math.max(0, Math.trunc(decimals)))
  return fraction.length > 0 ? `${whole}.${fraction}` : whole
}
