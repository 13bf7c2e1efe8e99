import { useState } from 'react'
import { loadSiwxModule } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSession } from '../../hooks/useLatchSession'
import { useStrings } from '../../hooks/useT'
import { useModalT } from '../../components/LatchModal/strings'
import { siwxStrings } from './strings'

/**
 * SIWXSignMessage (spec §2, §4): asks the connected wallet to sign the sign-in
 * message. Sign signs and stores the session (the modal then closes); a
 * decline keeps the view with 'Signature declined'; Cancel disconnects when
 * sign-in is required, otherwise closes; either way the view resets to Connect.
 */
export default function SIWXSignMessageView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const s = useStrings(siwxStrings)
  const session = useLatchSession()
  const [cancelling, setCancelling] = useState(false)
  const name = latch._internal.opts.metadata?.name || s('siwx.thisApp')
  const busy = session.status === 'signing' || cancelling
  const checking = session.status === 'checking'

  const sign = () => {
    // The rejection is the state's error, shown below.
    session.signIn().catch(() => {})
  }
  const cancel = async () => {
    setCancelling(true)
    try {
      await (await loadSiwxModule()).cancelSiwx(latch)
    } finally {
      setCancelling(false)
    }
  }

  return (
    <div className="latch-view latch-connecting latch-siwx" data-testid="latch-view-SIWXSignMessage" aria-label={t('view.SIWXSignMessage')}>
      <p className="latch-title" data-testid="latch-siwx-title">
        {s('siwx.title', { name })}
      </p>
      <p className="latch-subtitle">{session.required ? s('siwx.descriptionRequired') : s('siwx.description')}</p>
      {session.status === 'signing' ? (
        <p className="latch-subtitle" role="status" data-testid="latch-siwx-authenticating">
          <span className="latch-spinner" aria-hidden="true" /> {t('siwx.authenticating')}
        </p>
      ) : checking ? (
        <p className="latch-subtitle" role="status">
          <span className="latch-spinner" aria-hidden="true" /> {s('siwx.checking')}
        </p>
      ) : null}
      {session.error && !busy ? (
        <p className="latch-error-text" role="alert" data-testid="latch-siwx-error">
          {session.error}
        </p>
      ) : null}
      <div className="latch-button-row">
        <button type="button" className="latch-secondary-button" onClick={() => void cancel()} disabled={busy} data-testid="latch-siwx-cancel">
          {t('button.cancel')}
        </button>
        <button type="button" className="latch-primary-button" onClick={sign} disabled={busy || checking} data-testid="latch-siwx-sign">
          {s('siwx.sign')}
        </button>
      </div>
    </div>
  )
}
