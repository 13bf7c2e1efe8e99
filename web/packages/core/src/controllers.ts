// Public exports of the controllers half of @latchkit/core (store, router,
// modal, alerts, toasts, messages, options, theme, latchd client, remote
// features, wallet lists, events and telemetry). index.ts re-exports this file.

export { createStore } from './store'
export type { Store, StoreListener, StoreUpdate } from './store'

export { debounce, globalTimers } from './timers'
export type { Debounced, TimerHandle, Timers } from './timers'

export { browserStorage, createMemoryStorage, STORAGE_PREFIX } from './storage'
export type { KeyValueStorage } from './storage'

export { isMobileUserAgent } from './platform'

export {
  canCloseModal,
  cancelSignIn,
  createRouterController,
  INITIAL_VIEW,
  shouldShowUnsupportedChain,
  signInCancelOutcome,
  viewAfterEmbeddedClose,
  viewOnOpen,
  VIEWS,
} from './modal/router'
export type {
  CloseContext,
  OpenViewContext,
  Route,
  RouteData,
  RouterController,
  RouterHooks,
  RouterState,
  SignInCancelHooks,
  SignInCancelOutcome,
  UnsupportedChainContext,
  View,
} from './modal/router'

export { createModalController, MODAL_SHAKE_MS } from './modal/controller'
export type { ModalContext, ModalController, ModalControllerOptions, ModalState, OpenModalOptions } from './modal/controller'

export { ALERTS, createAlertController } from './alerts'
export type { AlertCode, AlertController, AlertControllerOptions, AlertDefinition, AlertState, AlertVariant } from './alerts'

export { createToastController, TOAST_AUTO_CLOSE_MS, TOAST_REPLACE_DELAY_MS } from './toasts'
export type { ToastController, ToastLink, ToastOptions, ToastState, ToastVariant } from './toasts'

export { messages, t } from './messages'
export type { MessageCatalogue, MessageKey, MessageParams } from './messages'

export {
  caipNetworkIdOf,
  CONNECT_METHODS,
  CONNECTOR_TYPES,
  DEFAULT_API_URL,
  DEFAULT_FEATURES,
  DEFAULT_SOCIALS,
  LatchOptionsError,
  REMOTE_MANAGED_FEATURES,
  resolveOptions,
  SOCIAL_PROVIDERS,
  WALLET_FEATURES,
} from './options'
export type {
  AllWalletsMode,
  AppMetadata,
  ConnectMethod,
  ConnectorTypeOrder,
  CustomWallet,
  Features,
  LatchOptions,
  ResolvedFeatures,
  ResolvedOptions,
  SocialProvider,
  WalletFeature,
} from './options'

export type { SIWXConfig, SIWXMessage, SIWXMessageData, SIWXSession } from './siwx'

export {
  assertThemeMode,
  createThemeController,
  DEFAULT_THEME_VARIABLES,
  systemThemeMode,
  THEME_MODES,
  ThemeError,
  themeToCssVars,
} from './theme'
export type { ThemeController, ThemeMode, ThemeState, ThemeVariables } from './theme'

export { ApiResponseError, createApiClient, HttpError, LATCH_SDK_TYPE, walletSchema } from './api'
export type {
  ApiClient,
  ApiClientOptions,
  ErrorReport,
  GetWalletsParams,
  PendingEvent,
  ProjectConfig,
  RegistryWallet,
  RemoteFeatureConfig,
  WalletsPage,
} from './api'

export {
  checkAllowedOrigins,
  DEFAULT_ALLOWED_ANCESTORS,
  DEFAULT_REMOTE_FEATURES,
  fallbackRemoteFeatures,
  fetchAnalyticsEnabled,
  initProjectConfig,
  isOriginAllowed,
  loadRemoteFeatures,
  mapRemoteFeatures,
} from './features'
export type { OriginCheck, ProjectConfigContext, RemoteFeatures } from './features'

export {
  buildWalletList,
  createAllWalletsController,
  createRecentWallets,
  filterWalletsForPlatform,
  hasMobileLink,
  mergeAnnounced,
  RECENT_WALLETS_KEY,
  RECENT_WALLETS_LIMIT,
  RECOMMENDED_WALLETS,
  SEARCH_DEBOUNCE_MS,
  SEARCH_ENTRIES,
  WALLET_CONNECT_ID,
  WALLETS_PER_PAGE,
} from './wallets'
export type {
  AllWalletsController,
  AllWalletsOptions,
  AllWalletsState,
  AnnouncedWallet,
  ExternalWallet,
  ListedWallet,
  RecentWallets,
  WalletListInput,
} from './wallets'

export { createEventBus, EVENT_NAMES } from './events'
export type { EventBus, EventListener, EventProperties, EventsState, JsonValue, LatchEventData, LatchEventName } from './events'

export {
  createTelemetry,
  ERROR_REPORT_LIMIT,
  ERROR_REPORT_WINDOW_MS,
  MANDATORY_EVENTS,
  shouldSendEvent,
  TELEMETRY_FLUSH_INTERVAL_MS,
  TELEMETRY_MAX_BATCH_BYTES,
  TELEMETRY_MAX_BATCH_EVENTS,
  UNSENT_EVENTS,
} from './telemetry'
export type { PageInfo, Telemetry, TelemetryOptions } from './telemetry'
