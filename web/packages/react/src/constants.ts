// Modal and list constants from the spec; the CSS defaults in styles.css carry the visual ones.

/** AllWallets: registry page size (spec §9). */
export const walletsPageSize = 40
/** AllWallets: results of one search (spec §9). */
export const walletSearchLimit = 100
/** AllWallets: delay between the last keystroke and the search (spec §9). */
export const walletSearchDebounceMs = 300
/** A wallet image not loaded within this time is replaced by a placeholder (spec §9). */
export const imagePreloadLimitMs = 2000
/**
 * The Connect view's prefetch runs when the page is first idle, and at the latest this long after the modal mounts
 * (or after this long where the browser has no requestIdleCallback): loads that wait for nothing else.
 */
export const connectPrefetchIdleMs = 2000
