// The wallet shape views see (LatchWallet) and the one core's lists and
// WalletConnect flow use (ListedWallet), converted both ways.
import type { ApiClient } from '../api'
import type { LatchWallet } from '../latch-types'
import type { ListedWallet } from '../wallets'

/**
 * toLatchWallet turns a listed wallet into a view's: its image is the app's `connectorImages` entry (by wallet id,
 * connector id or rdns), else the wallet's own (an extension's announced icon, a custom wallet's; an empty one does
 * not count), else latchd's image route for its registry image id.
 */
export function toLatchWallet(api: Pick<ApiClient, 'walletImageUrl'>, w: ListedWallet, images: Readonly<Record<string, string>> = {}): LatchWallet {
  const imageUrl = images[w.id] ?? images[w.connectorId ?? ''] ?? images[w.rdns ?? ''] ?? (w.imageUrl || (w.imageId && api.walletImageUrl(w.imageId)))
  return {
    id: w.id,
    name: w.name,
    kind: w.kind,
    installed: w.installed,
    ...(imageUrl ? { imageUrl } : {}),
    ...(w.rdns ? { rdns: w.rdns } : {}),
    ...(w.connectorId ? { connectorId: w.connectorId } : {}),
    mobileLink: w.mobileLink ?? null,
    desktopLink: w.desktopLink ?? null,
    webappLink: w.webappLink ?? null,
    homepage: w.registry?.homepage ?? null,
    chromeStore: w.registry?.chrome_store ?? null,
  }
}

/** fromLatchWallet turns a view's wallet back into a listed one (the router and WalletConnect flow take those). */
export function fromLatchWallet(w: LatchWallet): ListedWallet {
  return {
    id: w.id,
    name: w.name,
    kind: w.kind,
    installed: w.installed,
    ...(w.imageUrl ? { imageUrl: w.imageUrl } : {}),
    ...(w.rdns ? { rdns: w.rdns } : {}),
    ...(w.connectorId ? { connectorId: w.connectorId } : {}),
    // WalletConnect's views build their deep links from these.
    ...(w.mobileLink ? { mobileLink: w.mobileLink } : {}),
    ...(w.desktopLink ? { desktopLink: w.desktopLink } : {}),
    ...(w.webappLink ? { webappLink: w.webappLink } : {}),
  }
}
