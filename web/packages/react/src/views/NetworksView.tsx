import { useLatchSelector } from '../hooks/useLatchSelector'
import { useT } from '../hooks/useT'

/** Read-only list of the configured networks; the active one and testnets are marked. Switching comes later. */
export function NetworksView() {
  const t = useT()
  const { networks, activeId } = useLatchSelector((state) => ({ networks: state.networks, activeId: state.activeNetwork.id }))
  return (
    <div className="latch-view" data-testid="latch-view-Networks">
      <ul className="latch-list" aria-label={t('view.Networks')}>
        {networks.map((network) => {
          const active = network.id === activeId
          return (
            <li
              key={network.id}
              className="latch-list-item latch-network-row"
              data-testid={`latch-network-${network.id}`}
              aria-current={active ? 'true' : undefined}
            >
              <span className="latch-network-dot" aria-hidden="true" data-testnet={network.testnet ? '' : undefined} />
              <span className="latch-list-item-name">{network.name}</span>
              {network.testnet ? <span className="latch-tag">{t('network.testnet')}</span> : null}
              {active ? <span className="latch-tag latch-tag-accent">{t('network.active')}</span> : null}
            </li>
          )
        })}
      </ul>
    </div>
  )
}
