import { lazy, Suspense } from 'react'
import type { LatchView } from '@latchkit/core'
import { AccountView } from '../../views/AccountView'
import { ConnectingExternalView } from '../../views/ConnectingExternalView'
import { ConnectView } from '../../views/ConnectView'
import { NetworksView } from '../../views/NetworksView'
import { UnavailableView } from '../../views/UnavailableView'
import { UnsupportedChainView } from '../../views/UnsupportedChainView'

// A separate chunk: the registry list is only needed once the visitor asks for all wallets.
const AllWalletsView = lazy(() => import('../../views/AllWalletsView'))

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
    case 'Account':
      return <AccountView />
    case 'Networks':
      return <NetworksView />
    case 'UnsupportedChain':
      return <UnsupportedChainView />
    default:
      return <UnavailableView view={view} />
  }
}
