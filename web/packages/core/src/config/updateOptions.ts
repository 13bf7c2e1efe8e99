// Runtime updates of the options (AppKit's updateOptions/updateFeatures): the
// update is validated as createLatch validates, against the options in force,
// and only a wholly valid one is applied. The options that build the parts
// (FIXED_OPTIONS) are refused; the others are read live through
// `_internal.opts`, and the few that were copied into a controller at
// creation (theme, locale, the account panels, the Connect view's registry
// wallets) are pushed to it here.
import { loadConnectWallets } from '../connection/actions/loadConnectWallets'
import type { Latch } from '../latch-types'
import type { Features, LatchOptions } from '../options'
import type { OptionsState, OptionsStore } from './store'
import { resolveFeaturesUpdate, resolveOptionsUpdate } from './validate'

/** updateOptions applies a runtime update of the options; it throws LatchOptionsError and then changes nothing. */
export function updateOptions(latch: Latch, store: OptionsStore, update: Partial<LatchOptions>): void {
  apply(latch, store, resolveOptionsUpdate(store.getState().options, update))
}

/** updateFeatures applies a runtime update of `features` (merged over those in force), as updateOptions. */
export function updateFeatures(latch: Latch, store: OptionsStore, update: Partial<Features>): void {
  apply(latch, store, resolveFeaturesUpdate(store.getState().options, update))
}

function apply(latch: Latch, store: OptionsStore, next: OptionsState): void {
  const { theme, locale, slice, pending } = latch._internal
  const prev = store.getState().opts
  const opts = next.opts
  store.setState(next)
  // A mode left unset keeps the one in force (the visitor's, read at init).
  if (opts.themeMode && opts.themeMode !== prev.themeMode) theme.setThemeMode(opts.themeMode)
  // Variables are replaced, not merged: the option says which are set (setThemeVariables merges).
  if (opts.themeVariables !== prev.themeVariables) theme.store.setState({ themeVariables: opts.themeVariables })
  if (opts.locale && opts.locale !== prev.locale) void locale.setLocale(opts.locale).catch((error) => console.warn('[latch] locale failed to load', error))
  // The account panels: an app's change at runtime is its decision now, over what the project config said at start.
  const { send, receive } = opts.features
  if (send !== prev.features.send || receive !== prev.features.receive) slice.setState((s) => ({ features: { ...s.features, send, receive } }))
  // The Connect view's registry rows come from these lists: read again once they have been read.
  const lists = ['featuredWalletIds', 'includeWalletIds', 'excludeWalletIds'] as const
  if (pending.connectWallets && lists.some((name) => opts[name].join() !== prev[name].join())) {
    pending.connectWallets = undefined
    loadConnectWallets(latch).catch((error) => console.warn('[latch] wallets failed to load', error))
  }
}
