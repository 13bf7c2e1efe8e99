// The dialog's strings (English): its chrome, view titles and the first views
// (Connect, Account, Networks, Send, Receive, WalletConnect). They live in the
// dialog's lazy chunk, not in core's catalogue, which every page loads first.
import type { MessageKey } from '@latchkit/core'
import { useCallback } from 'react'
import { useStrings, useT } from '../../hooks/useT'

export const modalStrings = {
  // Modal chrome and buttons
  'button.close': 'Close',
  'button.back': 'Back',
  'button.tryAgain': 'Try again',
  'button.cancel': 'Cancel',
  'button.copyAddress': 'Copy address',
  'button.copyLink': 'Copy link',
  'button.disconnect': 'Disconnect',
  'button.getWallet': 'Get a wallet',

  // View titles (router views, spec §2)
  'view.Connect': 'Connect Wallet',
  'view.ConnectingExternal': 'Connecting',
  'view.ConnectingWalletConnect': 'Connecting',
  'view.ConnectingWalletConnectBasic': 'WalletConnect',
  'view.ConnectingFarcaster': 'Farcaster',
  'view.ConnectSocials': 'All socials',
  'view.AllWallets': 'All wallets',
  'view.Account': 'Account',
  'view.Networks': 'Choose network',
  'view.WhatIsAWallet': 'What is a wallet?',
  'view.WhatIsANetwork': 'What is a network?',
  'view.RegisterAccountName': 'Choose name',
  'view.RegisterAccountNameSuccess': 'Name registered',
  'view.UnsupportedChain': 'Switch network',
  'view.SIWXSignMessage': 'Sign in',
  'view.ApproveTransaction': 'Approve transaction',
  'view.EmailVerifyOtp': 'Confirm Email',
  'view.EmailVerifyDevice': 'Register Device',
  'view.UpdateEmail': 'Edit Email',
  'view.WalletSend': 'Send',
  'view.WalletSwap': 'Swap',
  'view.OnRampProviders': 'Buy crypto',
  'view.WalletSendPreview': 'Review send',
  'view.WalletReceive': 'Receive',
  'view.ProfileWallets': 'Connected wallets',

  // Connect view and wallet lists
  'connect.allWallets': 'All wallets',
  'connect.searchWallet': 'Search wallet',
  'connect.noWalletsFound': 'No wallet found',
  'connect.walletsError': 'Could not load wallets',
  'connect.loadMore': 'Load more',
  'connect.recent': 'Recent',
  'connect.installed': 'Installed',
  'connect.qrCode': 'QR code',
  'connect.orConnectWith': 'or',
  'connect.email': 'Email',
  'connect.emailPlaceholder': 'Email',
  'connect.haveNoWallet': "Haven't got a wallet?",

  // Connecting states
  'connecting.continueIn': 'Continue in {name}',
  'connecting.acceptRequest': 'Accept connection request in the wallet',
  'connecting.declinedDescription': 'Connection can be declined if a previous request is still active',
  'connecting.scanQr': 'Scan this QR code with your phone',
  'connecting.linkCopied': 'Link copied',
  'connecting.failed': 'Connection failed',

  // WalletConnect (ConnectingWalletConnect, ConnectingWalletConnectBasic)
  'walletConnect.qrLabel': 'QR code to connect with WalletConnect',
  'walletConnect.preparing': 'Preparing a connection link…',
  'walletConnect.copyFailed': 'Could not copy the link',
  'walletConnect.open': 'Open',
  'walletConnect.openWebApp': 'Open the web app',
  'walletConnect.openDesktop': 'Open {name} on this computer',
  'walletConnect.platformQrcode': 'QR code',
  'walletConnect.platformMobile': 'Mobile',
  'walletConnect.platformDesktop': 'Desktop',
  'walletConnect.platformWeb': 'Web app',
  'walletConnect.platforms': 'Ways to connect',
  'walletConnect.declinedRetrying': 'Connection declined. Scan the new code to try again.',

  // Account view, its tabs, Send and Receive (spec §2, §5, §8, §9)
  'account.tabTokens': 'Tokens',
  'account.tabNfts': 'NFTs',
  'account.tabActivity': 'Activity',
  'account.noActivity': 'No activity yet',
  'account.failedToFetchTransactions': 'Failed to fetch transactions',
  'account.tabs': 'Account',
  'account.send': 'Send',
  'account.receive': 'Receive',
  'account.totalBalance': 'Total balance',
  'account.noTokens': 'No tokens yet',
  'account.noTokensDescription': 'Tokens you receive on this network appear here.',
  'account.noNfts': 'No NFTs yet',
  'account.noNftsDescription': 'NFT holdings are not listed yet; NFT transfers show under Activity.',
  'account.activityDescription': 'Your next transactions will appear here',
  'account.loadingActivity': 'Loading activity',
  'account.loadingBalances': 'Loading balances',
  'account.retry': 'Try again',
  'account.statusFailed': 'Failed',
  'account.statusPending': 'Pending',
  'send.selectToken': 'Select token',
  'send.token': 'Token',
  'send.amount': 'Amount',
  'send.max': 'Max',
  'send.balance': 'Balance: {amount} {symbol}',
  'send.to': 'To',
  'send.receiverPlaceholder': 'Address or name',
  'send.resolving': 'Resolving name…',
  'send.review': 'Review send',
  'send.estimating': 'Estimating fee…',
  'send.youSend': 'You send',
  'send.networkFee': 'Network fee',
  'send.network': 'Network',
  'send.confirm': 'Send',
  'send.edit': 'Edit',
  'send.sending': 'Confirm in your wallet…',
  'send.noBalances': 'No tokens to send on this network',
  'receive.description': 'Send assets to this address only on the networks below.',
  'receive.networks': 'Networks',
  'receive.qrLabel': 'QR code of your address',
  'receive.copy': 'Copy address',

  // Networks
  'network.unsupported': 'This app doesn’t support your current network. Switch to an available option to continue.',
  'network.switching': 'Switching network…',
  'network.active': 'Active',
  'network.testnet': 'Testnet',

  // Sign-in (SIWX)
  'siwx.authenticating': 'Authenticating...',

  // The modal
  'modal.viewUnavailable': 'This view is not available yet.',

  // Errors
  'error.smartAccountsUnsupported': 'This application might not support Smart Accounts',
} as const

/** A key of the dialog's strings. */
export type ModalStringKey = keyof typeof modalStrings

/** useModalT looks up a dialog key, or one of core's (errors and toasts core shows), in the active locale. */
export function useModalT(): (key: ModalStringKey | MessageKey, params?: Record<string, string | number>) => string {
  const modal = useStrings(modalStrings)
  const core = useT()
  return useCallback((key, params) => (key in modalStrings ? modal(key as ModalStringKey, params) : core(key as MessageKey, params)), [modal, core])
}
