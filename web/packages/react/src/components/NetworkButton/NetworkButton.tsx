import { useThemeScope } from '../../hooks/useThemeScope'
import { NetworkButtonRenderer } from './NetworkButtonRenderer'

export type NetworkButtonProps = { disabled?: boolean }

/** A badge with the active network's name; opens the Networks view (disabled when network switching is off). */
export function NetworkButton({ disabled = false }: NetworkButtonProps) {
  const scope = useThemeScope()
  return (
    <NetworkButtonRenderer>
      {({ network, switchEnabled, openNetworkModal }) => (
        <span {...scope} className="latch-inline">
          <button
            type="button"
            className="latch-network-button"
            data-testid="latch-network-button"
            disabled={disabled || !switchEnabled}
            onClick={openNetworkModal}
          >
            <span className="latch-network-dot" aria-hidden="true" data-testnet={network.testnet ? '' : undefined} />
            {network.name}
          </button>
        </span>
      )}
    </NetworkButtonRenderer>
  )
}

NetworkButton.Custom = NetworkButtonRenderer
