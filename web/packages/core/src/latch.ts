// createLatch composes one Latch instance: it builds the root store and the
// parts (latchd client, controllers, namespace clients), each controller
// keeping its state in its slice of the root, derives the one LatchState the
// UI renders from, and binds the actions. The logic lives
// in the actions (one per file in each capability's folder, each taking the
// Latch) and in the controllers; nothing here holds state of its own.
import { LATCH_VERSION } from './apiBase'
import type { Chain } from 'viem'
import { createAccountData } from './account/data'
import { loadAccountModule } from './account/load'
import { createNamespaceClients } from './adapters/registry'
import type { LatchNetwork } from './adapters/types'
import { createAlertController } from './alerts'
import { loadRuntimeModule, type RuntimeModule } from './config/load'
import { createLazyApiClient } from './lazyApi'
import { connectWallet } from './connection/actions/connectWallet'
import { disconnect } from './connection/actions/disconnect'
import { fetchWallets } from './connection/actions/fetchWallets'
import { getProvider } from './connection/actions/getProvider'
import { loadConnectWallets } from './connection/actions/loadConnectWallets'
import { walletConnected } from './connection/actions/walletConnected'
import { createConnectionController } from './connection/controller'
import { fromLatchWallet } from './connection/latchWallet'
import { latchRpcUrl } from './connection/wagmiConfig'
import { createEmbeddedWiring, startEmbedded } from './embedded/wiring'
import { createEventBus } from './events'
import { createLatchRuntime, createRootStore, createSlice, slot, type LatchInternal } from './instance'
import type { Latch } from './latch-types'
import { destroy } from './lifecycle/destroy'
import { init } from './lifecycle/init'
import { wire } from './lifecycle/wire'
import { createLocaleController } from './i18n/locale'
import { lookup, t as translate, type MessageKey } from './messages'
import { goBackTo } from './modal/actions/goBackTo'
import { modalContext } from './modal/context'
import { createModalController } from './modal/controller'
import { VIEWS } from './modal/views'
import { createRouterController } from './modal/router'
import { switchNetwork } from './network/actions/switchNetwork'
import { createNetworkController } from './network/controller'
import { loadPayModule } from './pay/load'
import { resolveOptions, type LatchOptions } from './options'
import { isMobileUserAgent } from './platform'
import { createStateDeriver, type StateInputs } from './state'
import { browserStorage } from './storage'
import { derivedStore } from './store'
import { createTelemetry } from './telemetry'
import { createThemeController } from './theme'
import { createToastController } from './toasts'
import { createWalletConnectController } from './walletconnect/controller'
import { walletConnectConnectors, type LatchExtensions } from './walletconnect/connectors'
import { createRecentWallets } from './wallets'

/** The SDK version latchd sees in `sv`. */
export { LATCH_VERSION }

/**
 * createLatch validates options (throwing LatchOptionsError) and returns a
 * Latch. Nothing touches the network or the DOM until init(), which
 * <LatchProvider> calls after mounting, so creating one during SSR is safe.
 */
