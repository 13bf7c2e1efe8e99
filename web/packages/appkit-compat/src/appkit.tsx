// createAppKit: a Latch instance behind AppKit's module singleton. As AppKit's web components need no provider,
// neither do the compat hooks and components: createAppKit mounts one React root of its own (a detached
// container) holding a LatchProvider, and each compat component renders Latch's component into its place in
// the app's page through a portal from that root, the way a custom element renders into its host.
import { useSyncExternalStore, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { createRoot, type Root } from 'react-dom/client'
import { createLatch, LatchProvider, type Latch, type ThemeMode } from '@latchkit/react'
import { networkCaipId, type LatchNetwork, type LatchState } from '@latchkit/core'
import type { Config as WagmiConfig } from '@wagmi/core'
import { AppKitCompatError, mapOptions, mapThemeVariables, type AppKitThemeVariables, type CreateAppKit } from './options'

/** AppKit's views that Latch has, by AppKit's name. */
export type AppKitView =
  | 'Account'
  | 'Connect'
  | 'Networks'
  | 'AllWallets'
  | 'WhatIsAWallet'
  | 'WhatIsANetwork'
  | 'ConnectingWalletConnectBasic'
  | 'OnRampProviders'
  | 'Swap'
  | 'WalletSend'
  | 'ProfileWallets'
  | 'ApproveTransaction'

/** AppKit's `open` options. */
export interface AppKitOpenOptions {
  view?: AppKitView
  /** Opens the view for this namespace (eip155, solana); Latch serves the one configured account. */
  namespace?: string
  uri?: string
  arguments?: Record<string, unknown>
}

/** A network as AppKit hands it out: the viem chain plus its CAIP-2 id and namespace. */
export type CaipNetwork = LatchNetwork & { caipNetworkId: string; chainNamespace: string }

/** An element a compat component placed in the page and what the root renders into it. */
interface Slot {
  readonly id: number
  readonly host: HTMLElement
  readonly node: ReactNode
}

type Listener = () => void

/** The object createAppKit returns (AppKit's instance methods that Latch can honour). */
export interface AppKit {
  /** The Latch instance underneath, for Latch's own API. */
  readonly latch: Latch
  open(options?: AppKitOpenOptions): Promise<void>
  close(): Promise<void>
  disconnect(namespace?: string): Promise<void>
  switchNetwork(network: Pick<LatchNetwork, 'id'>): Promise<void>
  getAddress(): string | undefined
  getCaipAddress(): string | undefined
  getChainId(): number | undefined
  getCaipNetwork(): CaipNetwork
  getIsConnectedState(): boolean
  getWalletProvider(): Promise<unknown>
  getWalletInfo(): LatchState['account']['walletInfo']
  getState(): AppKitState
  getThemeMode(): ThemeMode
  getThemeVariables(): AppKitThemeVariables
  setThemeMode(mode: ThemeMode): void
  setThemeVariables(variables: AppKitThemeVariables): void
  getWagmiConfig(): WagmiConfig
  subscribeState(callback: (state: AppKitState) => void): () => void
  subscribeEvents(callback: (event: AppKitEvent) => void): () => void
  /** Resolves once start-up (remote config, reconnect) is done. */
  ready(): Promise<void>
  /** Configures one more EVM network at runtime (Latch's addNetwork); `namespace` must be eip155. */
  addNetwork(namespace: string, network: LatchNetwork): Promise<void>
  /** Stops offering a network (Latch's removeNetwork); the last one cannot be removed. */
  removeNetwork(namespace: string, networkId: number | string): Promise<void>
  /** Changes features at runtime (Latch's updateFeatures): AppKit's names, those Latch lacks refused by name. */
  updateFeatures(features: CreateAppKit['features']): Promise<void>
  /** Changes options at runtime (Latch's updateOptions, which refuses those fixed at creation), mapped as createAppKit's. */
  updateOptions(options: Partial<CreateAppKit>): Promise<void>
}

/** useAppKitState's shape. */
export interface AppKitState {
  open: boolean
  loading: boolean
  selectedNetworkId: string
  activeChain: string
  initialized: boolean
  connectingWallet: { id: string; name: string } | undefined
}

/** An event as AppKit's EventsController holds it. */
export interface AppKitEvent {
  timestamp: number
  data: { type: 'track'; event: string; properties?: Record<string, unknown> }
}

/** Internal side of the singleton: the portal slots and the theme variables as the app wrote them. */
export interface AppKitInternal extends AppKit {
  readonly slots: {
    /** Renders node into host until the returned remove is called; update replaces the node in place. */
    add(host: HTMLElement, node: ReactNode): { update(node: ReactNode): void; remove(): void }
    list(): readonly Slot[]
    subscribe(listener: Listener): () => void
  }
  subscribeTheme(listener: Listener): () => void
}

let instance: AppKitInternal | undefined

/** The AppKit created by createAppKit; throws AppKit's error when there is none yet. */
export function getAppKit(hook = 'this hook'): AppKitInternal {
  if (!instance) throw new AppKitCompatError(`Please call "createAppKit" before using ${hook}`)
  return instance
}

/** The namespace of a network (eip155 for viem chains). */
export function namespaceOf(network: LatchNetwork): string {
  return networkCaipId(network).split(':')[0] ?? 'eip155'
}

function caipNetwork(network: LatchNetwork): CaipNetwork {
  return { ...network, caipNetworkId: networkCaipId(network), chainNamespace: namespaceOf(network) }
}

// Latch's view names are AppKit's for the views it has (AppKit's Swap is Latch's WalletSwap); the rest are refused by name.
const LATCH_VIEWS = new Set(['Account', 'Connect', 'Networks', 'AllWallets', 'WhatIsAWallet', 'WhatIsANetwork', 'ConnectingWalletConnectBasic', 'OnRampProviders', 'Swap', 'WalletSend', 'ProfileWallets'])
const latchView = (view: string) => (view === 'Swap' ? 'WalletSwap' : view)

/** A network id as AppKit passes it (a chain id, or a CAIP-2 id such as `eip155:1`) as Latch's chain id. */
function chainIdOf(networkId: number | string): number {
  const id = typeof networkId === 'number' ? networkId : Number(networkId.split(':').pop())
  if (!Number.isSafeInteger(id)) throw new AppKitCompatError(`removeNetwork: "${String(networkId)}" is not a chain id`)
  return id
}

function appKitState(state: LatchState, initialized: boolean): AppKitState {
  const wallet = state.view === 'ConnectingExternal' ? state.viewData.wallet : undefined
  return {
    open: state.open,
    loading: state.loading,
    selectedNetworkId: networkCaipId(state.activeNetwork),
    activeChain: namespaceOf(state.activeNetwork),
    initialized,
    connectingWallet: wallet ? { id: wallet.id, name: wallet.name } : undefined,
  }
}

/** The root createAppKit mounts: the Latch provider (modal, wagmi, queries) and every compat component's portal. */
function CompatRoot({ appKit }: { appKit: AppKitInternal }) {
  const slots = useSyncExternalStore(appKit.slots.subscribe, appKit.slots.list, appKit.slots.list)
  return (
    <LatchProvider latch={appKit.latch}>
      {slots.map((slot) => createPortal(slot.node, slot.host, String(slot.id)))}
    </LatchProvider>
  )
}

/**
 * createAppKit creates the Latch instance from AppKit's options (see mapOptions) and, in a browser, mounts the
 * modal. As AppKit's, it is a module singleton: a later call returns the first instance.
 */
export function createAppKit(options: CreateAppKit): AppKit {
  if (instance) return instance
  const latchOptions = mapOptions(options)
  const latch = createLatch(latchOptions)
  let themeVariables: AppKitThemeVariables = { ...(options.themeVariables ?? {}) }
  const themeListeners = new Set<Listener>()
  let slotList: readonly Slot[] = []
  let slotIds = 0
  const slotListeners = new Set<Listener>()
  let initialized = false
  let initPromise: Promise<void> | undefined
  const init = () => (initPromise ??= latch.init().then(() => {
    initialized = true
  }))

  const appKit: AppKitInternal = {
    latch,
    async open(opts = {}) {
      if (opts.uri !== undefined) throw new AppKitCompatError('open({ uri }) is not supported by Latch yet')
      if (opts.view !== undefined && !LATCH_VIEWS.has(opts.view)) throw new AppKitCompatError(`open({ view: "${opts.view}" }) is not supported by Latch yet`)
      if (opts.namespace !== undefined && !latch.getState().networks.some((n) => namespaceOf(n) === opts.namespace)) {
        throw new AppKitCompatError(`open({ namespace: "${opts.namespace}" }): no configured network is in that namespace`)
      }
      await latch.open({
        ...(opts.view ? { view: latchView(opts.view) as never } : {}),
        ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
        ...(opts.arguments !== undefined ? { arguments: opts.arguments } : {}),
      })
    },
    async close() {
      latch.close()
    },
    async disconnect(namespace) {
      const { account } = latch.getState()
      if (namespace !== undefined && account.caipAddress?.split(':')[0] !== namespace) return
      await latch.disconnect()
    },
    switchNetwork: (network) => latch.switchNetwork(network.id),
    getAddress: () => latch.getState().account.address,
    getCaipAddress: () => latch.getState().account.caipAddress,
    getChainId: () => latch.getState().account.chainId ?? latch.getState().activeNetwork.id,
    getCaipNetwork: () => caipNetwork(latch.getState().activeNetwork),
    getIsConnectedState: () => latch.getState().account.status === 'connected',
    getWalletProvider: () => latch.getProvider(),
    getWalletInfo: () => latch.getState().account.walletInfo,
    getState: () => appKitState(latch.getState(), initialized),
    getThemeMode: () => latch.getState().themeMode,
    getThemeVariables: () => themeVariables,
    setThemeMode: (mode) => latch.setThemeMode(mode),
    setThemeVariables(variables) {
      // Latch validates and merges; ours is updated only once it accepted them.
      latch.setThemeVariables(mapThemeVariables(variables as Record<string, unknown>) as Record<string, string | number>)
      themeVariables = { ...themeVariables, ...variables }
      for (const listener of themeListeners) listener()
    },
    getWagmiConfig: () => latch.getWagmiConfig(),
    subscribeState(callback) {
      return latch.subscribe((state) => callback(appKitState(state, initialized)))
    },
    subscribeEvents(callback) {
      return latch.subscribeEvents((event) => callback({ timestamp: event.timestamp, data: { type: 'track', ...event.data } }))
    },
    ready: () => init(),
    async addNetwork(namespace, network) {
      if (namespace !== 'eip155') throw new AppKitCompatError(`addNetwork("${namespace}", …): Latch adds EVM networks (eip155) at runtime`)
      await latch.addNetwork(network)
    },
    removeNetwork: async (_namespace, networkId) => latch.removeNetwork(chainIdOf(networkId)),
    updateFeatures: async (features) => latch.updateFeatures(mapOptions({ features } as CreateAppKit).features ?? {}),
    async updateOptions(options) {
      const mapped = mapOptions(options as CreateAppKit)
      await latch.updateOptions(mapped)
      if (mapped.themeVariables !== undefined) {
        themeVariables = { ...(options.themeVariables ?? {}) }
        for (const listener of themeListeners) listener()
      }
    },
    slots: {
      add(host, node) {
        const id = ++slotIds
        const changed = (next: readonly Slot[]) => {
          slotList = next
          for (const listener of slotListeners) listener()
        }
        changed([...slotList, { id, host, node }])
        return {
          update: (next) => changed(slotList.map((s) => (s.id === id ? { id, host, node: next } : s))),
          remove: () => changed(slotList.filter((s) => s.id !== id)),
        }
      },
      list: () => slotList,
      subscribe(listener) {
        slotListeners.add(listener)
        return () => slotListeners.delete(listener)
      },
    },
    subscribeTheme(listener) {
      themeListeners.add(listener)
      return () => themeListeners.delete(listener)
    },
  }
  instance = appKit
  if (typeof document !== 'undefined') {
    init().catch(() => {
      // core reports start-up failures as alerts in its state
    })
    const root: Root = createRoot(document.createElement('div'))
    root.render(<CompatRoot appKit={appKit} />)
  }
  return appKit
}

/** Forgets the singleton (tests). */
export function resetAppKitForTests(): void {
  instance?.latch.destroy()
  instance = undefined
}
