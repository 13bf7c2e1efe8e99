// The account button's balance for a network with a `tokens` entry: that token's quantity from latchd's balance
// list (the Tokens tab's list and query), in a chunk of its own so a page without the option does not load it.
import type { ReactNode } from 'react'
import { useAccountModels } from '../../hooks/useAccountModels'
import { useLatchBalances } from '../../hooks/useLatchBalances'

export type TokenBalanceProps = {
  /** The token's contract (EVM) or mint (Solana) address, as the `tokens` option gives it. */
  address: string
  /** Shown while the list loads, or when the account does not hold the token (it is not on latchd's list then). */
  fallback: ReactNode
}

/** The token's quantity and symbol (the Tokens tab's format), else `fallback`. */
export default function TokenBalance({ address, fallback }: TokenBalanceProps) {
  const { balances } = useLatchBalances()
  const models = useAccountModels()
  const wanted = `:${address.toLowerCase()}`
  // CAIP-10 addresses: `eip155:1:0x…`; EVM addresses compare case-insensitively, and base58 mints never differ by case alone.
  const token = balances?.find((b) => b.address?.toLowerCase().endsWith(wanted))
  if (!token || !models) return <>{fallback}</>
  return (
    <span className="latch-account-button-balance" data-testid="latch-account-button-balance" data-token={address} dir="ltr">
      {`${models.formatQuantity(token.quantity.numeric)} ${token.symbol}`}
    </span>
  )
}
