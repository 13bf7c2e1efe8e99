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
} from './network'
export type * from './latch-types'
export { createLatch, LATCH_VERSION } from './latch'
