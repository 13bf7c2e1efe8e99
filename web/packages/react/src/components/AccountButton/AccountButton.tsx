import { Suspense } from 'react'
import { lazyRetry } from '../../lazyRetry'
import { networkCaipId } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useThemeScope } from '../../hooks/useThemeScope'
import { truncateAddress } from '../../utils'
import { Avatar } from '../Avatar/Avatar'
import { AccountButtonRenderer } from './AccountButtonRenderer'

// Only a page whose app sets `tokens` for the active network loads the token balance (and the balance list's query).
const TokenBalance = lazyRetry(() => import('./TokenBalance'))

export type AccountButtonProps = {
  /** Show the balance beside the address (default 'show'): the native one, or the `tokens` option's token on its network. */
  balance?: 'show' | 'hide'
  disabled?: boolean
  /** Characters of the address kept before the ellipsis (default 4: `0x12…`). */
  charsStart?: number
  /** Characters of the address kept after the ellipsis (default 6: `…345678`). */
  charsEnd?: number
}

/** Avatar, balance and truncated address of the connected account; opens the Account view. Renders nothing when disconnected. */
export function AccountButton({ balance = 'show', disabled = false, charsStart, charsEnd }: AccountButtonProps) {
  const scope = useThemeScope()
  const latch = useLatchInstance()
  // The app's token for the active network (options.tokens, keyed by CAIP-2 id), if any.
  const token = useLatchSelector((s) => latch._internal.opts.tokens[networkCaipId(s.activeNetwork)]?.address)
  return (
    <AccountButtonRenderer>
      {({ account, openAccountModal }) => {
        if (!account) return null
        const native = account.displayBalance ? (
          <span className="latch-account-button-balance" data-testid="latch-account-button-balance" dir="ltr">
            {account.displayBalance}
          </span>
        ) : null
        return (
          <span {...scope} className="latch-inline">
            <button
              type="button"
              className="latch-account-button"
              data-testid="latch-account-button"
              disabled={disabled}
              onClick={openAccountModal}
            >
              {balance === 'show' ? (
                token ? (
                  <Suspense fallback={native}>
                    <TokenBalance address={token} fallback={native} />
                  </Suspense>
                ) : (
                  native
                )
              ) : null}
              <span className="latch-account-button-address">
                <Avatar address={account.address} size={20} />
                <span data-testid="latch-account-button-address" dir="ltr">
                  {charsStart === undefined && charsEnd === undefined ? account.displayAddress : truncateAddress(account.address, charsStart, charsEnd)}
                </span>
              </span>
            </button>
          </span>
        )
      }}
    </AccountButtonRenderer>
  )
}

AccountButton.Custom = AccountButtonRenderer
