// Pairing timing rules of spec §9: "Pairing: expires when under 10 s remain;
// new pairing lasts 4 min; retry after 1 s". A pairing is the `wc:` URI the
// QR code and deep links carry; the wallet must scan it before it lapses.

/** How long a newly created pairing is offered (spec §9: 4 min). */
export const PAIRING_LIFETIME_MS = 4 * 60_000

/** A pairing with less than this left counts as expired and is renewed (spec §9: 10 s). */
export const PAIRING_RENEW_MARGIN_MS = 10_000

/** The least time between two automatic retries after a failed attempt (spec §9: 1 s). */
export const PAIRING_RETRY_INTERVAL_MS = 1_000

/** pairingExpiry is when a pairing created at `now` stops being offered. */
export function pairingExpiry(now: number): number {
  return now + PAIRING_LIFETIME_MS
}

/**
 * isPairingExpired reports whether a pairing expiring at `expiresAt` must be
 * renewed: there is none, or under 10 s remain, so a wallet scanning it now
 * could not finish in time.
 */
export function isPairingExpired(expiresAt: number | undefined, now: number): boolean {
  return expiresAt === undefined || expiresAt - now < PAIRING_RENEW_MARGIN_MS
}

/** renewDelay is how long from `now` until a pairing expiring at `expiresAt` must be renewed (0 when it already must). */
export function renewDelay(expiresAt: number, now: number): number {
  return Math.max(0, expiresAt - PAIRING_RENEW_MARGIN_MS - now)
}

/** isRetryAllowed reports whether at least 1 s has passed since the last attempt started, so a failure may start another. */
export function isRetryAllowed(lastAttemptAt: number, now: number): boolean {
  return now - lastAttemptAt >= PAIRING_RETRY_INTERVAL_MS
}
