import { Suspense, useId, useState, type KeyboardEvent } from 'react'
import { lazyRetry } from '../../lazyRetry'
import { getEmbeddedState } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useModalT } from '../../components/LatchModal/strings'
import { NftsTab } from './NftsTab'
import { TokensTab } from './TokensTab'

// History is its own chunk: only a visitor who opens the Activity tab loads it.
const ActivityTab = lazyRetry(() => import('./ActivityTab'))
// The e-mail wallet's row (its login e-mail, Update email) is in the e-mail views' chunk; it heads the
// tabs so that the Account view of the first load pays nothing for it.
const AccountEmail = lazyRetry(() => import('../embedded/EmbeddedViews').then((m) => ({ default: m.AccountEmail })))

export { default as AccountName } from '../names/AccountName'

type Tab = 'tokens' | 'nfts' | 'activity'

/** The Account view's tabs (spec §2): Tokens, NFTs and, when the activity feature is on, Activity. */
export function AccountTabs({ activity }: { activity: boolean }) {
  const t = useModalT()
  const latch = useLatchInstance()
  const rtl = useLatchSelector((s) => s.dir === 'rtl')
  const tabsId = useId()
  const [tab, setTab] = useState<Tab>('tokens')
  const tabs: { id: Tab; label: string }[] = [
    { id: 'tokens', label: t('account.tabTokens') },
    { id: 'nfts', label: t('account.tabNfts') },
    ...(activity ? [{ id: 'activity' as const, label: t('account.tabActivity') }] : []),
  ]
  const current = tabs.some((x) => x.id === tab) ? tab : 'tokens'
  // Arrow keys move between tabs (WAI-ARIA tabs pattern); in a right-to-left locale the next tab is on the left.
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return
    const index = tabs.findIndex((x) => x.id === current)
    const forward = (event.key === 'ArrowRight') !== rtl
    const next = tabs[(index + (forward ? 1 : tabs.length - 1)) % tabs.length]!
    setTab(next.id)
    document.getElementById(`${tabsId}-${next.id}`)?.focus()
  }
  return (
    <>
      {getEmbeddedState(latch)?.user ? (
        <Suspense fallback={null}>
          <AccountEmail />
        </Suspense>
      ) : null}
      <div className="latch-tabs" role="tablist" aria-label={t('account.tabs')}>
        {tabs.map((x) => (
          <button
            key={x.id}
            id={`${tabsId}-${x.id}`}
            type="button"
            role="tab"
            className="latch-tab"
            data-testid={`latch-account-tab-${x.id}`}
            aria-selected={current === x.id}
            aria-controls={`${tabsId}-${x.id}-panel`}
            tabIndex={current === x.id ? 0 : -1}
            onClick={() => setTab(x.id)}
            onKeyDown={onTabKey}
          >
            {x.label}
          </button>
        ))}
      </div>
      <div className="latch-tab-panel" role="tabpanel" id={`${tabsId}-${current}-panel`} aria-labelledby={`${tabsId}-${current}`}>
        {current === 'tokens' ? <TokensTab /> : null}
        {current === 'nfts' ? <NftsTab /> : null}
        {current === 'activity' ? (
          <Suspense fallback={<span className="latch-spinner latch-list-spinner" aria-hidden="true" />}>
            <ActivityTab />
          </Suspense>
        ) : null}
      </div>
    </>
  )
}

export default AccountTabs
