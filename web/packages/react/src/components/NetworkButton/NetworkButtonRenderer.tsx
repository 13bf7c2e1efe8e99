import type { ReactNode } from 'react'
import type { Chain } from 'viem'
import { useLatch } from '../../hooks/useLatch'
import { useLatchNetwork } from '../../hooks/useLatchNetwork'
import { useIsMounted, useLatchSelector } from '../../hooks/useLatchSelector'

export type NetworkButtonRenderProps = {
  network: Chain
  caipNetworkId: string
  mounted: boolean
  /** False when the app turned network switching off (enableNetworkSwitch: false). */
  switchEnabled: boolean
  /** Opens the Networks view; does nothing when switching is off. */
  openNetworkModal: () => void
}

export type NetworkButtonRendererProps = { children: (props: NetworkButtonRenderProps) => ReactNode }

/** Headless network button: the active network and a way to open the Networks view. */
export function NetworkButtonRenderer({ children }: NetworkButtonRendererProps) {
  const { open } = useLatch()
  const { network, caipNetworkId } = useLatchNetwork()
  const mounted = useIsMounted()
  const switchEnabled = useLatchSelector((s) => s.enableNetworkSwitch)
  const openNetworkModal = () => {
    if (switchEnabled) open({ view: 'Networks' })
  }
  return children({ network, caipNetworkId, mounted, switchEnabled, openNetworkModal })
}
