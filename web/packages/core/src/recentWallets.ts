// The visitor's recent wallets (spec §9: at most 2, most recent first),
// kept in storage and read back with a check of the registry wallet's shape.
import type { RegistryWallet } from './api'
import { browserStorage, STORAGE_PREFIX, type KeyValueStorage } from './storage'

/** Recent wallets kept (spec §9). */
export const RECENT_WALLETS_LIMIT = 2
/** Storage key of the recent wallets. */
export const RECENT_WALLETS_KEY = `${STORAGE_PREFIX}recentWallets`

/** The recent-wallets list, persisted under RECENT_WALLETS_KEY. */
export interface RecentWallets {
  /** Most recent first, at most RECENT_WALLETS_LIMIT. */
  get(): RegistryWallet[]
  /** Records a wallet as the most recent; returns the new list. */
  add(wallet: RegistryWallet): RegistryWallet[]
  clear(): void
}

// Text fields of a registry wallet: some absent or text, some also null (as walletSchema in api.ts says).
const optionalText = ['description', 'image_id', 'image_url'] as const
const nullableText = ['homepage', 'link_mode', 'mobile_link', 'desktop_link', 'webapp_link', 'app_store', 'play_store', 'chrome_store', 'rdns'] as const

/**
 * isRegistryWallet checks a stored recent wallet against the shape of
 * walletSchema (api.ts) without zod: the schemas load with the first latchd
 * request, while the recent list is read when the Latch is created.
 */
export function isRegistryWallet(value: unknown): value is RegistryWallet {
  if (typeof value !== 'object' || value === null) return false
  const w = value as Record<string, unknown>
  const isText = (v: unknown) => typeof v === 'string'
  return (
    isText(w.id) &&
    (w.id as string).length > 0 &&
    isText(w.name) &&
    optionalText.every((k) => w[k] === undefined || isText(w[k])) &&
    nullableText.every((k) => w[k] == null || isText(w[k])) &&
    (w.badge_type === undefined || w.badge_type === 'none' || w.badge_type === 'certified') &&
    (w.chains == null || (Array.isArray(w.chains) && w.chains.every(isText))) &&
    (w.order == null || typeof w.order === 'number') &&
    (w.injected == null ||
      (Array.isArray(w.injected) &&
        w.injected.every(
          (i: unknown) =>
            typeof i === 'object' &&
            i !== null &&
            ['namespace', 'injected_id'].every((k) => (i as Record<string, unknown>)[k] === undefined || isText((i as Record<string, unknown>)[k])),
        ))) &&
    (w.supports_wc === undefined || typeof w.supports_wc === 'boolean')
  )
}

/** createRecentWallets keeps recent wallets in storage (default: localStorage, or memory where it is missing). */
export function createRecentWallets(storage: KeyValueStorage = browserStorage()): RecentWallets {
  const get = (): RegistryWallet[] => {
    try {
      const raw = storage.getItem(RECENT_WALLETS_KEY)
      if (raw === null) return []
      const parsed: unknown = JSON.parse(raw)
      // Anything we cannot read (older format, hand edits) is treated as no history.
      return Array.isArray(parsed) && parsed.every(isRegistryWallet) ? parsed.slice(0, RECENT_WALLETS_LIMIT) : []
    } catch {
      return []
    }
  }
  return {
    get,
    add(wallet) {
      const next = [wallet, ...get().filter((w) => w.id !== wallet.id)].slice(0, RECENT_WALLETS_LIMIT)
      try {
        storage.setItem(RECENT_WALLETS_KEY, JSON.stringify(next))
      } catch {
        // Quota or private mode: the list still applies for this page.
      }
      return next
    },
    clear() {
      try {
        storage.removeItem(RECENT_WALLETS_KEY)
      } catch {
        // nothing stored, nothing to clear
      }
    },
  }
}
