import { useState } from 'react'
import { useLatchInstance } from '../../context'
import { useEmbeddedT } from './strings'
import { useEmbeddedState } from './useEmbeddedState'
import { withActions } from './withActions'

/**
 * The Account view's account type row for the e-mail wallet (spec §3): the
 * active type (smart account or EOA), whether the smart account is deployed
 * yet, and a switch between them (SET_PREFERRED_ACCOUNT). A refused smart
 * account leaves the wallet on its EOA with the spec's message.
 */
export default function AccountType() {
  const latch = useLatchInstance()
  const et = useEmbeddedT()
  const user = useEmbeddedState()?.user
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>()
  if (!user) return null
  const smart = user.preferredAccountType === 'smartAccount'
  const toggle = () => {
    setBusy(true)
    setError(undefined)
    void withActions(async (a) => {
      const r = await a.setAccountType(latch, smart ? 'eoa' : 'smartAccount')
      setError(r.error)
    })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
      .finally(() => setBusy(false))
  }
  return (
    <div className="latch-account-row" data-testid="latch-account-type-row">
      <span className="latch-subtitle">
        {et('account.type')}: <span data-testid="latch-account-type">{smart ? et('account.typeSmart') : et('account.typeEoa')}</span>
      </span>
      {smart && user.smartAccountDeployed === false ? (
        <span className="latch-subtitle" data-testid="latch-account-not-deployed">
          {et('account.notDeployed')}
        </span>
      ) : null}
      <button type="button" className="latch-secondary-button" data-testid="latch-account-type-switch" disabled={busy} onClick={toggle}>
        {smart ? et('account.toEoa') : et('account.toSmart')}
      </button>
      {error ? (
        <p className="latch-error-text" role="alert" data-testid="latch-account-type-error">
          {error}
        </p>
      ) : null}
    </div>
  )
}
