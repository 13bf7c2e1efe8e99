import { networkCaipId } from '../../adapters/registry'
import type { Latch, WalletPage } from '../../latch-types'
import { filterWalletsForPlatform, SEARCH_ENTRIES, WALLETS_PER_PAGE } from '../../wallets'
import { toLatchWallet } from '../latchWallet'

/**
 * fetchWallets reads one page of the registry (40) for AllWallets, or a
 * search (100 results), or the wallets of registry `ids` (a wallet button's
 * wallet; still within includeWalletIds when the app set it), marking
 * installed ones.
 */
export async function fetchWallets(
  latch: Latch,
  { page, search, ids }: { page: number; search?: string | undefined; ids?: readonly string[] | undefined },
): Promise<WalletPage> {
  const { api, opts, networks, seenRegistry, connection, isMobile } = latch._internal
  const query = search?.trim()
  const include = ids ? ids.filter((id) => !opts.includeWalletIds.length || opts.includeWalletIds.includes(id)) : opts.includeWalletIds
  if (ids && !include.length) return { count: 0, wallets: [] }
  const res = await api.getWallets({
    page: query || ids ? 1 : page,
    entries: ids ? include.length : query ? SEARCH_ENTRIES : WALLETS_PER_PAGE,
    ...(query ? { search: query } : {}),
    ...(include.length ? { include } : {}),
    ...(opts.excludeWalletIds.length ? { exclude: opts.excludeWalletIds } : {}),
    chains: networks.map(networkCaipId),
  })
  for (const w of res.data) seenRegistry.set(w.id, w)
  const announced = connection.getState().connectors
  const listed = filterWalletsForPlatform(res.data, isMobile).map((w) => {
    const installed = w.rdns ? announced.find((c) => c.rdns === w.rdns) : undefined
    return toLatchWallet(
      api,
      {
        id: w.id,
        name: w.name,
        kind: 'recommended',
        installed: Boolean(installed),
        ...(installed?.icon ? { imageUrl: installed.icon } : w.image_id ? { imageId: w.image_id } : {}),
        ...(w.rdns ? { rdns: w.rdns } : {}),
        ...(installed ? { connectorId: installed.id } : {}),
        ...(w.mobile_link ? { mobileLink: w.mobile_link } : {}),
        ...(w.desktop_link ? { desktopLink: w.desktop_link } : {}),
        ...(w.webapp_link ? { webappLink: w.webapp_link } : {}),
        registry: w,
      },
      opts.connectorImages,
    )
  })
  return { count: res.count, wallets: listed }
}
