import { useId } from 'react'
import { useLatchInstance } from '../../context'
import { useStrings, useT } from '../../hooks/useT'
import { useThemeScope } from '../../hooks/useThemeScope'
import { WalletImage } from '../../views/connect/WalletImage'
import { NetworkButtonRenderer } from './NetworkButtonRenderer'
import { networkButtonStrings } from './strings'

export type NetworkButtonProps = { disabled?: boolean }

/**
 * A badge with the active network's icon (latchd's image route, its initial until the image loads) and name;
 * opens the Networks view (disabled when network switching is off). With the wallet on a chain the app does not
 * list it warns instead: "Switch network", opening the UnsupportedChain view.
 */
export function NetworkButton({ disabled = false }: NetworkButtonProps) {
  const scope = useThemeScope()
  const latch = useLatchInstance()
  const t = useT()
  const s = useStrings(networkButtonStrings)
  const describedBy = useId()
  return (
    <NetworkButtonRenderer>
      {({ network, caipNetworkId, switchEnabled, unsupported, openNetworkModal }) => (
        <span {...scope} className="latch-inline">
          <button
            type="button"
            className="latch-network-button"
            data-testid="latch-network-button"
            data-unsupported={unsupported ? '' : undefined}
            aria-describedby={unsupported ? describedBy : undefined}
            disabled={disabled || !switchEnabled}
            onClick={openNetworkModal}
          >
            {unsupported ? (
              <>
                <span className="latch-network-warning" aria-hidden="true" />
                <span data-testid="latch-network-button-name">{t('button.switchNetwork')}</span>
                <span id={describedBy} hidden>
                  {s('networkButton.unsupported')}
                </span>
              </>
            ) : (
              <>
                <span className="latch-network-icon" data-testnet={network.testnet ? '' : undefined} aria-hidden="true">
                  <WalletImage src={latch.assetImageUrl(caipNetworkId)} name={network.name} size={16} />
                </span>
                <span data-testid="latch-network-button-name">{network.name}</span>
              </>
            )}
          </button>
        </span>
      )}
    </NetworkButtonRenderer>
  )
}

NetworkButton.Custom = NetworkButtonRenderer
