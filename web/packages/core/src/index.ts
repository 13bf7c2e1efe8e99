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
