// Every user-visible string of the widget, in one typed catalogue. Views and
// controllers refer to strings by key, so a translation is one more object of
// the same shape. Strings quoted by the spec (§5, §6, §8) are kept verbatim.

const en = {
  // Buttons and modal chrome
  'button.connect': 'Connect Wallet',
  'button.connecting': 'Connecting...',
  'button.close': 'Close',
  'button.back': 'Back',
  'button.tryAgain': 'Try again',
  'button.cancel': 'Cancel',
  'button.copyAddress': 'Copy address',
  'button.copyLink': 'Copy link',
  'button.disconnect': 'Disconnect',
  'button.getWallet': 'Get a wallet',
  'button.switchNetwork': 'Switch network',

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

  // Connect view and wallet lists
  'connect.allWallets': 'All wallets',
  'connect.allWalletsCount': 'All wallets ({count})',
  'connect.searchWallet': 'Search wallet',
  'connect.noWalletsFound': 'No wallet found',
  'connect.walletsError': 'Could not load wallets',
  'connect.loadMore': 'Load more',
  'connect.recent': 'Recent',
  'connect.installed': 'Installed',
  'connect.walletConnect': 'WalletConnect',
  'connect.qrCode': 'QR code',
  'connect.orConnectWith': 'or',
  'connect.email': 'Email',
  'connect.emailPlaceholder': 'Email',
  'connect.continueWith': 'Continue with {provider}',
  'connect.haveNoWallet': "Haven't got a wallet?",
  'connect.legalCheckbox': 'I agree to the Terms of Service and Privacy Policy',

  // Connecting states
  'connecting.continueIn': 'Continue in {name}',
  'connecting.acceptRequest': 'Accept connection request in the wallet',
  'connecting.declined': 'Connection declined',
  'connecting.declinedDescription': 'Connection can be declined if a previous request is still active',
  'connecting.scanQr': 'Scan this QR code with your phone',
  'connecting.linkCopied': 'Link copied',
  'connecting.notInstalled': '{name} is not installed',
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

  // Account view
  'account.tabTokens': 'Tokens',
  'account.tabNfts': 'NFTs',
  'account.tabActivity': 'Activity',
  'account.addressCopied': 'Address copied',
  'account.balanceUnavailable': 'Token Balance Unavailable',
  'account.noActivity': 'No activity yet',
  'account.failedToFetchTransactions': 'Failed to fetch transactions',

  // Networks
  'network.unsupported': 'This app doesn’t support your current network. Switch to an available option to continue.',
  'network.switchDeclined': 'Switch declined',
  'network.switching': 'Switching network…',
  'network.active': 'Active',
  'network.testnet': 'Testnet',
  'modal.viewUnavailable': 'This view is not available yet.',
  'network.notFound': 'Network Not Found',

  // Sign-in (SIWX); the sign-in flow's own strings are in its chunk (siwx/strings.ts, react views/siwx/strings.ts)
  'siwx.authenticating': 'Authenticating...',

  // Errors shown in the UI
  'error.userRejected': 'User rejected the request',
  'error.actionNotAllowed': 'Action not allowed',
  'error.rpcNotAllowed': 'Requested RPC call is not allowed',
  'error.smartAccountsUnsupported': 'This application might not support Smart Accounts',
  'error.generic': 'Something went wrong',
  'error.requestTimeout': 'The request took too long to respond.',
  'error.httpStatus': 'HTTP status code: {status}',
  'error.emailCooldown': 'Please try again after {n} seconds',
  'error.unsupportedChain': 'Unsupported chain',

  // Alerts (spec §8): short titles and the longer explanation logged / shown in debug mode
  'alert.projectIdNotConfigured': 'Project ID Not Configured',
  'alert.projectIdNotConfiguredLong':
    'Set `projectId` in the Latch options. It identifies your project to latchd; remote features are disabled without it.',
  'alert.invalidAppConfiguration': 'Invalid App Configuration',
  'alert.invalidAppConfigurationLong':
    'This origin is not on the project’s allowlist. Update the configuration of your project on your latchd.',
  'alert.originNotAllowedLong':
    'Origin {origin} is not on the project’s allowlist. Add it to the project’s allowed origins on your latchd.',
  'alert.invalidProjectIdLong': 'The project id is not valid. Check `projectId` in the Latch options.',
  'alert.localConfigurationIgnored': 'Local configuration ignored',
  'alert.localConfigurationIgnoredLong':
    'Your local configuration for {features} was ignored because the project’s remote configuration was fetched. Manage these features on your latchd.',
  'alert.networkNotFound': 'Network Not Found',
  'alert.networkNotFoundLong': 'The network you switched to is not among the configured `networks`.',
  'alert.rateLimited': 'Rate Limited',
  'alert.rateLimitedLong': 'latchd answered 429 Too Many Requests. Try again later.',
  'alert.serverError': 'Server Error',
  'alert.serverErrorLong': 'latchd answered with a server error while checking the project configuration.',
  'alert.networkError': 'Network Error',
  'alert.networkErrorLong': 'The embedded wallet could not load. Check your connection and try again.',
  'alert.embeddedRequestTimeout': 'Embedded Wallet Request Timed Out',
  'alert.embeddedRequestTimeoutLong': 'The embedded wallet did not answer in time.',
  'alert.sessionExpired': 'Session Expired',
  'alert.sessionExpiredLong': 'Your session expired. Sign in again.',
  'alert.unverifiedDomain': 'Invalid App Configuration',
  'alert.unverifiedDomainLong': 'This domain is not verified for the project.',
  'alert.iframeLoadFailed': 'Network Error',
  'alert.iframeLoadFailedLong': 'Unable to load email login dependency',
  'alert.iframeRequestTimeout': 'Embedded Wallet Request Timed Out',
  'alert.iframeRequestTimeoutLong': 'The embedded wallet frame did not answer in time.',

  // Send (spec §5)
  'send.amountAndReceiverRequired': 'An amount and receiver address are required',
  'send.tokenRequired': 'A token is required',

  // Account tabs, Send and Receive (spec §2, §5, §8, §9)
  'view.WalletSend': 'Send',
  'view.WalletSwap': 'Swap',
  'view.OnRampProviders': 'Buy crypto',
  'view.WalletSendPreview': 'Review send',
  'view.WalletReceive': 'Receive',
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

  // Names (spec §8)
  'names.resolveError': 'Error resolving name',
  'names.suggestionsError': 'Error fetching name suggestions',
  'names.forAddressError': 'Error fetching names for address',
  'names.registerError': 'Error registering name {name}',
} as const

