// What one Latch instance holds: its parts (controllers, latchd client,
// telemetry), its one root store (every capability's state is a slice of
// it, wagmi's state aside), and the slots the React layer needs per
// instance (send controller, name resolver, query client). Actions (one per file, in each capability's
// folder) take the Latch and work on `latch._internal`, as wagmi's actions
// take its Config. Nothing here lives at module level: two instances on one
// page share nothing.
import type { QueryClient } from '@tanstack/query-core'
import type { Chain } from 'viem'
import type { AccountData, AccountDataState } from './account/data'
import type { AccountModule } from './account/load'
import type { AlertController, AlertState } from './alerts'
import type { ApiClient, RegistryWallet } from './api'
import type { NamespaceClient } from './adapters/types'
import type { ConnectionController } from './connection/controller'
import type { ConnectionState } from './connection/types'
import type { EmbeddedWallet } from './embedded/controller'
import type { EmbeddedState } from './embedded/state'
import type { EventBus, EventsState } from './events'
import type { LatchAccountState, LatchFeatures, LatchState } from './latch-types'
import type { ModalController, ModalState } from './modal/controller'
import type { RouterController, RouterState } from './modal/router'
import type { NamesState } from './names/state'
import type { OnrampState } from './onramp/state'
import type { PayState } from './pay/types'
import type { OptionsState } from './config/store'
import type { NetworkController, NetworkState } from './network/controller'
import type { SiwxState } from './siwx'
import type { LatchOptions, ResolvedOptions } from './options'
import type { SendActions } from './send/actions/sendActions'
import type { NameResolver } from './send/resolver'
import type { SendController, SendState } from './send/types'
import type { KeyValueStorage } from './storage'
import { createStore, mountSlice, type ReadableStore, type SliceFactory, type Store } from './store'
import type { Telemetry } from './telemetry'
import type { ThemeController, ThemeState } from './theme'
import type { LocaleController, LocaleState } from './i18n/locale'
import type { ToastController, ToastState } from './toasts'
import type { WalletConnectController } from './walletconnect/controller'
import type { WalletConnectFlowState } from './walletconnect/flow'
import type { RecentWallets } from './wallets'

/** The instance's own data that is not a controller's: what the derived LatchState reads besides them. */
export interface LatchSlice {
  /** Registry wallets for the Connect view (featured and a few recommended), once loaded. */
  readonly registry: readonly RegistryWallet[]
  /** The visitor's recent wallets (stored), as last read. */
  readonly recent: readonly RegistryWallet[]
  /** Account panels: local options until latchd's project config answers, then its send/receive/activity. */
  readonly features: LatchFeatures
  /** The last connect attempt's error, for ConnectingExternal. */
  readonly connectError: LatchState['connectError']
  /** Native balance of the connected account on its chain. */
  readonly balance: LatchAccountState['balance'] | undefined
  /** latchd said analytics are on for this project. */
  readonly analyticsEnabled: boolean
}

/**
 * The instance's root store: one slice per capability, each written only by
 * its controller (the connection slice mirrors wagmi's own store). The send
 * slice appears when the send module first loads.
 */
export interface LatchRootState {
  readonly instance: LatchSlice
  readonly connection: ConnectionState
  readonly network: NetworkState
  readonly router: RouterState
  readonly modal: ModalState
  readonly alerts: AlertState
  readonly toasts: ToastState
  readonly theme: ThemeState
  readonly locale: LocaleState
  readonly walletConnect: WalletConnectFlowState
  readonly accountData: AccountDataState
  readonly events: EventsState
  readonly send?: SendState
  /** The embedded (e-mail) wallet's state, when the instance has one. */
  readonly embedded?: EmbeddedState
  /** Account names (profile names, the registration's step), once the names module is used. */
  readonly names?: NamesState
  /** Sign-in (SIWX): where the connected account's sign-in stands, once the sign-in flow started (options.siwx). */
  readonly siwx?: SiwxState
  /** The Buy form, its quote and checkout, once the on-ramp module is used. */
  readonly onramp?: OnrampState
  /** latch.pay's request and where it stands, once latch.pay is used. */
  readonly pay?: PayState
  /** The options in force (createLatch's, then runtime updates: config/updateOptions). */
  readonly options: OptionsState
}

