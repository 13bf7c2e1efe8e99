// @latchkit/core: the framework-free half of the Latch widget.
export * from './controllers'
export {
  createConnectionController,
  isUserRejectedError,
  LatchConnectError,
  LatchDisconnectError,
  LatchSwitchNetworkError,
  latchRpcUrl,
  toCaipAddress,
  toConnectError,
  truncateAddress,
  truncateDecimals,
} from './connection/index'
export type {
  ChainNamespace,
  ConnectedWalletInfo,
  ConnectionController,
  ConnectionControllerParameters,
  ConnectionState,
  ConnectorInfo,
  NamespaceConnection,
  NativeBalance,
  SwitchNetworkErrorKind,
} from './connection/index'
export {
  activeNetworkStorageKey,
  createNetworkController,
  restoreActiveNetwork,
  type NetworkController,
  type NetworkState,
  type NetworkSwitchedEvent,
  type NetworkSwitchedListener,
} from './network/controller'
export type * from './latch-types'
export type { LatchInternal, LatchRuntime, LatchSlice } from './instance'
export * from './account/index'
// The send module loads on demand (its own chunk); only its types are static.
export { initialSendState, loadSendModule, type SendModule } from './send/load'
export type {
  FeeEstimate,
  FeeOverrides,
  LatchSendError,
  NameResolver,
  SendContext,
  SendController,
  SendControllerParameters,
  SendErrorKind,
  SendNamespace,
  SendNotice,
  SendRequest,
  SendResult,
  SendState,
} from './send/index'
export * from './walletconnect/index'
export { createLatch, LATCH_VERSION } from './latch'
export type { LatchExtensions } from './walletconnect/connectors'
// Actions: each takes the Latch instance (as wagmi's take its Config).
export { connectWallet } from './connection/actions/connectWallet'
export { disconnect } from './connection/actions/disconnect'
export { fetchWallets } from './connection/actions/fetchWallets'
export { getProvider } from './connection/actions/getProvider'
export { switchNetwork } from './network/actions/switchNetwork'
export { goBackTo } from './modal/actions/goBackTo'
export { init } from './lifecycle/init'
export { destroy } from './lifecycle/destroy'
export { loadNativeBalance } from './account/actions/loadNativeBalance'
export { getQueryClient } from './account/actions/getQueryClient'
export { INDEXER_SETTLE_MS, watchAccountRefresh } from './account/actions/watchAccountRefresh'
export { loadAccountModels } from './account/actions/loadAccountModels'
export { getAccountModels } from './account/actions/getAccountModels'
export { getSendController } from './send/actions/getSendController'
export { loadSendController } from './send/actions/loadSendController'
export { setNameResolver } from './send/actions/setNameResolver'
// Query options for the account data.
export { balancesQueryOptions, historyPageQueryOptions, type AccountQueryOptions, type AccountQueryParameters } from './account/queries'
// Namespace adapters: views ask these instead of writing a namespace.
export { accountNamespace, adapterFor, networkCaipId, networksForAccount, NAMESPACE_ADAPTERS } from './adapters/registry'
export type { AdapterTransaction, LatchNetwork, NamespaceAdapter, NamespaceClient, NamespaceClientContext } from './adapters/types'
