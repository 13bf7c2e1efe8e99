// An in-memory Latch for tests: a real store with the contract's behaviour, no network.
import { createLatch, loadLocale, loadPayModule, lookup, networkCaipId, t, type AccountData, type MessageKey } from '@latchkit/core'
import { createFakeAccountData } from './fakeAccountData'
import { createConfig, http } from '@wagmi/core'
import { mainnet, sepolia, base } from 'viem/chains'
import type { Chain } from 'viem'
import type {
  Latch,
  LatchInternal,
  LatchOptions,
  LatchEvent,
  LatchNetworkSwitchedEvent,
  LatchState,
  LatchView,
  LatchViewData,
  LatchWallet,
  WalletPage,
} from '@latchkit/core'
import { MAINNET_ID } from './ids'

export type FakeLatchOptions = {
  state?: Partial<LatchState>
  /** The registry behind fetchWallets. */
  registry?: LatchWallet[]
  /** Outcome of connectWallet: resolve (connects), reject as user_rejected, or a custom function. */
  connect?: 'resolve' | 'reject' | 'pending' | ((wallet: LatchWallet) => Promise<void>)
  /** Make fetchWallets fail. */
  fetchError?: boolean
  /** Outcome of switchNetwork: resolve (switches, leaves the view), reject (goes back, toast), or pending. */
  switchNetwork?: 'resolve' | 'reject' | 'pending'
  /** WalletConnect configured: state.walletConnect starts idle and WalletConnect picks open its views. */
  walletConnect?: boolean
  /** The account data service; default: core's, over a fake latchd with no balances and no history. */
  accountData?: AccountData
  /** More createLatch options for the instance behind `_internal` (what views read from `_internal.opts`). */
  latchOptions?: Partial<LatchOptions>
}

export type FakeLatch = Latch & {
  /** Calls of pairWalletConnect / retryWalletConnect. */
  pairCalls: number
  retryCalls: number
  /** Replaces parts of the state and notifies subscribers, as core would. */
  setState(patch: Partial<LatchState>): void
  emit(event: LatchEvent['data']): void
  options: FakeLatchOptions
  copied: string[]
  initCalls: number
  /** Resolvers of connect attempts left pending (`connect: 'pending'`). */
  pendingConnects: Array<{ resolve: () => void; reject: (error: Error) => void }>
  /** Chain ids passed to switchNetwork, in order. */
  switchCalls: number[]
  /** Resolvers of switches left pending (`switchNetwork: 'pending'`). */
  pendingSwitches: Array<{ resolve: () => void; reject: (error: Error) => void }>
}

export const connectedAddress = '0x1234567890abcdef1234567890abcdef12345678'


export function makeWallet(index: number, patch: Partial<LatchWallet> = {}): LatchWallet {
  return { id: `w${index}`, name: `Wallet ${index}`, kind: 'recommended', installed: false, imageUrl: `https://img.test/w${index}.png`, ...patch }
}

export const defaultWallets: LatchWallet[] = [
  makeWallet(1, { id: 'recent-rabby', name: 'Rabby', kind: 'recent', installed: true }),
  makeWallet(2, { id: 'metamask', name: 'MetaMask', kind: 'injected', installed: true, connectorId: 'io.metamask' }),
  makeWallet(3, { id: 'trust', name: 'Trust Wallet', kind: 'featured' }),
]

