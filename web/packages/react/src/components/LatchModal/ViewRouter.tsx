import { lazy, Suspense } from 'react'
import type { LatchView } from '@latchkit/core'
import { AccountView } from '../../views/account/AccountView'
import { ConnectingExternalView } from '../../views/connect/ConnectingExternalView'
import { ConnectView } from '../../views/connect/ConnectView'
import { NetworksView } from '../../views/networks/NetworksView'
import { UnsupportedChainView } from '../../views/networks/UnsupportedChainView'
import { UnavailableView } from './UnavailableView'

// A separate chunk: the registry list is only needed once the visitor asks for all wallets.
const AllWalletsView = lazy(() => import('../../views/connect/AllWalletsView'))
// Send and Receive are panels loaded on demand (spec §2), each only when enabled.
const SendView = lazy(() => import('../../views/send/SendView'))
const SendPreviewView = lazy(() => import('../../views/send/SendPreviewView'))
const ReceiveView = lazy(() => import('../../views/account/ReceiveView'))
const panelFallback = <span className="latch-spinner latch-list-spinner" aria-hidden="true" />
// WalletConnect's views (QR code generator included) load when the visitor picks WalletConnect.
const ConnectingWalletConnectView = lazy(() => import('../../views/walletconnect/ConnectingWalletConnectView'))
const ConnectingWalletConnectBasicView = lazy(() => import('../../views/walletconnect/ConnectingWalletConnectBasicView'))

/** The body of the modal for the current view. */
export function ViewRouter({ view }: { view: LatchView }) {
  switch (view) {
    case 'Connect':
      return <ConnectView />
    case 'AllWallets':
      return (
        <Suspense fallback={<span className="latch-spinner latch-list-spinner" aria-hidden="true" />}>
          <AllWalletsView />
        </Suspense>
      )
    case 'ConnectingExternal':
      return <ConnectingExternalView />
    case 'ConnectingWalletConnect':
      return (
        <Suspense fallback={panelFallback}>
          <ConnectingWalletConnectView />
        </Suspense>
      )
    case 'ConnectingWalletConnectBasic':
      return (
        <Suspense fallback={panelFallback}>
          <ConnectingWalletConnectBasicView />
        </Suspense>
      )
    case 'Account':
      return <AccountView />
    case 'Networks':
      return <NetworksView />
    case 'UnsupportedChain':
      return <UnsupportedChainView />
    case 'WalletSend':
      return (
        <Suspense fallback={panelFallback}>
          <SendView />
        </Suspense>
      )
    case 'WalletSendPreview':
      return (
        <Suspense fallback={panelFallback}>
          <SendPreviewView />
        </Suspense>
      )
    case 'WalletReceive':
      return (
        <Suspense fallback={panelFallback}>
          <ReceiveView />
        </Suspense>
      )
    default:
      return <UnavailableView view={view} />
  }
}
