import { useModalT } from './strings'

export type ModalHeaderProps = {
  titleId: string
  title: string
  canGoBack: boolean
  canClose: boolean
  onBack: () => void
  onClose: () => void
}

/** Back button (when there is a view to go back to), the view title (labels the dialog), close button. */
export function ModalHeader({ titleId, title, canGoBack, canClose, onBack, onClose }: ModalHeaderProps) {
  const t = useModalT()
  return (
    <header className="latch-header">
      {canGoBack ? (
        <button type="button" className="latch-icon-button" data-testid="latch-modal-back" aria-label={t('button.back')} onClick={onBack}>
          {/* points to where the visitor came from: mirrored in a right-to-left locale */}
          <svg className="latch-icon-directional" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
            <path d="M9 2 4 7l5 5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      ) : (
        <span className="latch-icon-spacer" />
      )}
      {/* keyed so the title fades on every change (120 ms, spec §9) */}
      <h2 className="latch-header-title" id={titleId} key={title}>
        {title}
      </h2>
      {canClose ? (
        <button type="button" className="latch-icon-button" data-testid="latch-modal-close" aria-label={t('button.close')} onClick={onClose}>
          <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
            <path d="m3 3 8 8M11 3l-8 8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      ) : (
        <span className="latch-icon-spacer" />
      )}
    </header>
  )
}
