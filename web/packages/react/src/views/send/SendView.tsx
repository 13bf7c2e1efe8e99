import { useEffect, useId, useState } from 'react'
import { Avatar } from '../../components/Avatar/Avatar'
import { useLatchInstance } from '../../context'
import { useAccountModels } from '../../hooks/useAccountModels'
import { useLatchSend } from '../../hooks/useLatchSend'
import { useModalT } from '../../components/LatchModal/strings'
import { truncateAddress } from '../../utils'

/** Delay between the last keystroke in the receiver field and resolving it (spec §9's search delay). */
const RECEIVER_DEBOUNCE_MS = 300

/**
 * The Send view (WalletSend): token from the visitor's balances, amount with
 * Max, receiver address or name (resolved, with avatar and name), then
 * Review, which validates (spec §5), estimates the fee and checks balances
 * before the wallet is ever asked.
 */
export function SendView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const send = useLatchSend()
  const models = useAccountModels()
  const ids = { token: useId(), amount: useId(), receiver: useId(), error: useId() }
  const [receiverText, setReceiverText] = useState(send.receiverAddress)

  // Keep the field in step when the controller clears the form (after a send, on a network switch).
  useEffect(() => setReceiverText(send.receiverAddress), [send.receiverAddress])
  useEffect(() => {
    if (receiverText === send.receiverAddress) return
    const timer = setTimeout(() => send.setReceiver(receiverText), RECEIVER_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [receiverText, send])

  if (!send.ready || !models) return <span className="latch-spinner latch-list-spinner" aria-hidden="true" />
  const { formatFiat, formatQuantity } = models

  const tokens = send.tokenBalances
  const token = send.token
  const tokenKey = (b: { chainId: string; address?: string | undefined }) => `${b.chainId}:${b.address ?? 'native'}`
  const amountNumber = Number(send.sendTokenAmount)
  const amountUsd =
    token && send.sendTokenAmount.trim() !== '' && Number.isFinite(amountNumber) && token.price > 0 ? amountNumber * token.price : undefined

  const review = async () => {
    // Apply a receiver still waiting for its debounce before validating.
    if (receiverText !== send.receiverAddress) send.setReceiver(receiverText)
    if (await send.review()) latch.push('WalletSendPreview')
  }

  return (
    <form
      className="latch-view latch-send"
      data-testid="latch-view-WalletSend"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void review()
      }}
    >
      <label className="latch-field-label" htmlFor={ids.token}>
        {t('send.token')}
      </label>
      {tokens.length === 0 ? <p className="latch-subtitle">{t('send.noBalances')}</p> : null}
      <select
        id={ids.token}
        className="latch-input"
        data-testid="latch-send-token"
        value={token ? tokenKey(token) : ''}
        onChange={(event) => send.setToken(tokens.find((b) => tokenKey(b) === event.target.value))}
      >
        <option value="">{t('send.selectToken')}</option>
        {tokens.map((b) => (
          <option key={tokenKey(b)} value={tokenKey(b)}>
            {b.symbol} — {formatQuantity(b.quantity.numeric)}
          </option>
        ))}
      </select>

      <label className="latch-field-label" htmlFor={ids.amount}>
        {t('send.amount')}
      </label>
      <div className="latch-input-row">
        <input
          id={ids.amount}
          className="latch-input"
          data-testid="latch-send-amount"
          dir="ltr"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0"
          value={send.sendTokenAmount}
          aria-invalid={send.errorKind === 'invalid_amount' || send.errorKind === 'insufficient_balance' || undefined}
          aria-describedby={send.error ? ids.error : undefined}
          onChange={(event) => send.setAmount(event.target.value)}
        />
        <button type="button" className="latch-secondary-button" data-testid="latch-send-max" disabled={!token || send.estimating} onClick={() => void send.setMax()}>
          {t('send.max')}
        </button>
      </div>
      {token ? (
        <span className="latch-subtitle" data-testid="latch-send-balance">
          {t('send.balance', { amount: formatQuantity(token.quantity.numeric), symbol: token.symbol })}
          {amountUsd !== undefined ? ` · ${formatFiat(amountUsd)}` : ''}
        </span>
      ) : null}

      <label className="latch-field-label" htmlFor={ids.receiver}>
        {t('send.to')}
      </label>
      <input
        id={ids.receiver}
        className="latch-input"
        data-testid="latch-send-receiver"
        dir="ltr"
        autoComplete="off"
        spellCheck={false}
        placeholder={t('send.receiverPlaceholder')}
        value={receiverText}
        aria-invalid={send.errorKind === 'invalid_receiver' || undefined}
        aria-describedby={send.error ? ids.error : undefined}
        onChange={(event) => setReceiverText(event.target.value)}
      />
      {send.resolving ? <span className="latch-subtitle">{t('send.resolving')}</span> : null}
      {send.resolvedReceiver ? (
        <span className="latch-receiver" data-testid="latch-send-receiver-resolved">
          {send.receiverProfileImageUrl ? (
            <img className="latch-avatar" src={send.receiverProfileImageUrl} alt="" width={24} height={24} />
          ) : (
            <Avatar address={send.resolvedReceiver} size={24} />
          )}
          {send.receiverProfileName ? <span>{send.receiverProfileName}</span> : <span dir="ltr">{truncateAddress(send.resolvedReceiver)}</span>}
          {send.receiverProfileName ? (
            <span className="latch-subtitle" dir="ltr">
              {truncateAddress(send.resolvedReceiver)}
            </span>
          ) : null}
        </span>
      ) : null}

      {send.error ? (
        <p id={ids.error} className="latch-error-text" role="alert" data-testid="latch-send-error">
          {send.error}
        </p>
      ) : null}
      <button type="submit" className="latch-primary-button" data-testid="latch-send-review" disabled={send.estimating || send.loading}>
        {send.estimating ? <span className="latch-spinner" aria-hidden="true" /> : null}
        {send.estimating ? t('send.estimating') : t('send.review')}
      </button>
    </form>
  )
}

export default SendView
