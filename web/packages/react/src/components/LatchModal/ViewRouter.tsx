import { lazy, Suspense, type ComponentType } from 'react'
import type { LatchView } from '@latchkit/core'
import { AccountView } from '../../views/account/AccountView'
import { ConnectingExternalView } from '../../views/connect/ConnectingExternalView'
import { ConnectView } from '../../views/connect/ConnectView'
import { NetworksView } from '../../views/networks/NetworksView'
import { UnsupportedChainView } from '../../views/networks/UnsupportedChainView'
import { UnavailableView } from './UnavailableView'

/** Views in the first load: the ones a visitor sees first or right after connecting. */
const views: Partial<Record<LatchView, ComponentType>> = {
  Connect: ConnectView,
  ConnectingExternal: ConnectingExternalView,
  Account: AccountView,
  Networks: NetworksView,
  UnsupportedChain: UnsupportedChainView,
}

// The e-mail wallet's views are one chunk (see views/embedded/EmbeddedViews).
const embeddedViews = () => import('../../views/embedded/EmbeddedViews')
// The Buy panel and the Pay view are one chunk (Pay's buy step is the Buy panel's flow).
const onrampViews = () => import('../../views/onramp/OnrampViews')

/** Views in chunks of their own, loaded when first opened (a spinner meanwhile). */
const lazyViews: Partial<Record<LatchView, ComponentType>> = {
  // The registry list is only needed once the visitor asks for all wallets.
  AllWallets: lazy(() => import('../../views/connect/AllWalletsView')),
  // WalletConnect's views (QR code generator included) load when the visitor picks WalletConnect.
  ConnectingWalletConnect: lazy(() => import('../../views/walletconnect/ConnectingWalletConnectView')),
  ConnectingWalletConnectBasic: lazy(() => import('../../views/walletconnect/ConnectingWalletConnectBasicView')),
  // Send and Receive are panels loaded on demand (spec §2), each only when enabled.
  WalletSend: lazy(() => import('../../views/send/SendView')),
  WalletSendPreview: lazy(() => import('../../views/send/SendPreviewView')),
  WalletReceive: lazy(() => import('../../views/account/ReceiveView')),
  WalletSwap: lazy(() => import('../../views/swap/SwapView')),
  // The e-mail wallet's views load when a visitor uses e-mail login, or the wallet asks for an approval.
  EmailVerifyOtp: lazy(() => embeddedViews().then((m) => ({ default: m.EmailVerifyOtpView }))),
  EmailVerifyDevice: lazy(() => embeddedViews().then((m) => ({ default: m.EmailVerifyDeviceView }))),
  UpdateEmail: lazy(() => embeddedViews().then((m) => ({ default: m.UpdateEmailView }))),
  ApproveTransaction: lazy(() => embeddedViews().then((m) => ({ default: m.ApproveTransactionView }))),
  // The names views load when the visitor chooses a name (one chunk: the success view comes after the form).
  RegisterAccountName: lazy(() => import('../../views/names/RegisterAccountNameView')),
  RegisterAccountNameSuccess: lazy(() => import('../../views/names/RegisterAccountNameView').then((m) => ({ default: m.RegisterAccountNameSuccessView }))),
  // The Buy panel (AppKit's OnRampProviders) and the Pay view (latch.pay), loaded when one opens.
  OnRampProviders: lazy(() => onrampViews().then((m) => ({ default: m.BuyView }))),
  Pay: lazy(() => onrampViews().then((m) => ({ default: m.PayView }))),
  // Sign-in (options.siwx): opens after connect when the account has no session.
  SIWXSignMessage: lazy(() => import('../../views/siwx/SIWXSignMessageView')),
}

/** The body of the modal for the current view. */
export function ViewRouter({ view }: { view: LatchView }) {
  const LazyView = lazyViews[view]
  if (LazyView) {
    return (
      <Suspense fallback={<span className="latch-spinner latch-list-spinner" aria-hidden="true" />}>
        <LazyView />
      </Suspense>
    )
  }
  const View = views[view]
  return View ? <View /> : <UnavailableView view={view} />
}
