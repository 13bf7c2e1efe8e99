// English defaults for every message key the React layer asks latch.t() for. Keys follow core's
// catalogue (core/src/messages.ts); the few core lacks (marked) fall back to the text here.

export const defaultMessages = {
  'button.connect': 'Connect Wallet',
  'button.connecting': 'Connecting...',
  'button.close': 'Close',
  'button.back': 'Back',
  'button.tryAgain': 'Try again',
  'button.copyAddress': 'Copy address',
  'button.disconnect': 'Disconnect',
  'view.Connect': 'Connect Wallet',
  'view.AllWallets': 'All wallets',
  'view.Account': 'Account',
  'view.Networks': 'Choose network',
  'connect.allWallets': 'All wallets',
  'connect.searchWallet': 'Search wallet',
  'connect.noWalletsFound': 'No wallet found',
  'connect.recent': 'Recent',
  'connect.installed': 'Installed',
  'connecting.continueIn': 'Continue in {name}',
  'connecting.acceptRequest': 'Accept connection request in the wallet',
  'connecting.declined': 'Connection declined',
  'connecting.declinedDescription': 'Connection can be declined if a previous request is still active',
  'account.addressCopied': 'Address copied',
  // not (yet) in core's catalogue:
  'connecting.failed': 'Connection failed',
  'connect.walletsError': 'Could not load wallets',
  'connect.loadMore': 'Load more',
  'network.active': 'Active',
  'network.testnet': 'Testnet',
  'view.unavailable': 'This view is not available yet.',
} as const

/** A message key the React layer uses. */
export type MessageKey = keyof typeof defaultMessages

/** Replaces `{name}` placeholders, as core's t() does. */
export function interpolate(template: string, params?: Record<string, string | number>): string {
  if (!params) return template
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match))
}

/**
 * latch.t(key) when the catalogue has the key, else undefined: a missing key may come back as the key
 * itself, as undefined, or as a throw, depending on the catalogue.
 */
export function lookup(t: (key: string, params?: Record<string, string | number>) => string, key: string, params?: Record<string, string | number>): string | undefined {
  try {
    const text: unknown = t(key, params)
    return typeof text === 'string' && text !== key ? text : undefined
  } catch {
    return undefined
  }
}
