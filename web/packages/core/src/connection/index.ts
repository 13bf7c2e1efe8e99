// The connection layer of @latchkit/core: wallet connection state for each
// chain namespace, over wagmi for eip155 (spec §3, §4, §8, §9).
export { balanceDisplayDecimals, getNativeBalance, type NativeBalance } from './balance.js'
export {
  type ConnectionController,
  type ConnectionControllerParameters,
  type ConnectOptions,
  createConnectionController,
  defaultAnnouncementTimeoutMs,
  reconnectTimeoutMs,
} from './controller.js'
export {
  type ConnectErrorKind,
  isUserRejectedError,
  LatchConnectError,
  LatchDisconnectError,
  LatchSwitchNetworkError,
  type SwitchNetworkErrorKind,
  toConnectError,
  toSwitchNetworkError,
} from './errors.js'
export { formatBalance, toCaipAddress, truncateAddress, truncateDecimals } from './format.js'
export type { ConnectionListener } from './state.js'
export { storageKeys, wagmiStorageKeyPrefix } from './storage.js'
export type {
  ChainNamespace,
  ConnectedWalletInfo,
  ConnectionState,
  ConnectionStatus,
  ConnectorInfo,
  ConnectorType,
  NamespaceConnection,
  StorageLike,
  SupportedNamespace,
} from './types.js'
export { createDefaultWagmiConfig, type DefaultWagmiConfigParameters, latchRpcUrl } from './wagmiConfig.js'
