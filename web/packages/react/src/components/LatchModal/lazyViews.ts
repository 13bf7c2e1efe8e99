// The loaders of the modal's lazy views, a chunk of its own: the page's first load
// then carries one dynamic import (this table) instead of one per view, each with
// the list of chunk files the bundler preloads for it. LatchModal loads the table
// when it mounts, with the modal's dialog (loadModalDialog).
import type { ComponentType } from 'react'
import type { LatchView } from '@latchkit/core'

// The e-mail wallet's views are one chunk (see views/embedded/EmbeddedViews).
const embeddedViews = () => import('../../views/embedded/EmbeddedViews')
// The Buy panel and the Pay view are one chunk (Pay's buy step is the Buy panel's flow).
const onrampViews = () => import('../../views/onramp/OnrampViews')

/** The loaders of the views in chunks of their own, loaded when first opened. */
const loaders: Partial<Record<LatchView, () => Promise<{ default: ComponentType }>>> = {
  // The registry list is only needed once the visitor asks for all wallets.
  AllWallets: () => import('../../views/connect/AllWalletsView'),
  // WalletConnect's views (QR code generator included) load when the visitor picks WalletConnect.
  ConnectingWalletConnect: () => import('../../views/walletconnect/ConnectingWalletConnectView'),
  ConnectingWalletConnectBasic: () => import('../../views/walletconnect/ConnectingWalletConnectBasicView'),
  // Send and Receive are panels loaded on demand (spec §2), each only when enabled.
  WalletSend: () => import('../../views/send/SendView'),
  WalletSendPreview: () => import('../../views/send/SendPreviewView'),
  WalletReceive: () => import('../../views/account/ReceiveView'),
  WalletSwap: () => import('../../views/swap/SwapView'),
  // The e-mail wallet's views load when a visitor uses e-mail login, or the wallet asks for an approval.
  EmailVerifyOtp: () => embeddedViews().then((m) => ({ default: m.EmailVerifyOtpView })),
  EmailVerifyDevice: () => embeddedViews().then((m) => ({ default: m.EmailVerifyDeviceView })),
  UpdateEmail: () => embeddedViews().then((m) => ({ default: m.UpdateEmailView })),
  ApproveTransaction: () => embeddedViews().then((m) => ({ default: m.ApproveTransactionView })),
  // The names views load when the visitor chooses a name (one chunk: the success view comes after the form).
  RegisterAccountName: () => import('../../views/names/RegisterAccountNameView'),
  RegisterAccountNameSuccess: () => import('../../views/names/RegisterAccountNameView').then((m) => ({ default: m.RegisterAccountNameSuccessView })),
  // The Buy panel (AppKit's OnRampProviders) and the Pay view (latch.pay), loaded when one opens.
  OnRampProviders: () => onrampViews().then((m) => ({ default: m.BuyView })),
  Pay: () => onrampViews().then((m) => ({ default: m.PayView })),
  // The explanations for newcomers, one chunk for both.
  WhatIsAWallet: () => import('../../views/help/WhatIsViews').then((m) => ({ default: m.WhatIsAWalletView })),
  WhatIsANetwork: () => import('../../views/help/WhatIsViews').then((m) => ({ default: m.WhatIsANetworkView })),
  // Social login's views: every social (Connect's More) and Farcaster's QR code.
  ConnectSocials: () => import('../../views/social/ConnectSocialsView'),
  ConnectingFarcaster: () => import('../../views/social/ConnectingFarcasterView'),
  // Sign-in (options.siwx): opens after connect when the account has no session.
  SIWXSignMessage: () => import('../../views/siwx/SIWXSignMessageView'),
  // The connected wallets (multi-wallet), opened from Account.
  ProfileWallets: () => import('../../views/profile/ProfileWalletsView').then((m) => ({ default: m.ProfileWalletsView })),
}

/** loadView loads the component of a lazy view; undefined when the view is not one. */
export function loadView(view: LatchView): Promise<{ default: ComponentType } | undefined> {
  return loaders[view]?.() ?? Promise.resolve(undefined)
}

/** The modal's dialog and its first views (./LatchModal loads it when the modal mounts). */
export const loadModalDialog = () => import('./ModalDialog')
/** The account tabs' chunk: the Tokens/NFTs/Activity tabs and the account's name (AccountView, in the dialog's chunk). */
export const loadAccountTabs = () => import('../../views/account/AccountTabs')
/** The e-mail wallet's views (the Connect view's e-mail field among them). */
export const loadEmbeddedViews = embeddedViews
