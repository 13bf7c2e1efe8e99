// createLatch composes the controllers into one Latch instance: the object an
// app creates once and hands to <LatchProvider>. Each controller keeps its own
// store; this file derives the one LatchState the UI renders from and wires
// the flows that span controllers (connect, disconnect, start-up).
import { getAccount } from '@wagmi/core'
import type { Chain } from 'viem'
import { createAccountData } from './account/data'
import { loadAccountModule } from './account/load'
import { createAlertController } from './alerts'
import { createApiClient, type RegistryWallet } from './api'
import {
  createConnectionController,
  latchRpcUrl,
  LatchSwitchNetworkError,
  toSwitchNetworkError,
  type ConnectionState,
  type NamespaceConnection,
} from './connection/index'
import { createEventBus, type LatchEventData } from './events'
import { fetchAnalyticsEnabled, initProjectConfig } from './features'
import type { Latch, LatchAccountState, LatchFeatures, LatchState, LatchWallet, WalletPage } from './latch-types'
import { t as translate, type MessageKey } from './messages'
import { createModalController, type ModalContext } from './modal'
import { createNetworkController } from './network'
import { caipNetworkIdOf, LatchOptionsError, resolveOptions, type LatchOptions } from './options'
import { isMobileUserAgent } from './platform'
import { canCloseModal, createRouterController, shouldShowUnsupportedChain } from './router'
import { browserStorage } from './storage'
import { createStore } from './store'
import { createTelemetry } from './telemetry'
import { createThemeController, systemThemeMode } from './theme'
import { createToastController } from './toasts'
import { createWalletConnectController } from './walletconnect/controller.js'
import { resolveWalletConnectOptions, type WalletConnectConnectorFactory } from './walletconnect/options.js'
import {
  buildWalletList,
  createRecentWallets,
  filterWalletsForPlatform,
  RECOMMENDED_WALLETS,
  SEARCH_ENTRIES,
  WALLETS_PER_PAGE,
  type ListedWallet,
} from './wallets'

/** The SDK version latchd sees in `sv`. */
export const LATCH_VERSION = '0.1.0'

/** What @latchkit/react adds to a Latch: connectors whose SDKs core does not depend on. */
export interface LatchExtensions {
  /** Builds the WalletConnect connector (@latchkit/react's walletConnect); without it there is no WalletConnect. */
  readonly walletConnect?: WalletConnectConnectorFactory
}

/**
 * createLatch validates options (throwing LatchOptionsError) and returns a
 * Latch. Nothing touches the network or the DOM until init(), which
 * <LatchProvider> calls after mounting, so creating one during SSR is safe.
 * @latchkit/react's createLatch passes `extensions` (WalletConnect).
 */