/** createRootStore makes an instance's empty root store; each controller mounts its slice into it (see slot). */
export function createRootStore(): Store<LatchRootState> {
  return createStore({} as LatchRootState)
}

/** slot is the SliceFactory a capability's controller keeps its state with: its key of the root store. */
export function slot<K extends keyof LatchRootState>(root: Store<LatchRootState>, key: K): SliceFactory<NonNullable<LatchRootState[K]>> {
  return (initial) => mountSlice(root, key, initial) as unknown as Store<NonNullable<LatchRootState[K]>>
}

/** Per-instance slots the React layer's actions use; a test Latch without controllers can still have them. */
export interface LatchRuntime {
  /** The send form (a lazy module) and the receiver-name resolver it uses. */
  readonly send: { controller?: SendController; resolver?: NameResolver; actions?: SendActions }
  /** The QueryClient used when the app provides none, and one account-refresh subscription per client. */
  readonly queries: {
    client?: QueryClient
    readonly refreshers: Map<QueryClient, { count: number; stop: () => void }>
  }
  /** Core's account module (formats, Activity model) once loaded. */
  readonly account: { module?: AccountModule }
}

/** Everything one Latch instance holds; actions read and change it. Not for apps: it may change without notice. */
export interface LatchInternal extends LatchRuntime {
  readonly options: LatchOptions
  readonly opts: ResolvedOptions
  readonly networks: readonly [Chain, ...Chain[]]
  readonly isMobile: boolean
  readonly storage: KeyValueStorage
  readonly api: ApiClient
  readonly alerts: AlertController
  readonly toasts: ToastController
  readonly theme: ThemeController
  readonly locale: LocaleController
  readonly events: EventBus
  readonly telemetry: Telemetry
  readonly recent: RecentWallets
  readonly accountData: AccountData
  readonly connection: ConnectionController
  readonly network: NetworkController
  readonly router: RouterController
  readonly modal: ModalController
  readonly walletConnect: WalletConnectController
  /** Each registered namespace adapter bound to this instance, by CAIP-2 namespace; actions reach wallets through these. */
  readonly clients: ReadonlyMap<string, NamespaceClient>
  /** The embedded (e-mail) wallet, when the options allow e-mail login and name a frame URL. */
  readonly embedded: EmbeddedWallet | undefined
  /** The one store of the instance: every capability's state as a slice (see LatchRootState). */
  readonly root: Store<LatchRootState>
  /** The instance's own slice of the root (see LatchSlice). */
  readonly slice: Store<LatchSlice>
  /** The one LatchState the UI renders from: a view derived from the root store. */
  readonly store: ReadableStore<LatchState>
  /** Registry entries AllWallets showed, so a wallet picked there becomes recent too. */
  readonly seenRegistry: Map<string, RegistryWallet>
  /** Work in flight, shared by callers, and the latest balance read (older answers are dropped). */
  readonly pending: { init?: Promise<void>; locale?: Promise<void>; connectWallets?: Promise<void>; balanceSeq: number }
  /** Undone by destroy(). */
  readonly cleanups: Array<() => void>
}

/** createLatchRuntime makes the empty per-instance slots of LatchRuntime. */
export function createLatchRuntime(): LatchRuntime {
  return { send: {}, queries: { refreshers: new Map() }, account: {} }
}

/** createSlice makes an instance's slice with the local options' features and the stored recent wallets. */
export function createSlice(features: LatchFeatures, recent: readonly RegistryWallet[], slice: SliceFactory<LatchSlice> = createStore): Store<LatchSlice> {
  return slice({ registry: [], recent, features, connectError: null, balance: undefined, analyticsEnabled: false })
}
