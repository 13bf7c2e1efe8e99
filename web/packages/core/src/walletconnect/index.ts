// WalletConnect in @latchkit/core: the pure rules (pairing timing, wallet
// links, session namespaces, relay defaults, the disconnect rule) and the
// pairing flow. The connector itself, which loads the WalletConnect SDK, is
// in @latchkit/react.
export {
  createWalletConnectController,
  isWalletConnectView,
  WALLET_CONNECT_VIEWS,
  type WalletConnectController,
  type WalletConnectControllerOptions,
} from './controller.js'
export { namespacesToDisconnect, type NamespaceConnector } from './disconnect.js'
export {
  createWalletConnectFlow,
  type WalletConnectFailure,
  type WalletConnectFlow,
  type WalletConnectFlowHooks,
  type WalletConnectFlowState,
} from './flow.js'
export {
  formatNativeLink,
  formatUniversalLink,
  isHttpUrl,
  linkTarget,
  walletConnectLink,
  walletConnectPlatforms,
  type WalletConnectPlatform,
  type WalletLink,
  type WalletLinks,
} from './links.js'
export {
  buildOptionalNamespaces,
  DEFAULT_EVENTS,
  EIP155_METHODS,
  InvalidCaipNetworkIdError,
  NON_EVM_METHODS,
  NON_EVM_NAMESPACES,
  parseCaipNetworkId,
  validateNonEvmChains,
  type NonEvmChains,
  type NonEvmNamespace,
  type OptionalNamespacesInput,
  type ProposalNamespace,
  type ProposalNamespaces,
} from './namespaces.js'
export {
  defaultRelayUrl,
  evmRpcUrl,
  resolveWalletConnectOptions,
  validateRelayUrl,
  type ResolvedWalletConnectOptions,
  type WalletConnectConnectorFactory,
  type WalletConnectLogLevel,
  WALLET_CONNECT_LOG_LEVELS,
  type WalletConnectMetadata,
  type WalletConnectOptions,
  type WalletConnectParameters,
} from './options.js'
export {
  isPairingExpired,
  isRetryAllowed,
  PAIRING_LIFETIME_MS,
  PAIRING_RENEW_MARGIN_MS,
  PAIRING_RETRY_INTERVAL_MS,
  pairingExpiry,
  renewDelay,
} from './pairing.js'
