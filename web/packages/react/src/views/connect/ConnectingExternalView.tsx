import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useModalT } from '../../components/LatchModal/strings'
import { WalletImage } from './WalletImage'

/** Waiting for the wallet to approve; on failure the reason and a Retry button. Success is core's (it opens Account). */
export function ConnectingExternalView() {
  const latch = useLatchInstance()
  const t = useModalT()
  const { wallet, connectError } = useLatchSelector((state) => ({ wallet: state.viewData.wallet, connectError: state.connectError }))
  if (!wallet) return null
  const retry = () => {
    latch.connectWallet(wallet).catch(() => {})
  }
  const declined = connectError?.kind === 'user_rejected'
  return (
    <div className="latch-view latch-connecting" data-testid="latch-view-ConnectingExternal">
      <div className="latch-connecting-icon" data-error={connectError ? '' : undefined}>
        <WalletImage src={wallet.imageUrl} name={wallet.name} size={72} />
      </div>
      {connectError ? (
        <>
          <p className="latch-title latch-error-text" role="alert" data-testid="latch-connect-error">
            {declined ? t('connecting.declined') : t('connecting.failed')}
          </p>
          <p className="latch-subtitle">{declined ? t('connecting.declinedDescription') : connectError.message}</p>
          <button type="button" className="latch-secondary-button" data-testid="latch-connect-retry" onClick={retry}>
            {t('button.tryAgain')}
          </button>
        </>
      ) : (
        <>
          <p className="latch-title" data-testid="latch-connect-pending">
            {t('connecting.continueIn', { name: wallet.name })}
          </p>
          <p className="latch-subtitle">{t('connecting.acceptRequest')}</p>
        </>
      )}
    </div>
  )
}
