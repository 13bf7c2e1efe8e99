// @latchkit/core: the framework-free half of the Latch widget. This entry is
// what an app or @latchkit/react uses: createLatch and its options, the
// actions (each taking the Latch instance), query options, namespace
// helpers, the WalletConnect connector and the public types. Internals
// (controllers, latchd client, telemetry, limits) are not exported; tests
// import them by path.

// The instance.
export { createLatch, LATCH_VERSION } from './latch'
export type { LatchExtensions } from './walletconnect/connectors'
export type * from './latch-types'
export type { LatchInternal, LatchRuntime, LatchSlice } from './instance'

// Options.
export { DEFAULT_API_URL, LatchOptionsError } from './options'
// Server rendering: wagmi's state in a cookie (Next.js App Router).
export { createSsrWagmiConfig, LATCH_WAGMI_COOKIE } from './ssr'
export type {
  AllWalletsMode,
  AppMetadata,
  ConnectMethod,
  ConnectorTypeOrder,
  CustomWallet,
  Features,
  LatchOptions,
  SocialProvider,
  TokenOption,
  WalletFeature,
} from './options'
export type { LatchSessionStatus, SIWXConfig, SIWXMessage, SIWXMessageData, SIWXSession, SiwxState } from './siwx'
// Sign-in with X backed by latchd (the factory only; its client and the flow are lazy chunks).
export { latchSiwx, type LatchSIWXConfig, type LatchSiwxContext, type LatchSiwxOptions } from './siwx/latchSiwx'
export { loadSiwxModule, type SiwxModule } from './siwx/load'
export type { ThemeMode, ThemeVariables } from './theme'

// Actions: each takes the Latch instance (as wagmi's take its Config).
export { connectWallet } from './connection/actions/connectWallet'
export { disconnect } from './connection/actions/disconnect'
export { fetchWallets } from './connection/actions/fetchWallets'
export { getProvider } from './connection/actions/getProvider'
// Connecting without the modal: an app's own connect UI (headless) and wallet buttons.
export { connectHeadless, resetWalletConnect } from './connection/actions/connectHeadless'
export { connectWalletById, LatchUnknownWalletError } from './connection/actions/connectWalletById'
export { findWallet } from './connection/actions/findWallet'
export { loadConnectWallets } from './connection/actions/loadConnectWallets'
// Multi-wallet: several wallets connected per namespace, one active.
export { activeNamespace, connectionsOf } from './connection/actions/connections'
export { switchConnection } from './connection/actions/switchConnection'
export { disconnectConnection } from './connection/actions/disconnectConnection'
export { allAccounts, listConnections, watchConnectionList } from './connection/connections'
export { switchNetwork } from './network/actions/switchNetwork'
export { goBackTo } from './modal/actions/goBackTo'
export { init } from './lifecycle/init'
export { destroy } from './lifecycle/destroy'
export { getQueryClient } from './account/actions/getQueryClient'
export { watchAccountRefresh } from './account/actions/watchAccountRefresh'
export { loadAccountModels } from './account/actions/loadAccountModels'
export { getAccountModels } from './account/actions/getAccountModels'
export { getSendController } from './send/actions/getSendController'
export { loadSendController } from './send/actions/loadSendController'
export { setNameResolver } from './send/actions/setNameResolver'
export { getSendState } from './send/actions/getSendState'
export { watchSendState } from './send/actions/watchSendState'
export { sendActions, type SendActions } from './send/actions/sendActions'

// Query options and keys of the account data (TanStack Query).
export { balancesQueryOptions, historyPageQueryOptions, type AccountQueryOptions, type AccountQueryParameters } from './account/queries'
export { createHistoryPages, type HistoryPages, type HistorySnapshot } from './account/history'
export { ACCOUNT_CACHE_MS, accountQueryKeys, type AccountData, type AccountDataState, type SentTransaction } from './account/data'
export { loadAccountModule, type AccountModule } from './account/load'
export type { ActivityGroup, ActivityItem, ActivityLocale } from './account/activity'
export type { FungiblePrice, Identity, TokenBalance, Transaction, TransactionPage, TransactionStatus, TransactionTransfer } from './account/types'

