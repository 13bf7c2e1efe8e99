import { useCallback, useEffect, useRef, useState } from 'react'
import type { LatchWallet } from '@latchkit/core'
import { walletSearchDebounceMs } from '../../constants'
import { useLatchInstance } from '../../context'
import { useModalT } from '../../components/LatchModal/strings'
import { setAgreed, useConsent } from './consent'
import LegalConsent from './LegalConsent'
import { WalletListItem } from './WalletListItem'

type ListState = {
  wallets: LatchWallet[]
  count: number
  /** Last page loaded (0 before the first). */
  page: number
  status: 'loading' | 'ready' | 'error'
}

const initialList: ListState = { wallets: [], count: 0, page: 0, status: 'loading' }

function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs)
    return () => clearTimeout(timer)
  }, [value, delayMs])
  return debounced
}

/**
 * The AllWallets view: the registry in pages of 40 with infinite scroll, or — once the visitor has
 * typed and paused 300 ms — one search of up to 100 results (spec §9). Loaded as a separate chunk.
 */
export default function AllWalletsView() {
  const latch = useLatchInstance()
  const consent = useConsent(latch)
  const t = useModalT()
  const [query, setQuery] = useState('')
  const search = useDebouncedValue(query.trim(), walletSearchDebounceMs)
  const [list, setList] = useState<ListState>(initialList)
  // Only the newest request may write the list: a slow page must not overwrite a newer search.
  const latestRequest = useRef(0)

  const load = useCallback(
    (page: number, term: string) => {
      const id = ++latestRequest.current
      setList((prev) => (page === 1 ? initialList : { ...prev, status: 'loading' }))
      latch.fetchWallets(term ? { page: 1, search: term } : { page }).then(
        (result) => {
          if (id !== latestRequest.current) return
          setList((prev) => ({
            wallets: page === 1 ? result.wallets : [...prev.wallets, ...result.wallets],
            count: result.count,
            page,
            status: 'ready',
          }))
        },
        () => {
          if (id === latestRequest.current) setList((prev) => ({ ...prev, status: 'error' }))
        },
      )
    },
    [latch],
  )

  useEffect(() => load(1, search), [load, search])

  const hasMore = !search && list.status === 'ready' && list.wallets.length < list.count
  const loadMore = useCallback(() => {
    if (hasMore) load(list.page + 1, '')
  }, [hasMore, load, list.page])

  const sentinel = useRef<HTMLDivElement>(null)
  const supportsObserver = typeof IntersectionObserver !== 'undefined'
  useEffect(() => {
    const node = sentinel.current
    if (!node || !hasMore || !supportsObserver) return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore()
    })
    observer.observe(node)
    return () => observer.disconnect()
  }, [hasMore, loadMore, supportsObserver])

  const connect = (wallet: LatchWallet) => {
    if (!consent.blocked) latch.connectWallet(wallet).catch(() => {})
  }

  return (
    <div className="latch-view" data-testid="latch-view-AllWallets">
      {consent.required ? <LegalConsent checkbox agreed={consent.agreed} onAgree={(value) => setAgreed(latch, value)} /> : null}
      <input
        type="search"
        className="latch-search"
        data-testid="latch-all-wallets-search"
        aria-label={t('connect.searchWallet')}
        placeholder={t('connect.searchWallet')}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <ul className="latch-list latch-all-wallets-list" aria-label={t('view.AllWallets')} aria-busy={list.status === 'loading'}>
        {list.wallets.map((wallet) => (
          <WalletListItem key={wallet.id} wallet={wallet} onSelect={connect} disabled={consent.blocked} />
        ))}
      </ul>
      {list.status === 'loading' ? <span className="latch-spinner latch-list-spinner" data-testid="latch-all-wallets-loading" aria-hidden="true" /> : null}
      {list.status === 'ready' && list.wallets.length === 0 ? (
        <p className="latch-subtitle latch-empty" data-testid="latch-all-wallets-empty">
          {t('connect.noWalletsFound')}
        </p>
      ) : null}
      {list.status === 'error' ? (
        <div className="latch-empty" role="alert" data-testid="latch-all-wallets-error">
          <p className="latch-subtitle">{t('connect.walletsError')}</p>
          <button
            type="button"
            className="latch-secondary-button"
            data-testid="latch-all-wallets-retry"
            onClick={() => load(search ? 1 : list.page + 1, search)}
          >
            {t('button.tryAgain')}
          </button>
        </div>
      ) : null}
      {hasMore ? (
        supportsObserver ? (
          <div ref={sentinel} className="latch-sentinel" data-testid="latch-all-wallets-sentinel" />
        ) : (
          <button type="button" className="latch-secondary-button" data-testid="latch-all-wallets-load-more" onClick={loadMore}>
            {t('connect.loadMore')}
          </button>
        )
      ) : null}
    </div>
  )
}
