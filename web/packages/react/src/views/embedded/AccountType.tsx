import { useEffect, useState } from 'react'
import { useLatchInstance } from '../../context'
import { useModalT } from '../../components/LatchModal/strings'
import { useEmbeddedT } from './strings'
import { useEmbeddedState } from './useEmbeddedState'
import { withActions } from './withActions'

/**
 * The Account view's account type row for the e-mail wallet (spec §3): the
 * active type (smart account or EOA), whether the smart account is deployed
 * yet, and a switch between them (SET_PREFERRED_ACCOUNT). A refused smart
 * account leaves the wallet on its EOA with the spec's message; on a chain
 * the frame lists no smart account for, the message shows and the switch is
 * off.
 */
export default function AccountType() {
  const latch = useLatchInstance()
  const t = useModalT()
  const et = useEmbeddedT()
  const user = useEmbeddedState()?.user
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>()
  // The chains with a smart account (an empty list when the frame cannot say, spec §4).
  const [networks, setNetworks] = useState<readonly number[] | undefined>()
  useEffect(() => {
    let live = true
    void withActions(async (a) => {
      const ids = await a.smartAccountNetworks(latch)
      if (live) setNetworks(ids)
    }).catch(() => live && setNetworks([]))
    return () => {
      live = false
    }
  }, [latch])
  if (!user) return null
  const smart = user.preferredAccountType === 'smartAccount'
  const chainId = latch._internal.embedded?.chainId()
  // No smart account on this chain: the EOA, the spec's message and no switch.
  const unsupported = !smart && networks !== undefined && (chainId === undefined || !networks.includes(chainId))
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
      <button type="button" className="latch-secondary-button" data-testid="latch-account-type-switch" disabled={busy || unsupported} onClick={toggle}>
        {smart ? et('account.toEoa') : et('account.toSmart')}
      </button>
      {error || unsupported ? (
        <p className="latch-error-text" role="alert" data-testid="latch-account-type-error">
          {error ?? t('error.smartAccountsUnsupported')}
        </p>
      ) : null}
    </div>
  )
}
