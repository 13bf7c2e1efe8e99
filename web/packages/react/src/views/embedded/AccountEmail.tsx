import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import AccountType from './AccountType'
import { useEmbeddedT } from './strings'
import { useEmbeddedState } from './useEmbeddedState'

/**
 * The Account view's row for the e-mail wallet: the login e-mail and the way
 * to change it (UpdateEmail), shown only when the connected account is the
 * e-mail wallet's.
 */
export default function AccountEmail() {
  const latch = useLatchInstance()
  const et = useEmbeddedT()
  const state = useEmbeddedState()
  const address = useLatchSelector((s) => s.account.address)
  const email = state?.user?.email ?? state?.email
  if (!state?.user || !address || state.user.address.toLowerCase() !== address.toLowerCase()) return null
  return (
    <>
      <div className="latch-account-row" data-testid="latch-account-email">
        {email ? (
          <span className="latch-subtitle" dir="ltr">
            {email}
          </span>
        ) : null}
        <button type="button" className="latch-secondary-button" data-testid="latch-account-update-email" onClick={() => latch.push('UpdateEmail')}>
          {et('email.update')}
        </button>
      </div>
      {/* The account type and its switch (smart account or EOA). */}
      <AccountType />
    </>
  )
}
