import type { ReactNode } from 'react'
import { ConnectButtonRenderer, type ConnectButtonAccount } from '../ConnectButton/ConnectButtonRenderer'

export type AccountButtonRenderProps = {
  account: ConnectButtonAccount | undefined
  mounted: boolean
  openAccountModal: () => void
}

export type AccountButtonRendererProps = { children: (props: AccountButtonRenderProps) => ReactNode }

/** Headless account button: the connected account and a way to open the Account view. */
export function AccountButtonRenderer({ children }: AccountButtonRendererProps) {
  return (
    <ConnectButtonRenderer>
      {({ account, mounted, openAccountModal }) => children({ account, mounted, openAccountModal })}
    </ConnectButtonRenderer>
  )
}
