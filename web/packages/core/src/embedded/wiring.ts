// How createLatch adds the embedded wallet: only when the options allow
// e-mail login (a project id, a frame URL, features.email not false) and
// the app did not bring its own wagmi config (then it adds the connector
// itself). The frame is created at init only when an e-mail login was used
// before (spec §4); the approval requests open ApproveTransaction, where the
// frame is shown; the frame follows the widget's theme and locale.
import type { CreateConnectorFn } from '@wagmi/core'
import type { AlertController } from '../alerts'
import { slot, type LatchRootState } from '../instance'
import type { Latch } from '../latch-types'
import type { LatchOptions, ResolvedOptions } from '../options'
import type { KeyValueStorage } from '../storage'
import type { Store } from '../store'
import { walletConnected } from '../connection/actions/walletConnected'
import { embeddedWallet } from './connector'
import { createEmbeddedWallet, EMBEDDED_CONNECTOR_ID, EMBEDDED_CONNECTOR_NAME, type EmbeddedWallet } from './controller'
import { loadLazy } from '../loadLazy'

/** The embedded wallet of a new Latch and the connector its wagmi config gets. */
export interface EmbeddedWiring {
  readonly wallet: EmbeddedWallet | undefined
  readonly connectors: CreateConnectorFn[]
}

/** isEmailLoginEnabled reports whether the options give the Connect view an e-mail wallet. */
export function isEmailLoginEnabled(opts: Pick<ResolvedOptions, 'projectId' | 'frameUrl' | 'features'>): boolean {
  return Boolean(opts.projectId && opts.frameUrl && opts.features.email !== false)
}

/** createEmbeddedWiring makes the embedded wallet when the options allow e-mail login. */
export function createEmbeddedWiring(
  options: LatchOptions,
  opts: ResolvedOptions,
  deps: { root: Store<LatchRootState>; storage: KeyValueStorage; alerts: AlertController; latch: () => Latch },
): EmbeddedWiring {
  if (!isEmailLoginEnabled(opts) || options.wagmiConfig) return { wallet: undefined, connectors: [] }
  const wallet = createEmbeddedWallet({
    frameUrl: opts.frameUrl!,
    projectId: opts.projectId!,
    defaultChainId: opts.defaultNetwork.id,
    accountType: options.defaultAccountTypes?.eip155,
    storage: deps.storage,
    slice: slot(deps.root, 'embedded'),
    enableLogger: opts.debug,
    onTimeout: (reason) => deps.alerts.show(reason === 'iframe_load_failed' ? 'IFRAME_LOAD_FAILED' : 'IFRAME_REQUEST_TIMEOUT'),
    // Reported and closed like any wallet connection.
    onConnected: () => walletConnected(deps.latch(), { id: EMBEDDED_CONNECTOR_ID, name: EMBEDDED_CONNECTOR_NAME }, 'browser'),
    onMethodNotAllowed: () => void loadLazy().then((l) => l.embeddedActions()).then((a) => a.methodNotAllowed(deps.latch())),
    appearance: () => {
      const s = deps.latch().getState()
      return { themeMode: s.themeMode, themeVariables: s.themeVars, locale: s.locale }
    },
    onApproval: () => {
      const { modal, router } = deps.latch()._internal
      if (modal.store.getState().open) router.push('ApproveTransaction')
      else void modal.open({ view: 'ApproveTransaction' })
    },
  })
  return { wallet, connectors: [embeddedWallet(wallet)] }
}

/** watchAppearance sends the widget's theme and locale to the frame whenever they change; it returns the unsubscribe function. */
const watched = new WeakSet<Latch>()
export function watchAppearance(latch: Latch): () => void {
  const wallet = latch._internal.embedded
  if (!wallet || watched.has(latch)) return () => undefined
  watched.add(latch)
  return latch.subscribe((s, prev) => {
    if (s.themeMode !== prev.themeMode || s.themeVars !== prev.themeVars || s.locale !== prev.locale) wallet.appearanceChanged()
  })
}

/** startEmbedded runs at init: the frame starts now when an e-mail login was used before (spec §4). */
export function startEmbedded(latch: Latch): void {
  void latch._internal.embedded?.startIfUsedBefore()
  watchAppearance(latch)
  // Redirect mode's social login (a Telegram mini-app) comes back to the page with result_uri.
  if (latch._internal.embedded && typeof location !== 'undefined' && /[?&]result_uri=/.test(location.search)) {
    void loadLazy()
      .then((l) => l.embeddedActions())
      .then((a) => a.finishSocialRedirect(latch))
  }
}
