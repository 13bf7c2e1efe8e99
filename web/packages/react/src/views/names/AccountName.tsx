import { useEffect } from 'react'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useModalT } from '../../components/LatchModal/strings'
import { useNamesModule, useNamesState } from './useNames'

/**
 * The Account view's name: the profile name latchd holds for the account, or,
 * for the embedded wallet's account (the auth connector; an eip155 account) when
 * it has none, the way to RegisterAccountName.
 */
export default function AccountName() {
  const latch = useLatchInstance()
  const t = useModalT()
  const names = useNamesModule()
  const state = useNamesState(names)
  const { address, caipAddress } = useLatchSelector((s) => ({ address: s.account.address, caipAddress: s.account.caipAddress }))
  const canHaveName = Boolean(names && address && names.accountHasNames(latch))
  const name = address ? state?.profileNames[address.toLowerCase()] : undefined

  useEffect(() => {
    if (!names || !address || !canHaveName) return
    const abort = new AbortController()
    names.loadProfileName(latch, address, { signal: abort.signal }).catch(() => {
      // no name shown; the Choose name entry stays
    })
    return () => abort.abort()
  }, [latch, names, address, caipAddress, canHaveName])

  if (!canHaveName) return null
  if (name) {
    return (
      <span className="latch-subtitle" data-testid="latch-account-name">
        {name}
      </span>
    )
  }
  // Only the embedded wallet's account registers a name (spec §5: the auth connector).
  if (name === undefined || !names?.accountIsEmbedded(latch)) return null
  return (
    <button type="button" className="latch-list-item" data-testid="latch-account-choose-name" onClick={() => latch.push('RegisterAccountName')}>
      {t('view.RegisterAccountName')}
    </button>
  )
}
