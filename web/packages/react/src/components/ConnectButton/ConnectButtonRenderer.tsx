import type { ReactNode } from 'react'
import type { Chain } from 'viem'
import type { ConnectionStatus } from '@latchkit/core'
import { useLatch } from '../../hooks/useLatch'
import { useIsMounted, useLatchSelector } from '../../hooks/useLatchSelector'
import { useLatchFormats } from '../../hooks/useT'
import { truncateAddress } from '../../utils'

export type ConnectButtonAccount = {
  address: string
  /** `0x1234…abcdef` (spec §9). */
  displayAddress: string
  balance: { formatted: string; symbol: string } | undefined
  /** `0.123 ETH` (`0,123 ETH` in a locale writing a decimal comma), or undefined before the balance loads. */
  displayBalance: string | undefined
}

export type ConnectButtonRenderProps = {
  /** The connected account, undefined when disconnected. */
  account: ConnectButtonAccount | undefined
  chain: Chain
  status: ConnectionStatus
  /** False on the server and during hydration: render a placeholder then to avoid flashes. */
  mounted: boolean
  openConnectModal: () => void
  openAccountModal: () => void
  openChainModal: () => void
}

export type ConnectButtonRendererProps = { children: (props: ConnectButtonRenderProps) => ReactNode }

/** Headless connect button: everything ConnectButton shows, rendered by `children`. */
export function ConnectButtonRenderer({ children }: ConnectButtonRendererProps) {
  const { open } = useLatch()
  // The active account read directly: useLatchAccount's other-namespace reading stays out of a button page's first load.
  const { address, status, balance } = useLatchSelector(({ account }) => account)
  const isConnected = status === 'connected' && Boolean(address)
  const network = useLatchSelector((s) => s.activeNetwork)
  const mounted = useIsMounted()
  // core's formatted balance is already truncated to 3 decimals and padded: a locale regroups it with the same 3 (English shows it as it is).
  const formats = useLatchFormats()
  const account =
    isConnected && address
      ? {
          address,
          displayAddress: truncateAddress(address),
          balance,
          displayBalance: balance ? `${formats ? formats.balance(balance.formatted) : balance.formatted} ${balance.symbol}` : undefined,
        }
      : undefined
  return children({
    account,
    chain: network,
    status,
    mounted,
    openConnectModal: () => open({ view: 'Connect' }),
    openAccountModal: () => open({ view: 'Account' }),
    openChainModal: () => open({ view: 'Networks' }),
  })
}
