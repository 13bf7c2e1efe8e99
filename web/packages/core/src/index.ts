// @latchkit/core: the framework-free half of the Latch widget.
export * from './controllers'
export {
  createConnectionController,
  isUserRejectedError,
  LatchConnectError,
  LatchDisconnectError,
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
} from './connection/index'
export type * from './latch-types'
export { createLatch, LATCH_VERSION } from './latch'