export function createLatch(options: LatchOptions, extensions: LatchExtensions = {}): Latch {
  const opts = resolveOptions(options)
  let wcOptions: ReturnType<typeof resolveWalletConnectOptions>
  try {
    wcOptions = resolveWalletConnectOptions(options.walletConnect, opts.apiUrl)
  } catch (error) {
    throw new LatchOptionsError((error as Error).message)
  }
  const storage = browserStorage()
  const isMobile = typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent)
  const api = createApiClient({ apiUrl: opts.apiUrl, projectId: opts.projectId ?? '', sdkVersion: `react-${LATCH_VERSION}` })
  const alerts = createAlertController({ debug: opts.debug })
  const toasts = createToastController()
  const accountData = createAccountData({
    // The client and its response schemas are an on-demand chunk: a page pays for them once someone connects.
    client: async () =>
      (await loadAccountModule()).createAccountClient({ apiUrl: opts.apiUrl, projectId: opts.projectId, sdkVersion: `react-${LATCH_VERSION}` }),
    showError: (message) => toasts.showError(message),
  })
  // Local options until latchd's project config answers (init); then its send/receive/activity win.
  let features: LatchFeatures = { send: opts.features.send, receive: opts.features.receive, activity: opts.features.history ?? true }
  // Light until mounted when the app sets no mode: the server cannot know the
  // visitor's preference, and a different first client render would not hydrate.
  const theme = createThemeController(opts.themeMode ?? 'light', opts.themeVariables)
  const events = createEventBus()
  const recent = createRecentWallets(storage)
  let analyticsEnabled = false
  const telemetry = createTelemetry({ api, bus: events, isAnalyticsEnabled: () => analyticsEnabled })
  const networks = opts.networks as readonly [Chain, ...Chain[]]
  // Every chain is read through latchd's RPC proxy, so the page talks to no
  // host but the operator's; without a project id, the chain's own RPC URL.
  const projectId = opts.projectId
  const transportUrl = projectId
    ? (chain: Chain) => latchRpcUrl({ apiUrl: opts.apiUrl, projectId, chainId: chain.id })
    : undefined
  // WalletConnect needs a project id (relay authentication, RPC proxy); an app's
  // own wagmi config brings its own connector (walletConnect() from @latchkit/react).
  const walletConnectConnector =
    extensions.walletConnect && projectId && wcOptions && !options.wagmiConfig
      ? extensions.walletConnect({
          projectId,
          apiUrl: opts.apiUrl,
          relayUrl: wcOptions.relayUrl,
          metadata: opts.metadata,
          namespaces: wcOptions.namespaces,
          logLevel: wcOptions.logLevel,
        })
      : undefined
  const connection = createConnectionController({
    networks,
    enableReconnect: opts.enableReconnect,
    storage,
    ...(transportUrl ? { transportUrl } : {}),
    ...(options.wagmiConfig ? { wagmiConfig: options.wagmiConfig } : {}),
    ...(walletConnectConnector ? { connectors: [walletConnectConnector] } : {}),
  })

  const network = createNetworkController({ networks, defaultNetwork: opts.defaultNetwork, storage })

  const isConnected = (): boolean => eip155(connection.getState()).status === 'connected'
  // Sign-in (SIWX) is wired in a later issue; until then it is never required.
  const modalContext = (): ModalContext => ({
    isConnected: isConnected(),
    hasAdapters: walletConnect.hasAdapters(),
    isMobile,
    enableNetworkSwitch: opts.enableNetworkSwitch,
    enableEmbedded: opts.enableEmbedded,
    siwxRequired: false,
    hasSiwxSession: false,
  })
  const router = createRouterController({ closeModal: () => modal.close(), isConnected })
  const modal = createModalController({
    router,
    events,
    context: () => modalContext(),
    prefetch: () => loadConnectWallets(),
  })
  const walletConnect = createWalletConnectController({
    config: connection.getWagmiConfig(),
    router,
    modal,
    // Like any wallet, asked for the network the visitor picked before connecting.
    connect: (connectorId) => connection.connect(connectorId, { chainId: network.store.getState().activeNetwork.id }),
    onSuccess: (wallet) => onWalletConnected(wallet, isMobile ? 'mobile' : 'qrcode'),
    onFailure: (failure) => send({ type: 'track', event: 'CONNECT_ERROR', properties: { message: failure.message } }),
  })

  // Registry wallets for the Connect view: featured ones and a few recommended.
  let registry: readonly RegistryWallet[] = []
  let connectWallets: Promise<void> | undefined
  const loadConnectWallets = (): Promise<void> =>
    (connectWallets ??= (async () => {
      const chains = networks.map(caipNetworkIdOf)
      const [featured, recommended] = await Promise.all([
        opts.featuredWalletIds.length
          ? api.getWallets({ page: 1, entries: opts.featuredWalletIds.length, include: opts.featuredWalletIds })
          : Promise.resolve({ count: 0, data: [] }),
        api.getWallets({ page: 1, entries: RECOMMENDED_WALLETS, chains, exclude: [...opts.excludeWalletIds, ...opts.featuredWalletIds] }),
      ])
      registry = [...featured.data, ...recommended.data]
      refresh()
    })().catch((error: unknown) => {
      connectWallets = undefined
      throw error
    }))

  const toLatchWallet = (w: ListedWallet): LatchWallet => ({
    id: w.id,
    name: w.name,
    kind: w.kind,
    installed: w.installed,
    ...(w.imageUrl ? { imageUrl: w.imageUrl } : w.imageId ? { imageUrl: api.walletImageUrl(w.imageId) } : {}),
    ...(w.rdns ? { rdns: w.rdns } : {}),
    ...(w.connectorId ? { connectorId: w.connectorId } : {}),
    mobileLink: w.mobileLink ?? null,
    desktopLink: w.desktopLink ?? null,
    webappLink: w.webappLink ?? null,
    homepage: w.registry?.homepage ?? null,
    chromeStore: w.registry?.chrome_store ?? null,
  })

  const walletList = (conn: ConnectionState): LatchWallet[] =>
    buildWalletList({
      announced: conn.connectors
        .filter((c) => c.type === 'ANNOUNCED' && c.rdns)
        .map((c) => ({ id: c.id, name: c.name, icon: c.icon ?? '', rdns: c.rdns ?? '' })),
      registry,
      recent: recent.get(),
      customWallets: opts.customWallets,
      featuredWalletIds: opts.featuredWalletIds,
      includeWalletIds: opts.includeWalletIds,
      excludeWalletIds: opts.excludeWalletIds,
      connectorTypeOrder: opts.features.connectorTypeOrder,
      isMobile,
      showWalletConnect: walletConnect.available(),
    }).map(toLatchWallet)

  // The derived state. Nested objects are rebuilt only when their inputs
  // change, so useSyncExternalStore selectors see stable references.
  let balance: LatchAccountState['balance']
  let account: LatchAccountState = { status: 'disconnected' }
  let wallets: LatchWallet[] = []
  let connectError: LatchState['connectError'] = null
  let lastConn: ConnectionState | undefined
  let lastRegistry: readonly RegistryWallet[] | undefined

  const derive = (): LatchState => {
    const conn = connection.getState()
    const ns = eip155(conn)
    if (conn !== lastConn || registry !== lastRegistry) {
      wallets = walletList(conn)
      account = {
        status: ns.status,
        ...(ns.address ? { address: ns.address } : {}),
        ...(ns.caipAddress ? { caipAddress: ns.caipAddress } : {}),
        ...(ns.chainId ? { chainId: ns.chainId } : {}),
        ...(balance ? { balance } : {}),
        ...(ns.wallet ? { walletInfo: ns.wallet } : {}),
      }
      lastConn = conn
      lastRegistry = registry
    }
    const route = router.store.getState()
    const m = modal.store.getState()
    const alert = alerts.store.getState()
    const toast = toasts.store.getState()
    const th = theme.store.getState()
    const prev = store?.getState()
    const net = network.store.getState()
    return {
      open: m.open,
      loading: m.loading,
      shake: m.shake,
      view: route.view,
      viewData: route.data?.wallet ? { wallet: toLatchWallet(route.data.wallet) } : {},
      canClose: canCloseModal({ ...modalContext(), view: route.view }),
      historyLength: route.stack.length,
      themeMode: th.themeMode,
      themeVars: prev && prev.themeMode === th.themeMode && prevThemeVars === th.themeVariables ? prev.themeVars : theme.cssVars(),
      alert: alert.open && alert.code ? { code: alert.code, variant: alert.variant, message: alert.description || alert.title } : null,
      toast: toast.open ? { message: toast.message, variant: toast.variant, open: true, ...(toast.link ? { link: toast.link } : {}) } : null,
      account,
      activeNetwork: net.activeNetwork,
      networks,
      // Always present: the store merges snapshots, so an absent key would keep a stale id.
      unsupportedChainId: net.unsupportedChainId,
      wallets,
      connectError,
      features,
      walletConnect: walletConnect.available() ? walletConnect.store.getState() : null,
      enableNetworkSwitch: opts.enableNetworkSwitch,
    }
  }
  let prevThemeVars = theme.store.getState().themeVariables
  let store: ReturnType<typeof createStore<LatchState>> | undefined
  store = createStore<LatchState>(derive())
  const refresh = (): void => {
    const next = derive()
    prevThemeVars = theme.store.getState().themeVariables
    store?.setState(next)
  }

  const unsubscribers = [
    router.store.subscribe(refresh),
    walletConnect.store.subscribe(refresh),
    modal.store.subscribe(refresh),
    alerts.store.subscribe(refresh),
    toasts.store.subscribe(refresh),
    theme.store.subscribe(refresh),
    network.store.subscribe((next, prev) => {
      if (next.unsupportedChainId !== prev.unsupportedChainId) onUnsupportedChainChange(next.unsupportedChainId)
      refresh()
    }),
    // The visitor's own transactions move the native balance: read it again.
    accountData.onTransaction(() => void loadBalance(eip155(connection.getState()))),
    connection.subscribe((next, prev) => {
      const a = eip155(next)
      const b = eip155(prev)
      // The active network follows the wallet's chain (chainChanged) while connected.
      network.followWalletChain(a.status === 'connected' ? a.chainId : undefined)
      if (a.address !== b.address || a.chainId !== b.chainId || a.status !== b.status) void loadBalance(a)
      refresh()
    }),
  ]

  // Spec §2: UnsupportedChain opens when the wallet's chain is not configured,
  // switching is on, unsupported chains are not allowed and no basic pairing
  // session exists. Like AppKit it opens once per change of the wallet's
  // chain, so closing it while still unsupported does not bring it back.
  function onUnsupportedChainChange(chainId: number | undefined): void {
    if (chainId === undefined) {
      // Back on a configured chain (e.g. switched from the wallet): the view has nothing left to say.
      if (modal.store.getState().open && router.store.getState().view === 'UnsupportedChain') modal.close()
      return
    }
    if (!unsupportedChainViewRequired(chainId)) return
    if (modal.store.getState().open) router.reset('UnsupportedChain')
    else void modal.open({ view: 'UnsupportedChain' })
  }

  function unsupportedChainViewRequired(chainId: number | undefined): boolean {
    return shouldShowUnsupportedChain({
      activeCaipNetworkId: chainId === undefined ? undefined : `eip155:${chainId}`,
      requestedCaipNetworkIds: networks.map(caipNetworkIdOf),
      enableNetworkSwitch: opts.enableNetworkSwitch,
      allowUnsupportedChain: opts.allowUnsupportedChain,
      hasBasicPairingSession: walletConnect.hasBasicPairingSession(eip155(connection.getState()).connectorId),
    })
  }

  // After a successful switch from the Networks list, return to the view it was
  // opened from, or close when it was the first view (AppKit's
  // navigateAfterNetworkSwitch). UnsupportedChain closes the same way.
  function leaveNetworkViews(): void {
    if (!modal.store.getState().open) return
    const { stack, view } = router.store.getState()
    if (view !== 'Networks' && view !== 'UnsupportedChain') return
    const first = stack.findIndex((r) => r.view === 'Networks' || r.view === 'UnsupportedChain')
    if (first >= 1) router.goBackToIndex(first - 1)
    else modal.close()
  }

  // Spec §4: a failed switch goes back one view (only from the views that start a switch).
  function backAfterFailedSwitch(): void {
    if (!modal.store.getState().open) return
    const { view } = router.store.getState()
    if (view === 'Networks' || view === 'UnsupportedChain') router.goBack()
  }

  /** After a wallet connected: remember it as recent, report it, and close (or show UnsupportedChain). */
  function onWalletConnected(wallet: Pick<ListedWallet, 'id' | 'name'> | undefined, method: 'browser' | 'mobile' | 'qrcode'): void {
    const entry = wallet
      ? (registry.find((r) => r.id === wallet.id) ?? seenRegistry.get(wallet.id) ?? recent.get().find((r) => r.id === wallet.id))
      : undefined
    if (entry) recent.add(entry)
    lastConn = undefined
    send({ type: 'track', event: 'CONNECT_SUCCESS', properties: { method, name: wallet?.name ?? 'WalletConnect' } })
    // A wallet that connects on an unconfigured chain lands on UnsupportedChain instead of closing.
    if (unsupportedChainViewRequired(network.store.getState().unsupportedChainId)) router.reset('UnsupportedChain')
    else modal.close()
  }

  // Registry entries AllWallets showed, so a wallet picked there (connected through WalletConnect) becomes recent too.
  const seenRegistry = new Map<string, RegistryWallet>()

  let balanceSeq = 0
  const loadBalance = async (ns: NamespaceConnection): Promise<void> => {
    const seq = ++balanceSeq
    // An unconfigured chain has no transport to read from; its balance is unknown, not an error.
    if (ns.status !== 'connected' || !ns.address || !ns.chainId || !network.find(ns.chainId)) {
      if (balance) {
        balance = undefined
        lastConn = undefined
        refresh()
      }
      return
    }
    try {
      const b = await connection.getNativeBalance({ address: ns.address as `0x${string}`, chainId: ns.chainId })
      if (seq !== balanceSeq) return
      balance = { formatted: b.formatted, symbol: b.symbol }
    } catch {
      if (seq !== balanceSeq) return
      // Spec §8: a failed read shows "0.00" ETH and the 'Token Balance Unavailable' toast.
      balance = { formatted: '0.00', symbol: 'ETH' }
      toasts.showError(translate('account.balanceUnavailable'))
    }
    lastConn = undefined // rebuild the account object with the new balance
    refresh()
  }

  const send = (event: LatchEventData): void => events.sendEvent(event)

  let initialising: Promise<void> | undefined
  const latch: Latch = {
    getState: () => store!.getState(),
    subscribe: (listener) => store!.subscribe(listener),
    open: (o) => void modal.open(o?.view ? { view: o.view } : undefined),
    close: () => void modal.close(),
    push: (view, data) => router.push(view, data?.wallet ? { wallet: fromLatchWallet(data.wallet) } : undefined),
    goBack: () => router.goBack(),

    async connectWallet(wallet) {
      connectError = null
      if (walletConnect.handles(wallet)) {
        // The generic QR entry, or a wallet no connector on the page drives: a pairing by QR code or deep link.
        send({ type: 'track', event: 'SELECT_WALLET', properties: { name: wallet.name, platform: isMobile ? 'mobile' : 'qrcode' } })
        walletConnect.connectWallet(fromLatchWallet(wallet))
        return
      }
      // Retry from ConnectingExternal replaces the view rather than stacking a second one.
      if (router.store.getState().view === 'ConnectingExternal') router.replace('ConnectingExternal', { wallet: fromLatchWallet(wallet) })
      else router.push('ConnectingExternal', { wallet: fromLatchWallet(wallet) })
      refresh()
      send({ type: 'track', event: 'SELECT_WALLET', properties: { name: wallet.name, platform: 'browser' } })
      if (!wallet.connectorId) {
        // Registry-only wallets need WalletConnect (a later issue) or an install.
        connectError = { kind: 'unknown', message: translate('connecting.notInstalled', { name: wallet.name }) }
        refresh()
        return
      }
      try {
        // The wallet is asked for the network the visitor picked before connecting (as AppKit does).
        await connection.connect(wallet.connectorId, { chainId: network.store.getState().activeNetwork.id })
        onWalletConnected(wallet, 'browser')
      } catch (error) {
        const kind = (error as { kind?: string }).kind === 'user_rejected' ? 'user_rejected' : 'unknown'
        connectError = {
          kind,
          message: kind === 'user_rejected' ? translate('connecting.declined') : error instanceof Error ? error.message : String(error),
        }
        send({ type: 'track', event: 'CONNECT_ERROR', properties: { message: connectError.message } })
        refresh()
      }
    },

    async disconnect() {
      try {
        await connection.disconnect()
        send({ type: 'track', event: 'DISCONNECT_SUCCESS' })
      } catch (error) {
        send({ type: 'track', event: 'DISCONNECT_ERROR', properties: { message: error instanceof Error ? error.message : String(error) } })
      }
      modal.close()
    },

    async switchNetwork(chainId) {
      const target = network.find(chainId)
      if (!target) {
        alerts.show('SWITCH_NETWORK_NOT_FOUND')
        throw new LatchSwitchNetworkError('chain_not_configured', translate('network.notFound'))
      }
      send({ type: 'track', event: 'SWITCH_NETWORK', properties: { network: caipNetworkIdOf(target) } })
      const ns = eip155(connection.getState())
      if (ns.status !== 'connected') {
        network.setActiveNetwork(target)
        leaveNetworkViews()
        return
      }
      if (ns.chainId !== target.id) {
        try {
          // On success the wallet's chainChanged has already moved the active network.
          await connection.switchChain(target)
        } catch (error) {
          const failure = toSwitchNetworkError(error)
          backAfterFailedSwitch()
          toasts.showError(failure.kind === 'user_rejected' ? translate('network.switchDeclined') : failure.message)
          throw failure
        }
      }
      leaveNetworkViews()
    },
    onNetworkSwitched: (listener) => network.onNetworkSwitched(listener),
    assetImageUrl: (caipNetworkId) => api.assetImageUrl(caipNetworkId),

    async fetchWallets({ page, search }): Promise<WalletPage> {
      const query = search?.trim()
      const res = await api.getWallets({
        page: query ? 1 : page,
        entries: query ? SEARCH_ENTRIES : WALLETS_PER_PAGE,
        ...(query ? { search: query } : {}),
        ...(opts.includeWalletIds.length ? { include: opts.includeWalletIds } : {}),
        ...(opts.excludeWalletIds.length ? { exclude: opts.excludeWalletIds } : {}),
        chains: networks.map(caipNetworkIdOf),
      })
      for (const w of res.data) seenRegistry.set(w.id, w)
      const announced = connection.getState().connectors
      const listed = filterWalletsForPlatform(res.data, isMobile).map((w) => {
        const installed = w.rdns ? announced.find((c) => c.rdns === w.rdns) : undefined
        return toLatchWallet({
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
        })
      })
      return { count: res.count, wallets: listed }
    },

    setThemeMode: (mode) => theme.setThemeMode(mode),
    setThemeVariables: (vars) => theme.setThemeVariables(vars),
    subscribeEvents: (listener) => events.subscribeEvents((event, timestamp) => listener({ timestamp, data: event })),
    showToast(message, variant, options) {
      const toastOptions = options?.link ? { link: options.link } : {}
      if (variant === 'success') toasts.showSuccess(message, toastOptions)
      else if (variant === 'error') toasts.showError(message, toastOptions)
      else toasts.showLoading(message, toastOptions)
    },
    async copyToClipboard(text) {
      await navigator.clipboard.writeText(text)
      toasts.showSuccess(translate('account.addressCopied'))
    },
    t: (key, params) => translate(key as MessageKey, params),
    getWagmiConfig: () => connection.getWagmiConfig(),
    accountData,
    async getProvider() {
      const { connector } = getAccount(connection.getWagmiConfig())
      return connector ? connector.getProvider() : undefined
    },
    pairWalletConnect: () => walletConnect.ensurePairing(),
    retryWalletConnect: () => walletConnect.retry(),
    init() {
      initialising ??= (async () => {
        if (!opts.themeMode) theme.setThemeMode(systemThemeMode())
        send({ type: 'track', event: 'INITIALIZE', properties: { projectId: opts.projectId ?? '' } })
        const config = initProjectConfig({ api, projectId: opts.projectId, localFeatures: opts.localFeatures, alerts }).then((remote) => {
          features = {
            send: remote.send ?? opts.features.send,
            receive: remote.receive ?? opts.features.receive,
            activity: remote.activity,
          }
          refresh()
        })
        const analytics = opts.projectId && opts.features.analytics ? fetchAnalyticsEnabled(api) : Promise.resolve(false)
        await Promise.allSettled([
          connection.init(),
          config,
          analytics.then((on) => {
            analyticsEnabled = on
          }),
          loadConnectWallets(),
        ])
      })()
      return initialising
    },
    destroy() {
      for (const u of unsubscribers) u()
      walletConnect.destroy()
      void telemetry.stop()
      connection.destroy()
    },
  }

  const fromLatchWallet = (w: LatchWallet): ListedWallet => ({
    id: w.id,
    name: w.name,
    kind: w.kind,
    installed: w.installed,
    ...(w.imageUrl ? { imageUrl: w.imageUrl } : {}),
    ...(w.rdns ? { rdns: w.rdns } : {}),
    ...(w.connectorId ? { connectorId: w.connectorId } : {}),
    // WalletConnect's views build their deep links from these.
    ...(w.mobileLink ? { mobileLink: w.mobileLink } : {}),
    ...(w.desktopLink ? { desktopLink: w.desktopLink } : {}),
    ...(w.webappLink ? { webappLink: w.webappLink } : {}),
  })

  return latch
}

const disconnected: NamespaceConnection = { status: 'disconnected' } as NamespaceConnection

function eip155(state: ConnectionState): NamespaceConnection {
  return state.namespaces.eip155 ?? disconnected
}

