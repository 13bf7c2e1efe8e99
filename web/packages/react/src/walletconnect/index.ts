// WalletConnect in @latchkit/react: the wagmi connector (SDK lazy-loaded) and
// createLatch with it.
export { createLatch } from './createLatch'
export {
  createWalletConnectConnector,
  pairingResetMessage,
  WALLET_CONNECT_CONNECTOR_ID,
  walletConnect,
  type WalletConnectConnectorProperties,
} from './connector'
export { WalletConnectRpcError, type WalletConnectEip1193Provider } from './eip1193'
export type { LoadUniversalProvider, UniversalProviderInit, UniversalProviderLike, WalletConnectSession } from './types'
