import { useThemeScope } from '../../hooks/useThemeScope'
import { Avatar } from '../Avatar/Avatar'
import { AccountButtonRenderer } from './AccountButtonRenderer'

export type AccountButtonProps = {
  /** Show the native balance beside the address (default 'show'). */
  balance?: 'show' | 'hide'
  disabled?: boolean
}

/** Avatar, native balance and truncated address of the connected account; opens the Account view. Renders nothing when disconnected. */
export function AccountButton({ balance = 'show', disabled = false }: AccountButtonProps) {
  const scope = useThemeScope()
  return (
    <AccountButtonRenderer>
      {({ account, openAccountModal }) =>
        account ? (
          <span {...scope} className="latch-inline">
            <button
              type="button"
              className="latch-account-button"
              data-testid="latch-account-button"
              disabled={disabled}
              onClick={openAccountModal}
            >
              {balance === 'show' && account.displayBalance ? (
                <span className="latch-account-button-balance" data-testid="latch-account-button-balance" dir="ltr">
                  {account.displayBalance}
                </span>
              ) : null}
              <span className="latch-account-button-address">
                <Avatar address={account.address} size={20} />
                <span data-testid="latch-account-button-address" dir="ltr">
                  {account.displayAddress}
                </span>
              </span>
            </button>
          </span>
        ) : null
      }
    </AccountButtonRenderer>
  )
}

AccountButton.Custom = AccountButtonRenderer