export function createLatch(options: LatchOptions, extensions: LatchExtensions = {}): Latch {
  const opts = resolveOptions(options)
  const connectors = walletConnectConnectors(options, opts, extensions)
  const storage = browserStorage()
  const isMobile = typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent)
  const sdk = { apiUrl: opts.apiUrl, projectId: opts.projectId ?? '', sdkVersion: `react-${LATCH_VERSION}` }
  const api = createLazyApiClient(sdk)
  const root = createRootStore()
  // The options in force: updateOptions replaces them, and every part reads them through `_internal.opts`.
  const config = slot(root, 'options')({ options, opts })
  const alerts = createAlertController({ get debug() { return config.getState().opts.debug }, slice: slot(root, 'alerts') })
  const toasts = createToastController(undefined, slot(root, 'toasts'))
  const accountData = createAccountData({
    // The client and its response schemas are an on-demand chunk: a page pays for them once someone connects.
    client: async () => (await loadAccountModule()).createAccountClient({ ...sdk, projectId: opts.projectId }),
    showError: () => toasts.showError(latch.t('account.balanceUnavailable')),
    slice: slot(root, 'accountData'),
  })
  const recent = createRecentWallets(storage)
  // Local options until latchd's project config answers (init); then its send/receive/activity win.
  const slice = createSlice({ send: opts.features.send, receive: opts.features.receive, activity: opts.features.history ?? true, email: opts.features.email !== false }, recent.get(), slot(root, 'instance'))
  // Light until mounted when the app sets no mode: the server cannot know the
  // visitor's preference, and a different first client render would not hydrate.
  const theme = createThemeController(opts.themeMode ?? 'light', opts.themeVariables, slot(root, 'theme'))
  const locale = createLocaleController(opts.locale, slot(root, 'locale'))
  const events = createEventBus(undefined, slot(root, 'events'))
  const telemetry = createTelemetry({ api, bus: events, isAnalyticsEnabled: () => slice.getState().analyticsEnabled })
  const embedded = createEmbeddedWiring(options, opts, { root, storage, alerts, latch: () => latch })
  const networks = opts.networks as readonly [Chain, ...Chain[]]
  // Every chain is read through latchd's RPC proxy, so the page talks to no
  // host but the operator's; without a project id, the chain's own RPC URL.
  const { projectId, apiUrl } = opts
  // wagmi drives the EVM chains; a network that carries another namespace's adapter (Solana) is that adapter's.
  const evm = networks.filter((n: LatchNetwork) => !n.adapter) as unknown as typeof networks
  const connection = createConnectionController({
    ...{ networks: evm[0] ? evm : networks, enableReconnect: opts.enableReconnect, storage, slice: slot(root, 'connection') },
    ...(projectId ? { transportUrl: (chain: Chain) => latchRpcUrl({ apiUrl, projectId, chainId: chain.id }) } : {}),
    ...(options.wagmiConfig ? { wagmiConfig: options.wagmiConfig } : {}),
    ...(connectors.length + embedded.connectors.length ? { connectors: [...embedded.connectors, ...connectors] } : {}),
  })
  const network = createNetworkController({ networks, defaultNetwork: opts.defaultNetwork, storage, slice: slot(root, 'network') })
  const clients = createNamespaceClients({ connection, latch: () => latch }, networks)
  const router = createRouterController({ closeModal: () => modal.close(), isConnected: () => modalContext(parts).isConnected, slice: slot(root, 'router') })
  const modal = createModalController({ router, events, context: () => modalContext(parts), prefetch: () => Promise.all([loadConnectWallets(latch), parts.pending.locale]).then(() => undefined), slice: slot(root, 'modal') })
  const walletConnect = createWalletConnectController({
    config: connection.getWagmiConfig(),
    slice: slot(root, 'walletConnect'),
    router,
    modal,
    // Like any wallet, asked for the network the visitor picked before connecting.
    // (A Solana network, whose id is negative, is not an EVM chain to ask for.)
    connect: (connectorId, id = network.store.getState().activeNetwork.id) => connection.connect(connectorId, id > 0 ? { chainId: id } : {}),
    onSuccess: (wallet) => walletConnected(latch, wallet, isMobile ? 'mobile' : 'qrcode'),
    onFailure: (failure) => events.sendEvent({ type: 'track', event: 'CONNECT_ERROR', properties: { message: failure.message } }),
    t: (key) => latch.t(key),
  })
  const parts: StateInputs = {
    ...createLatchRuntime(),
    // Read live: runtime updates change the options (updateOptions) and the networks (addNetwork/removeNetwork).
    get options() {
      return config.getState().options
    },
    get opts() {
      return config.getState().opts
    },
    get networks() {
      return network.store.getState().networks
    },
    ...{ isMobile, storage, api, alerts, toasts, theme, locale, events, telemetry, recent, accountData },
    ...{ root, connection, network, router, modal, walletConnect, clients, slice, embedded: embedded.wallet },
    seenRegistry: new Map(),
    pending: { balanceSeq: 0 },
    cleanups: embedded.wallet ? [embedded.wallet.destroy] : [],
  }
  const derive = createStateDeriver(parts)
  // parts itself (its getters kept), so what the deriver reads is what actions change.
  const internal: LatchInternal = Object.assign(parts, { store: derivedStore(root, derive) })

  // Runtime updates and open()'s namespace/arguments live in an on-demand chunk.
  const runtime = <T>(use: (m: RuntimeModule) => T | PromiseLike<T>): Promise<T> => loadRuntimeModule().then(use)
  const latch: Latch = {
    getState: () => internal.store.getState(),
    subscribe: (listener) => internal.store.subscribe(listener),
    open(o) {
      // A known view alone opens at once. A namespace, arguments or a view Latch does not have go to the runtime
      // chunk, which refuses the last (LatchOpenError), moves to the namespace's network and fills the view in.
      if (o?.namespace === undefined && o?.arguments === undefined && (o?.view === undefined || VIEWS.includes(o.view)))
        return modal.open(o?.view ? { view: o.view } : undefined)
      return runtime((m) => m.openModal(latch, o))
    },
    close: () => void modal.close(),
    push: (view, data) => router.push(view, data?.wallet ? { wallet: fromLatchWallet(data.wallet) } : undefined),
    goBack: () => router.goBack(),
    goBackTo: (view) => goBackTo(latch, view),
    connectWallet: (wallet) => connectWallet(latch, wallet),
    disconnect: () => disconnect(latch),
    switchNetwork: (chainId) => switchNetwork(latch, chainId),
    addNetwork: (chain) => runtime((m) => m.addNetwork(latch, chain)),
    removeNetwork: (chainId) => runtime((m) => m.removeNetwork(latch, chainId)),
    updateOptions: (update) => runtime((m) => m.updateOptions(latch, config, update)),
    updateFeatures: (update) => runtime((m) => m.updateFeatures(latch, config, update)),
    onNetworkSwitched: (listener) => network.onNetworkSwitched(listener),
    assetImageUrl(id) {
      // The app's chainImages (by CAIP-2 id, or chain id / reference) win over latchd's image route.
      const images = config.getState().opts.chainImages
      return images[id] ?? images[id.slice(id.indexOf(':') + 1)] ?? api.assetImageUrl(id)
    },
    fetchWallets: (params) => fetchWallets(latch, params),
    setThemeMode: (mode) => theme.setThemeMode(mode),
    setThemeVariables: (vars) => theme.setThemeVariables(vars),
    subscribeEvents: (listener) => events.subscribeEvents((event, timestamp) => listener({ timestamp, data: event })),
    showToast(message, variant, toastOptions) {
      const link = toastOptions?.link ? { link: toastOptions.link } : {}
      if (variant === 'success') toasts.showSuccess(message, link)
      else if (variant === 'error') toasts.showError(message, link)
      else toasts.showLoading(message, link)
    },
    async copyToClipboard(text) {
      await navigator.clipboard.writeText(text)
      toasts.showSuccess(latch.t('account.addressCopied'))
    },
    t(key, params) {
      const l = locale.store.getState()
      return translate(key as MessageKey, params, l.catalogue, l.locale)
    },
    setLocale: (next) => locale.setLocale(next),
    translate(english, key, params) {
      const l = locale.store.getState()
      return lookup(english, key, params, l.catalogue, l.locale)
    },
    getWagmiConfig: () => connection.getWagmiConfig(),
    accountData,
    getProvider: () => getProvider(latch),
    pairWalletConnect: () => walletConnect.ensurePairing(),
    retryWalletConnect: () => walletConnect.retry(),
    pay: (request) => loadPayModule().then((m) => m.pay(latch, request)),
    init: () => (startEmbedded(latch), init(latch)),
    destroy: () => destroy(latch),
    _internal: internal,
  }
  wire(latch)
  return latch
}
