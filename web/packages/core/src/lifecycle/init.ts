import { loadConnectWallets } from '../connection/actions/loadConnectWallets'
import { fetchAnalyticsEnabled, initProjectConfig } from '../features'
import type { Latch } from '../latch-types'
import { loadSiwxModule } from '../siwx/load'
import { systemThemeMode } from '../theme'

/**
 * init runs start-up work once (later calls share it): the visitor's theme
 * when the app set none, latchd's project config (features, origin check),
 * whether analytics are on, the stored connection's restore (spec §4) and
 * the Connect view's wallets, and the sign-in flow when `options.siwx` is set. Failures are reported as alerts, never thrown.
 */
export function init(latch: Latch): Promise<void> {
  const internal = latch._internal
  const { opts, api, alerts, slice, theme, events, pending } = internal
  pending.init ??= (async () => {
    if (!opts.themeMode) theme.setThemeMode(systemThemeMode())
    // The language: the app's, else the visitor's first that Latch ships. Loaded after mount (hydration matched
    // English) and before the modal first opens (open() waits for it).
    pending.locale = internal.locale
      .start(opts.locale, typeof navigator === 'undefined' ? undefined : navigator.languages)
      .catch((error) => console.warn('[latch] locale failed to load', error))
    events.sendEvent({ type: 'track', event: 'INITIALIZE', properties: { projectId: opts.projectId ?? '' } })
    const config = initProjectConfig({ api, projectId: opts.projectId, localFeatures: opts.localFeatures, alerts }).then((remote) => {
      slice.setState({
        features: { send: remote.send ?? opts.features.send, receive: remote.receive ?? opts.features.receive, activity: remote.activity, email: remote.email, socials: remote.socials, swaps: remote.swaps, onramp: remote.onramp },
      })
    })
    // Sign-in (options.siwx): its flow is a chunk of its own, started before the stored connection returns.
    if (opts.siwx) void loadSiwxModule().then((m) => m.startSiwx(latch))
    const analytics = opts.projectId && opts.features.analytics ? fetchAnalyticsEnabled(api) : Promise.resolve(false)
    await Promise.allSettled([
      ...[...internal.clients.values()].map((client) => client.reconnect()),
      config,
      analytics.then((on) => slice.setState({ analyticsEnabled: on })),
      loadConnectWallets(latch),
    ])
  })()
  return pending.init
}
