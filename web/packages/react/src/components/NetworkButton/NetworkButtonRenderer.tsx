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
  /** The connected wallet is on a chain the app does not list (`unsupportedChainId`). */
  unsupported: boolean
  /** Opens the Networks view (UnsupportedChain while `unsupported`); does nothing when switching is off. */
  openNetworkModal: () => void
}

export type NetworkButtonRendererProps = { children: (props: NetworkButtonRenderProps) => ReactNode }

/** Headless network button: the active network and a way to open the Networks view. */
export function NetworkButtonRenderer({ children }: NetworkButtonRendererProps) {
  const { open } = useLatch()
  const { network, caipNetworkId } = useLatchNetwork()
  const mounted = useIsMounted()
  const { switchEnabled, unsupported } = useLatchSelector((s) => ({
    switchEnabled: s.enableNetworkSwitch,
    unsupported: s.unsupportedChainId !== undefined && s.account.status === 'connected',
  }))
  const openNetworkModal = () => {
    if (switchEnabled) open({ view: unsupported ? 'UnsupportedChain' : 'Networks' })
  }
  return children({ network, caipNetworkId, mounted, switchEnabled, unsupported, openNetworkModal })
}