/** Keys of the message catalogue. */
export type MessageKey = keyof typeof en

/** A catalogue: one string per key. Translations must supply every key. */
export type MessageCatalogue = Readonly<Record<MessageKey, string>>

/** The English catalogue, built in and the fallback of every other locale. */
export const messages: { readonly en: MessageCatalogue } = { en }

/** Values substituted into `{name}` placeholders; a numeric `count` also picks a plural form. */
export type MessageParams = Readonly<Record<string, string | number>>

const pluralRules = new Map<string, Intl.PluralRules>()

/**
 * lookup returns `english[key]`, or the active locale's string for it, with
 * `{name}` placeholders replaced from params. A numeric `params.count` picks
 * the plural form `key_<category>` (Intl.PluralRules of the locale) when the
 * catalogue has one. A placeholder without a value is left as is, so a missing
 * parameter is visible rather than silently blank.
 */
export function lookup(
  english: Readonly<Record<string, string>>,
  key: string,
  params?: MessageParams,
  catalogue?: Readonly<Record<string, string>>,
  locale = 'en',
): string {
  const source = catalogue ?? english
  let chosen = key
  if (typeof params?.count === 'number') {
    let rules = pluralRules.get(locale)
    if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)))
    const plural = `${key}_${rules.select(params.count)}`
    if (source[plural] !== undefined) chosen = plural
  }
  const template = source[chosen] ?? english[key] ?? key
  if (!params) return template
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    const value = params[name]
    return value === undefined ? placeholder : String(value)
  })
}

/** t returns core's message for key, in the given locale's catalogue when there is one (see lookup). */
export function t(key: MessageKey, params?: MessageParams, catalogue?: Readonly<Record<string, string>>, locale?: string): string {
  return lookup(en, key, params, catalogue, locale)
}
