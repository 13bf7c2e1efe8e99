// The embedded wallet's keys in the page's storage (spec §3 "Stored in the
// browser … for the embedded wallet"). Tokens and keys are never here: they
// stay in the frame's own origin.
import { STORAGE_PREFIX, type KeyValueStorage } from '../storage'

/** Every key the embedded wallet keeps in the page's storage. */
export const EMBEDDED_STORAGE_KEYS = {
  email: `${STORAGE_PREFIX}embedded:email`,
  emailLoginUsed: `${STORAGE_PREFIX}embedded:emailLoginUsed`,
  lastEmailLoginTime: `${STORAGE_PREFIX}embedded:lastEmailLoginTime`,
  lastUsedChainId: `${STORAGE_PREFIX}embedded:lastUsedChainId`,
  socialUsername: `${STORAGE_PREFIX}embedded:socialUsername`,
  /** Comma-joined chain ids. */
  smartAccountEnabledNetworks: `${STORAGE_PREFIX}embedded:smartAccountEnabledNetworks`,
} as const

/** clearEmbeddedStorage removes every embedded-wallet key (sign-out, or a frame that says not connected). */
export function clearEmbeddedStorage(storage: KeyValueStorage): void {
  for (const key of Object.values(EMBEDDED_STORAGE_KEYS)) storage.removeItem(key)
}

/** An account type of the embedded wallet. */
export type EmbeddedAccountType = 'eoa' | 'smartAccount'

/** Spec §3 "preferred account types": one per namespace, JSON, kept across sign-outs (not in the keys above). */
export const PREFERRED_ACCOUNT_TYPES_KEY = `${STORAGE_PREFIX}preferredAccountTypes`

/** storedAccountType reads the stored eip155 preference; undefined when none (or unreadable). */
export function storedAccountType(storage: KeyValueStorage): EmbeddedAccountType | undefined {
  try {
    const v = (JSON.parse(storage.getItem(PREFERRED_ACCOUNT_TYPES_KEY) ?? '{}') as Record<string, unknown>).eip155
    return v === 'eoa' || v === 'smartAccount' ? v : undefined
  } catch {
    return undefined
  }
}
