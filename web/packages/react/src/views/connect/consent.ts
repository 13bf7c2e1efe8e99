import { useSyncExternalStore } from 'react'
import type { Latch } from '@latchkit/core'

// The visitor's agreement to the app's terms (features.legalCheckbox), per Latch instance, kept while the page
// lives: ticking it in Connect also holds in All Wallets and the WalletConnect views, and after going back.
const agreed = new WeakSet<Latch>()
const listeners = new Set<() => void>()

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Records the checkbox's state. */
export function setAgreed(latch: Latch, value: boolean): void {
  if (value) agreed.add(latch)
  else agreed.delete(latch)
  for (const listener of listeners) listener()
}

/** Whether the app gives a terms or privacy URL (the legal links show). */
export function hasLegalLinks(latch: Latch): boolean {
  const opts = latch._internal.opts
  return !!(opts.termsConditionsUrl || opts.privacyPolicyUrl)
}

/** Consent: `required` with legalCheckbox and a legal URL; `blocked` while required and not given. */
export function useConsent(latch: Latch): { legal: boolean; required: boolean; agreed: boolean; blocked: boolean } {
  const opts = latch._internal.opts
  const legal = hasLegalLinks(latch)
  const required = legal && opts.features.legalCheckbox
  const given = useSyncExternalStore(subscribe, () => agreed.has(latch), () => false)
  return { legal, required, agreed: given, blocked: required && !given }
}
