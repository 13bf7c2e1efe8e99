import type { ReactNode } from 'react'
import type { Chain } from 'viem'
import { useLatch } from '../../hooks/useLatch'
import { useLatchNetwork } from '../../hooks/useLatchNetwork'
import { useIsMounted } from '../../hooks/useLatchSelector'

export type NetworkButtonRenderProps = {
  network: Chain
  caipNetworkId: string
  mounted: boolean
  openNetworkModal: () => void
}

export type NetworkButtonRendererProps = { children: (props: NetworkButtonRenderProps) => ReactNode }

/** Headless network button: the active network and a way to open the Networks view. */
export function NetworkButtonRenderer({ children }: NetworkButtonRendererProps) {
  const { open } = useLatch()
  const { network, caipNetworkId } = useLatchNetwork()
  const mounted = useIsMounted()
  return children({ network, caipNetworkId, mounted, openNetworkModal: () => open({ view: 'Networks' }) })
}
