import type { LatchAlert } from '@latchkit/core'

/** The alert banner (info / warning / error) at the top of the modal. */
export function AlertBanner({ alert }: { alert: LatchAlert }) {
  return (
    <div className="latch-alert" role="alert" data-testid="latch-alert" data-variant={alert.variant} data-code={alert.code}>
      {alert.message}
    </div>
  )
}