// Chain namespaces: views ask these instead of writing a namespace.
export { accountNamespace, adapterFor, NAMESPACE_ADAPTERS, networkCaipId, networksForAccount } from './adapters/registry'
export type { AdapterTransaction, LatchNetwork, NamespaceAdapter, NamespaceClient, NamespaceClientContext } from './adapters/types'
export { solanaAdapter } from './adapters/solana/adapter'
export {
  defineSolanaNetwork,
  isSolanaNetwork,
  solanaDevnet,
  solanaMainnet,
  solanaNetworkId,
  solanaTestnet,
  type SolanaNetwork,
  type SolanaNetworkParameters,
} from './adapters/solana/network'

// Errors a call may reject with.
export { LatchConnectError, LatchDisconnectError, LatchSwitchNetworkError } from './connection/errors'
export type { ConnectErrorKind, SwitchNetworkErrorKind } from './connection/errors'
export type { ConnectedWalletInfo, WalletConnection } from './connection/types'

// Account names (a lazy chunk; loadNamesModule brings its client and actions).
export { loadNamesModule, type NamesModule } from './names/load'
export type { NameRecord, NameSuggestion } from './names/client'
export type { NamesState, RegisterStep } from './names/state'

// Swaps (a lazy chunk; loadSwapModule brings latchd's convert client and the swap flow).
export { loadSwapModule, type SwapModule } from './swap/load'
export type { SwapQuote, SwapToken } from './swap/client'

// latch.pay and the on-ramp (one lazy chunk; loadPayModule brings it, the on-ramp as its `onramp`).
export type { CheckoutStatus, OnrampCheckout, OnrampState } from './onramp/state'
export type { OnrampOptions, OnrampOrder, OnrampQuote, PaymentCurrency, PurchaseCurrency } from './onramp/client'
export { loadPayModule, type PayModule } from './pay/load'
export { getPayResult } from './pay/result'
export type { PayRequest, PayResult, PayState, PayStatus } from './pay/types'

// The send form (its code is a lazy chunk; loadSendController brings it).
export { initialSendState } from './send/load'
export type { LatchSendError, SendErrorKind } from './send/errors'
export type { NameResolver } from './send/resolver'
export type { FeeOverrides, SolanaCommitment, SolanaSendOptions } from './send/validation'
export type { FeeEstimate, SendContext, SendController, SendNotice, SendRequest, SendResult, SendState } from './send/types'

// The embedded (e-mail) wallet: its actions (a lazy chunk) and state for the e-mail views, its connector and provider types.
export { loadEmbeddedActions, type EmbeddedActions } from './embedded/actions/loadEmbeddedActions'
export { getEmbeddedState } from './embedded/actions/getEmbeddedState'
export { watchEmbeddedState } from './embedded/actions/watchEmbeddedState'
export { EMBEDDED_CONNECTOR_ID } from './embedded/connector'
export type { EmbeddedEip1193Provider } from './embedded/provider'
export type { EmailUpdateStep, EmbeddedState, EmbeddedStep, SocialLoginState, SocialProviderName } from './embedded/state'
export type { ApprovalRequest, FrameUser } from './embedded/protocol'

// WalletConnect: the connector for an app's own wagmi config, and what the WalletConnect views need.
export {
  walletConnect,
  WALLET_CONNECT_CONNECTOR_ID,
  type WalletConnectConnectorProperties,
} from './walletconnect/connector/connector'
export type { WalletConnectEip1193Provider } from './walletconnect/connector/eip1193'
export { linkTarget, walletConnectLink, walletConnectPlatforms, type WalletConnectPlatform } from './walletconnect/links'
export type {
  WalletConnectLogLevel,
  WalletConnectMetadata,
  WalletConnectOptions,
  WalletConnectParameters,
} from './walletconnect/options'
export { WALLET_CONNECT_ID } from './wallets'

// UI helpers: the message catalogue, device and address formats.
export { lookup, messages, t, type MessageKey, type MessageParams } from './messages'
export {
  SUPPORTED_LOCALES,
  LocaleError,
  loadLocale,
  type LatchLocale,
  type LocaleCatalogue,
  type LocaleState,
} from './i18n/locale'
export type { LocaleFormats } from './i18n/intl'
export { isMobileUserAgent } from './platform'
export { truncateAddress } from './connection/format'
