import { Suspense, type ComponentType } from 'react'
import { lazyRetry } from '../../lazyRetry'
import type { LatchView } from '@latchkit/core'
import { AccountView } from '../../views/account/AccountView'
import { ConnectingExternalView } from '../../views/connect/ConnectingExternalView'
import { ConnectView } from '../../views/connect/ConnectView'
import { NetworksView } from '../../views/networks/NetworksView'
import { UnsupportedChainView } from '../../views/networks/UnsupportedChainView'
import { loadLazyViews } from './loadLazyViews'
import { UnavailableView } from './UnavailableView'

/** Views in the first load: the ones a visitor sees first or right after connecting. */
const views: Partial<Record<LatchView, ComponentType>> = {
  Connect: ConnectView,
  ConnectingExternal: ConnectingExternalView,
  Account: AccountView,
  Networks: NetworksView,
  UnsupportedChain: UnsupportedChainView,
}

const lazyComponents = new Map<LatchView, ComponentType>()

/** The lazy component of a view not in the first load (UnavailableView when no chunk has it). */
function lazyView(view: LatchView): ComponentType {
  let component = lazyComponents.get(view)
  if (!component) {
    component = lazyRetry(() =>
      loadLazyViews()
        .then((m) => m.loadView(view))
        .then((loaded) => loaded ?? { default: () => <UnavailableView view={view} /> }),
    )
    lazyComponents.set(view, component)
  }
  return component
}

/** The body of the modal for the current view. */
export function ViewRouter({ view }: { view: LatchView }) {
  const View = views[view]
  if (View) return <View />
  const LazyView = lazyView(view)
  return (
    <Suspense fallback={<span className="latch-spinner latch-list-spinner" aria-hidden="true" />}>
      <LazyView />
    </Suspense>
  )
}
