// Native balance of an account through wagmi (spec §9: shown truncated to 3 decimals).
import { type Config, getBalance } from '@wagmi/core'
import { type Address, formatUnits } from 'viem'

import { truncateDecimals } from './format.js'

/** Fraction digits a displayed balance keeps (spec §9). */
export const balanceDisplayDecimals = 3

/** A native balance: raw value, display string and currency symbol. */
export interface NativeBalance {
  /** Decimal string truncated (not rounded) to {@link balanceDisplayDecimals} digits. */
  readonly formatted: string
  readonly symbol: string
  readonly value: bigint
}

/** Reads the native balance of `address` on `chainId`. Rejects with the transport's error. */
export async function getNativeBalance(
  config: Config,
  params: { address: Address; chainId: number },
): Promise<NativeBalance> {
  const { decimals, symbol, value } = await getBalance(config, params)
  return { formatted: truncateDecimals(formatUnits(value, decimals), balanceDisplayDecimals), symbol, value }
}
