import { useModalT } from './strings'

/** Placeholder for views that later issues build. */
export function UnavailableView({ view }: { view: string }) {
  const t = useModalT()
  return (
    <div className="latch-view latch-unavailable" data-testid={`latch-view-${view}`}>
      <p className="latch-subtitle">{t('modal.viewUnavailable')}</p>
    </div>
  )
}
