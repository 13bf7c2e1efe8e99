import { useModalT } from '../../components/LatchModal/strings'
import { NetworkList } from './NetworkList'

/** Shown while the wallet is on a chain the app does not support (spec §2): why, and the networks to switch to. */
export function UnsupportedChainView() {
  const t = useModalT()
  return (
    <div className="latch-view" data-testid="latch-view-UnsupportedChain">
      <p className="latch-subtitle" data-testid="latch-unsupported-chain-message">
        {t('network.unsupported')}
      </p>
      <NetworkList label={t('view.UnsupportedChain')} markActive={false} />
    </div>
  )
}
