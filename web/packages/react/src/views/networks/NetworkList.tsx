import { useEffect, useRef, useState } from 'react'
import { networkCaipId } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useModalT } from '../../components/LatchModal/strings'
import { WalletImage } from '../connect/WalletImage'

export type NetworkListProps = {
  /** Accessible name of the list. */
  label: string
  /** Mark the active network (the UnsupportedChain view does not: the wallet is on none of them). */
  markActive?: boolean
}

/**
 * The configured networks as buttons: image (latchd's asset image, a monogram
 * until it loads or when it fails), name, testnet and active tags. A click
 * calls latch.switchNetwork; the row shows pending until core navigates away
 * (success) or goes back with a toast (failure).
 */
export function NetworkList({ label, markActive = true }: NetworkListProps) {
  const latch = useLatchInstance()
  const t = useModalT()
  const { networks, activeId } = useLatchSelector((state) => ({ networks: state.networks, activeId: state.activeNetwork.id }))
  const [pendingId, setPendingId] = useState<number | undefined>(undefined)
  const mounted = useRef(true)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  const select = async (chainId: number) => {
    if (pendingId !== undefined) return
    setPendingId(chainId)
    try {
      await latch.switchNetwork(chainId)
    } catch {
      // Core shows the alert or toast and goes back (spec §4); nothing is left to do here.
    } finally {
      if (mounted.current) setPendingId(undefined)
    }
  }

  return (
    <ul className="latch-list" aria-label={label}>
      {networks.map((network) => {
        const active = markActive && network.id === activeId
        const pending = pendingId === network.id
        return (
          <li key={network.id}>
            <button
              type="button"
              className="latch-list-item latch-network-row"
              data-testid={`latch-network-${network.id}`}
              aria-current={active ? 'true' : undefined}
              aria-busy={pending ? 'true' : undefined}
              disabled={pendingId !== undefined && !pending}
              onClick={() => void select(network.id)}
            >
              <WalletImage src={latch.assetImageUrl(networkCaipId(network))} name={network.name} size={28} />
              <span className="latch-list-item-name">{network.name}</span>
              {network.testnet ? <span className="latch-tag">{t('network.testnet')}</span> : null}
              {active ? <span className="latch-tag latch-tag-accent">{t('network.active')}</span> : null}
              {pending ? (
                <span className="latch-spinner" data-testid={`latch-network-pending-${network.id}`} role="status" aria-label={t('network.switching')} />
              ) : null}
            </button>
          </li>
        )
      })}
    </ul>
  )
}