export function createFakeLatch(options: FakeLatchOptions = {}): FakeLatch {
  const networks: readonly Chain[] = [mainnet, base, sepolia]
  let state: LatchState = {
    open: false,
    loading: false,
    shake: false,
    view: 'Connect',
    viewData: {},
    canClose: true,
    historyLength: 1,
    themeMode: 'light',
    themeVars: {},
    locale: 'en',
    dir: 'ltr',
    catalogue: undefined,
    formats: undefined,
    alert: null,
    toast: null,
    account: { status: 'disconnected' },
    activeNetwork: mainnet,
    networks,
    wallets: defaultWallets,
    connectError: null,
    features: { send: true, receive: true, activity: true, email: true },
    walletConnect: options.walletConnect ? { uri: undefined, expiresAt: undefined, pending: false, error: null } : null,
    enableNetworkSwitch: true,
    ...options.state,
  }
  let stack: Array<{ view: LatchView; data: LatchViewData }> = [{ view: state.view, data: state.viewData }]
  const listeners = new Set<(state: LatchState, prev: LatchState) => void>()
  const eventListeners = new Set<(event: LatchEvent) => void>()
  const switchedListeners = new Set<(event: LatchNetworkSwitchedEvent) => void>()
  const registry = options.registry ?? Array.from({ length: 95 }, (_, i) => makeWallet(i + 1))
  let wagmiConfig: ReturnType<typeof createConfig> | undefined
  let backing: Latch | undefined

  const setState = (patch: Partial<LatchState>) => {
    const prev = state
    state = { ...state, ...patch }
    listeners.forEach((listener) => listener(state, prev))
  }
  const syncStack = (extra: Partial<LatchState> = {}) => {
    const top = stack[stack.length - 1]!
    setState({ view: top.view, viewData: top.data, historyLength: stack.length, ...extra })
  }
  const emit = (data: LatchEvent['data']) => {
    const event = { timestamp: Date.now(), data }
    eventListeners.forEach((listener) => listener(event))
  }

  const fake: FakeLatch = {
    options,
    copied: [],
    initCalls: 0,
    pendingConnects: [],
    switchCalls: [],
    pendingSwitches: [],
    pairCalls: 0,
    retryCalls: 0,
    setState,
    emit,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    open(openOptions) {
      const view = openOptions?.view ?? (state.account.status === 'connected' ? 'Account' : 'Connect')
      stack = [{ view, data: openOptions?.arguments ? { arguments: openOptions.arguments } : {} }]
      syncStack({ open: true })
      emit({ event: 'MODAL_OPEN' })
      return Promise.resolve()
    },
    close() {
      setState({ open: false })
      emit({ event: 'MODAL_CLOSE' })
    },
    push(view, data = {}) {
      stack = [...stack, { view, data }]
      syncStack()
    },
    goBack() {
      if (stack.length <= 1) return fake.close()
      stack = stack.slice(0, -1)
      syncStack()
    },
    // As core: back to the last `view` on the stack in one step, or `view` alone.
    goBackTo(view) {
      if (!state.open) return
      let index = stack.length - 1
      while (index >= 0 && stack[index]!.view !== view) index--
      stack = index >= 0 ? stack.slice(0, index + 1) : [{ view, data: {} }]
      syncStack()
    },
    async connectWallet(wallet) {
      // As core: the generic WalletConnect entry and connector-less wallets pair by QR code or deep link.
      if (state.walletConnect && (wallet.id === 'walletConnect' || !wallet.connectorId)) {
        stack = [...stack, { view: 'ConnectingWalletConnect', data: { wallet } }]
        syncStack()
        fake.retryWalletConnect()
        return
      }
      // Retrying from ConnectingExternal replaces the view instead of stacking another one.
      const top = stack[stack.length - 1]!
      if (top.view === 'ConnectingExternal') stack = [...stack.slice(0, -1), { view: 'ConnectingExternal', data: { wallet } }]
      else stack = [...stack, { view: 'ConnectingExternal', data: { wallet } }]
      syncStack({ connectError: null, account: { ...state.account, status: 'connecting' } })
      const behaviour = options.connect ?? 'resolve'
      try {
        if (typeof behaviour === 'function') await behaviour(wallet)
        else if (behaviour === 'reject') throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
        else if (behaviour === 'pending')
          await new Promise<void>((resolve, reject) => fake.pendingConnects.push({ resolve, reject }))
      } catch (error) {
        const rejected = (error as { code?: number }).code === 4001
        setState({
          connectError: { kind: rejected ? 'user_rejected' : 'unknown', message: (error as Error).message },
          account: { status: 'disconnected' },
        })
        throw error
      }
      stack = [{ view: 'Account', data: {} }]
      syncStack({
        account: {
          status: 'connected',
          address: connectedAddress,
          caipAddress: `${networkCaipId(state.activeNetwork)}:${connectedAddress}`,
          chainId: state.activeNetwork.id,
          balance: { formatted: '1.234', symbol: 'ETH' },
          walletInfo: { name: wallet.name, ...(wallet.imageUrl ? { icon: wallet.imageUrl } : {}) },
        },
      })
      emit({ event: 'CONNECT_SUCCESS', properties: { name: wallet.name } })
    },
    async disconnect() {
      setState({ account: { status: 'disconnected' }, open: false })
      emit({ event: 'DISCONNECT_SUCCESS' })
    },
    // Runtime updates: the networks on the fake's state; options on the real instance behind _internal.
    async addNetwork(chain) {
      setState({ networks: [...state.networks, chain] })
    },
    async removeNetwork(chainId) {
      const networks = state.networks.filter((n) => n.id !== chainId)
      setState({ networks, ...(state.activeNetwork.id === chainId ? { activeNetwork: networks[0]! } : {}) })
    },
    updateOptions: (update) => fake._internal && backing!.updateOptions(update),
    updateFeatures: (update) => fake._internal && backing!.updateFeatures(update),
    // Mirrors core: unknown chain → alert + reject; failure → back one view + toast; success → the
    // network becomes active and the Networks/UnsupportedChain view is left.
    async switchNetwork(chainId) {
      fake.switchCalls.push(chainId)
      const target = state.networks.find((n) => n.id === chainId)
      if (!target) {
        setState({ alert: { code: 'SWITCH_NETWORK_NOT_FOUND', variant: 'error', message: 'Network Not Found' } })
        throw new Error('Network Not Found')
      }
      const behaviour = options.switchNetwork ?? 'resolve'
      try {
        if (behaviour === 'reject') throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
        if (behaviour === 'pending') await new Promise<void>((resolve, reject) => fake.pendingSwitches.push({ resolve, reject }))
      } catch (error) {
        fake.goBack()
        setState({ toast: { message: 'Switch declined', variant: 'error', open: true } })
        throw error
      }
      const previous = state.activeNetwork
      setState({
        activeNetwork: target,
        unsupportedChainId: undefined,
        ...(state.account.status === 'connected' ? { account: { ...state.account, chainId: target.id } } : {}),
      })
      if (previous.id !== target.id) switchedListeners.forEach((listener) => listener({ network: target, previous }))
      const first = stack.findIndex((r) => r.view === 'Networks' || r.view === 'UnsupportedChain')
      if (first >= 1) {
        stack = stack.slice(0, first)
        syncStack()
      } else if (first === 0) fake.close()
    },
    onNetworkSwitched(listener) {
      switchedListeners.add(listener)
      return () => switchedListeners.delete(listener)
    },
    assetImageUrl: (caipNetworkId) => `https://latchd.test/public/getAssetImage/${encodeURIComponent(caipNetworkId)}`,
    async fetchWallets({ page, search }): Promise<WalletPage> {
      if (options.fetchError) throw new Error('HTTP status code: 500')
      if (search) {
        const found = registry.filter((w) => w.name.toLowerCase().includes(search.toLowerCase())).slice(0, 100)
        return { count: found.length, wallets: found }
      }
      return { count: registry.length, wallets: registry.slice((page - 1) * 40, page * 40) }
    },
    async setLocale(locale) {
      setState(await loadLocale(locale))
    },
    setThemeMode(mode) {
      setState({ themeMode: mode })
    },
    setThemeVariables(vars) {
      const themeVars = { ...state.themeVars }
      for (const [key, value] of Object.entries(vars)) {
        const name = key.startsWith('--latch-') ? key : `--latch-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
        themeVars[name] = String(value)
      }
      setState({ themeVars })
    },
    subscribeEvents(listener) {
      eventListeners.add(listener)
      return () => eventListeners.delete(listener)
    },
    showToast(message, variant, toastOptions) {
      setState({ toast: { message, variant, open: true, ...(toastOptions?.link ? { link: toastOptions.link } : {}) } })
    },
    async copyToClipboard(text) {
      fake.copied.push(text)
    },
    // The real catalogue, so tests see the strings users see.
    t: (key, params) => t(key as MessageKey, params, state.catalogue, state.locale),
    translate: (english, key, params) => lookup(english, key, params, state.catalogue, state.locale),
    getWagmiConfig() {
      wagmiConfig ??= createConfig({
        chains: [mainnet, base, sepolia],
        connectors: [],
        transports: { [mainnet.id]: http(), [base.id]: http(), [sepolia.id]: http() },
      })
      return wagmiConfig
    },
    accountData: options.accountData ?? createFakeAccountData({}, (message) => setState({ toast: { message, variant: 'error', open: true } })),
    async getProvider() {
      return state.account.status === 'connected' ? { request: async () => null, isFake: true } : undefined
    },
    // Mirrors core's rule: a pairing in flight is kept; the test supplies URIs with setState.
    pairWalletConnect() {
      fake.pairCalls++
      if (state.walletConnect && !state.walletConnect.pending) setState({ walletConnect: { ...state.walletConnect, pending: true, error: null } })
    },
    retryWalletConnect() {
      fake.retryCalls++
      if (state.walletConnect) setState({ walletConnect: { uri: undefined, expiresAt: undefined, pending: true, error: null } })
    },
    // latch.pay over this fake: core's pay module, as createLatch binds it.
    pay: (request) => loadPayModule().then((m) => m.pay(fake, request)),
    async init() {
      fake.initCalls++
    },
    destroy() {
      listeners.clear()
      eventListeners.clear()
    },
    // What core's actions reach (the root store, the namespace clients, the per-instance slots) comes from a real
    // instance over this fake's wagmi config, made on first use; the fake's own state stays what the test sets.
    get _internal(): LatchInternal {
      backing ??= createLatch({ networks: [mainnet, base, sepolia], wagmiConfig: fake.getWagmiConfig(), walletConnect: false, ...options.latchOptions })
      return backing._internal
    },
  }
  return fake
}

/** A fake already connected with `connectedAddress` and a 1.234 ETH balance. */
export function createConnectedFakeLatch(options: FakeLatchOptions = {}): FakeLatch {
  return createFakeLatch({
    ...options,
    state: {
      account: {
        status: 'connected',
        address: connectedAddress,
        caipAddress: `${MAINNET_ID}:${connectedAddress}`,
        chainId: 1,
        balance: { formatted: '1.234', symbol: 'ETH' },
        walletInfo: { name: 'MetaMask' },
      },
      ...options.state,
    },
  })
}
