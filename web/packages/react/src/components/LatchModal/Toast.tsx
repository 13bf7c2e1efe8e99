import type { LatchToast } from '@latchkit/core'

/** The toast (success / error / loading) at the bottom of the modal; core closes it. */
export function Toast({ toast }: { toast: LatchToast }) {
  return (
    <div
      className="latch-toast"
      role={toast.variant === 'error' ? 'alert' : 'status'}
      data-testid="latch-toast"
      data-variant={toast.variant}
    >
      {toast.variant === 'loading' ? <span className="latch-spinner" aria-hidden="true" /> : null}
      {toast.message}
      {toast.link ? (
        <a className="latch-toast-link" href={toast.link.url} target="_blank" rel="noopener noreferrer" data-testid="latch-toast-link">
          {toast.link.label}
        </a>
      ) : null}
    </div>
  )
}
