import { useEffect, useRef } from 'react'
import type { ActivityItem } from '@latchkit/core'
import { useLatchActivity } from '../../hooks/useLatchActivity'
import { useLatchFormats } from '../../hooks/useT'
import { useModalT } from '../../components/LatchModal/strings'
import { truncateAddress } from '../../utils'
import { WalletImage } from '../connect/WalletImage'

/** Arrow for the direction of the first transfer: out (up), in (down), self or none (swap). */
function DirectionIcon({ direction }: { direction: ActivityItem['direction'] }) {
  const path = direction === 'in' ? 'M7 2v10M3 8l4 4 4-4' : direction === 'out' ? 'M7 12V2M3 6l4-4 4 4' : 'M2 5h10l-3-3M12 9H2l3 3'
  return (
    <span className="latch-activity-icon" aria-hidden="true">
      <svg width="14" height="14" viewBox="0 0 14 14">
        <path d={path} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  )
}

function ActivityRow({ item }: { item: ActivityItem }) {
  const t = useModalT()
  // The item's date and relative time are English (spec §9); another locale formats them from minedAt.
  const formats = useLatchFormats()
  const counterpart = item.counterpart
  return (
    <li className="latch-list-item latch-activity-item" data-testid="latch-activity-item" data-hash={item.hash} data-type={item.operationType}>
      {item.images[0] ? <WalletImage src={item.images[0]} name={item.title} size={28} /> : <DirectionIcon direction={item.direction} />}
      <span className="latch-activity-text">
        <span className="latch-list-item-name">
          {item.title}
          {item.status === 'failed' ? <span className="latch-tag latch-tag-error">{t('account.statusFailed')}</span> : null}
          {item.status === 'pending' ? <span className="latch-tag">{t('account.statusPending')}</span> : null}
        </span>
        {item.descriptions.map((d, i) => (
          <span key={i} className="latch-activity-description" data-testid="latch-activity-description">
            {d}
          </span>
        ))}
        {counterpart ? <span className="latch-subtitle latch-activity-counterpart" dir="ltr">
            {truncateAddress(counterpart)}
          </span> : null}
      </span>
      <span className="latch-activity-when">
        <time dateTime={item.minedAt.toISOString()} data-testid="latch-activity-date">
          {formats ? formats.activityDate(item.minedAt) : item.date}
        </time>
        <span className="latch-subtitle" data-testid="latch-activity-relative">
          {formats ? formats.relativeTime(item.minedAt) : item.relative}
        </span>
      </span>
    </li>
  )
}

/**
 * The Activity tab (spec §2, §4, §8, §9): the connected chain's history by
 * month, loaded a page at a time as the list scrolls; loading, empty and
 * failed ('Failed to fetch transactions') states.
 */
export function ActivityTab() {
  const t = useModalT()
  const formats = useLatchFormats()
  const activity = useLatchActivity()
  const sentinel = useRef<HTMLDivElement>(null)
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = activity
  const supportsObserver = typeof IntersectionObserver !== 'undefined'

  useEffect(() => {
    const node = sentinel.current
    if (!node || !hasNextPage || isFetchingNextPage || !supportsObserver) return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) fetchNextPage()
    })
    observer.observe(node)
    return () => observer.disconnect()
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, supportsObserver])

  if (activity.isLoading) {
    return <span className="latch-spinner latch-list-spinner" role="status" aria-label={t('account.loadingActivity')} data-testid="latch-activity-loading" />
  }
  if (activity.isError) {
    return (
      <div className="latch-empty" data-testid="latch-activity-error">
        <p className="latch-error-text" role="alert">
          {t('account.failedToFetchTransactions')}
        </p>
        <button type="button" className="latch-secondary-button" onClick={activity.refetch}>
          {t('account.retry')}
        </button>
      </div>
    )
  }
  if (activity.isEmpty) {
    return (
      <div className="latch-empty" data-testid="latch-activity-empty">
        <p className="latch-title">{t('account.noActivity')}</p>
        <p className="latch-subtitle">{t('account.activityDescription')}</p>
      </div>
    )
  }
  return (
    <div className="latch-activity">
      {activity.groups.map((group) => (
        <section key={group.key} className="latch-activity-group" data-testid="latch-activity-group" data-key={group.key}>
          <h3 className="latch-activity-group-title" data-testid="latch-activity-group-title">
            {formats ? formats.monthTitle(group.year, group.month) : group.title}
          </h3>
          <ul className="latch-list">
            {group.items.map((item) => (
              <ActivityRow key={item.id} item={item} />
            ))}
          </ul>
        </section>
      ))}
      {hasNextPage ? (
        <div ref={sentinel} className="latch-sentinel" data-testid="latch-activity-more">
          {isFetchingNextPage ? <span className="latch-spinner latch-list-spinner" aria-hidden="true" /> : null}
          {!supportsObserver && !isFetchingNextPage ? (
            <button type="button" className="latch-secondary-button" onClick={fetchNextPage}>
              {t('connect.loadMore')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}

export default ActivityTab
