import type { Latch, LatchWallet } from '../../latch-types'
import { WALLET_CONNECT_ID } from '../../wallets'
import { fetchWallets } from './fetchWallets'

/** A registry wallet id: 64 hex digits. */
const registryId = /^[0-9a-f]{64}$/i

/** slug: a wallet name as a wallet button names it ("MetaMask" → "metamask", "Trust Wallet" → "trust"). */
export function walletSlug(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]/g, '')
  return slug.endsWith('wallet') && slug.length > 'wallet'.length ? slug.slice(0, -'wallet'.length) : slug
}

/**
 * findWallet resolves the wallet a wallet button names: `walletConnect` (the
 * generic QR code), a registry id, or a name as AppKit's wallet buttons take
 * it (`metamask`, `trust`, `coinbase`). The Connect list comes first (it
 * holds the installed extensions, matched with the registry by rdns), then
 * the registry (by id, or a search by name, its installed entries marked
 * by rdns too). Undefined when no wallet matches or WalletConnect is asked
 * for but not configured.
 */
export async function findWallet(latch: Latch, walletId: string): Promise<LatchWallet | undefined> {
  const { walletConnect } = latch._internal
  if (walletId === WALLET_CONNECT_ID) {
    return walletConnect.available()
      ? { id: WALLET_CONNECT_ID, name: 'WalletConnect', kind: 'walletConnect', installed: false, mobileLink: null, desktopLink: null, webappLink: null }
      : undefined
  }
  const slug = walletSlug(walletId)
  const matches = (w: LatchWallet): boolean => w.id === walletId || walletSlug(w.name) === slug
  const listed = latch.getState().wallets
  // An installed wallet first: the same name may also be a registry row further down.
  const known = listed.find((w) => w.installed && matches(w)) ?? listed.find(matches)
  if (known) return known
  const page = registryId.test(walletId) ? await fetchWallets(latch, { page: 1, ids: [walletId] }) : await fetchWallets(latch, { page: 1, search: walletId })
  return page.wallets.find((w) => w.installed && matches(w)) ?? page.wallets.find(matches)
}
