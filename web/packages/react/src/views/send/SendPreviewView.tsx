import { useEffect } from 'react'
import { Avatar } from '../../components/Avatar/Avatar'
import { useLatchInstance } from '../../context'
import { useAccountModels } from '../../hooks/useAccountModels'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useLatchSend } from '../../hooks/useLatchSend'
import { useLocaleNumbers } from '../../hooks/useLocaleNumbers'
import { useModalT } from '../../components/LatchModal/strings'
import { truncateAddress } from '../../utils'

/**
 * A network fee is usually far below 0.001 of the native coin, where the 3
 * decimals of a quantity would show 0.000: up to 6 decimals, trimmed, then "<0.000001".
 * `decimal` writes a decimal string in the active locale (English: as it is).
 */
function formatFee(value: string, formatQuantity: (numeric: string) => string, decimal: (numeric: string) => string): string {
  const n = Number(value)
  if (!Number.isFinite(n) || n === 0) return decimal('0')
  if (n >= 0.001) return formatQuantity(value)
  if (n < 0.000001) return `<${decimal('0.000001')}`
  return decimal(n.toFixed(6).replace(/0+$/, ''))
}


/**
 * The review step (WalletSendPreview): what is sent, to whom, on which
 * network, and the fee (gas × price) in the native currency and USD. Send
 * asks the wallet; `loading` shows until it answers (spec §4).
 */
export function SendPreviewView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const { decimal } = useLocaleNumbers()
  const send = useLatchSend()
  const models = useAccountModels()
  const network = useLatchSelector((s) => s.activeNetwork)

  // Nothing to review (the form was cleared, e.g. by a network switch): back to the form.
  const nothingToReview = send.ready && send.step !== 'review' && !send.loading
  useEffect(() => {
    if (nothingToReview && latch.getState().view === 'WalletSendPreview') latch.goBack()
  }, [nothingToReview, latch])

  if (!send.ready || !models || !send.token || !send.fee || !send.resolvedReceiver) {
    return <span className="latch-spinner latch-list-spinner" aria-hidden="true" />
  }
  const { formatFiat, formatQuantity } = models
  const { token, fee } = send
  const amountUsd = token.price > 0 ? Number(send.sendTokenAmount) * token.price : undefined

  const confirm = async () => {
    try {
      const result = await send.send()
      // A native send stays in Send with a cleared form; token transfers go back to Account (spec §4).
      if (result.native && latch.getState().view === 'WalletSendPreview') latch.goBack()
    } catch {
      // The message is in send.error, shown below.
    }
  }

  return (
    <div className="latch-view latch-send-preview" data-testid="latch-view-WalletSendPreview">
      <dl className="latch-summary">
        <dt>{t('send.youSend')}</dt>
        <dd data-testid="latch-send-preview-amount">
          <span dir="ltr">
            {formatQuantity(send.sendTokenAmount)} {token.symbol}
          </span>
          {amountUsd !== undefined ? <span className="latch-subtitle"> {formatFiat(amountUsd)}</span> : null}
        </dd>
        <dt>{t('send.to')}</dt>
        <dd className="latch-receiver" data-testid="latch-send-preview-receiver" title={send.resolvedReceiver}>
          {send.receiverProfileImageUrl ? (
            <img className="latch-avatar" src={send.receiverProfileImageUrl} alt="" width={20} height={20} />
          ) : (
            <Avatar address={send.resolvedReceiver} size={20} />
          )}
          {send.receiverProfileName ? `${send.receiverProfileName} · ` : ''}
          <span dir="ltr">{truncateAddress(send.resolvedReceiver)}</span>
        </dd>
        <dt>{t('send.network')}</dt>
        <dd>{network.name}</dd>
        <dt>{t('send.networkFee')}</dt>
        <dd data-testid="latch-send-fee">
          <span dir="ltr">
            {formatFee(fee.formatted, formatQuantity, decimal)} {fee.nativeSymbol}
          </span>
          {fee.usd !== undefined ? <span className="latch-subtitle"> {formatFiat(fee.usd)}</span> : null}
        </dd>
      </dl>
      {send.error ? (
        <p className="latch-error-text" role="alert" data-testid="latch-send-error">
          {send.error}
        </p>
      ) : null}
      {send.loading ? (
        <p className="latch-subtitle" role="status" data-testid="latch-send-pending">
          <span className="latch-spinner" aria-hidden="true" /> {t('send.sending')}
        </p>
      ) : null}
      <div className="latch-button-row">
        <button
          type="button"
          className="latch-secondary-button"
          data-testid="latch-send-edit"
          disabled={send.loading}
          onClick={() => {
            send.edit()
            latch.goBack()
          }}
        >
          {t('send.edit')}
        </button>
        <button type="button" className="latch-primary-button" data-testid="latch-send-confirm" disabled={send.loading} onClick={() => void confirm()}>
          {t('send.confirm')}
        </button>
      </div>
    </div>
  )
}

export default SendPreviewView
