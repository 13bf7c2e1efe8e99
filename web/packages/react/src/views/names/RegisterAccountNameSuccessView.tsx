import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useModalT } from '../../components/LatchModal/strings'
import { useNamesT } from './strings'
import { useNamesModule, useNamesState } from './useNames'

/** RegisterAccountNameSuccess: the account's new name (spec §4), and back to Account. */
export default function RegisterAccountNameSuccessView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const nt = useNamesT()
  const address = useLatchSelector((state) => state.account.address)
  const state = useNamesState(useNamesModule())
  const name = address ? state?.profileNames[address.toLowerCase()] : undefined
  return (
    <div className="latch-view latch-register-name-success" data-testid="latch-view-RegisterAccountNameSuccess" aria-label={t('view.RegisterAccountNameSuccess')}>
      {name ? (
        <p className="latch-title" role="status" data-testid="latch-register-name-success">
          {nt('names.success', { name })}
        </p>
      ) : null}
      <button type="button" className="latch-primary-button" onClick={() => latch.goBackTo('Account')} data-testid="latch-register-name-done">
        {nt('names.done')}
      </button>
    </div>
  )
}
