// @latchkit/react: the React shell over a Latch instance. Styles: import '@latchkit/react/styles.css'.
// The built entry starts with 'use client' (vite.config.ts), so Next.js App Router treats it as client code.
import './styles.css'

export { LatchProvider, type LatchProviderProps } from './components/LatchProvider/LatchProvider'
// Core's createLatch (WalletConnect included unless `walletConnect: false`) and walletConnect() for an app's own
// wagmi config, re-exported so apps import everything from one package.
export {
  createLatch,
  defineSolanaNetwork,
  latchSiwx,
  solanaDevnet,
  solanaMainnet,
  solanaTestnet,
  walletConnect,
  WALLET_CONNECT_CONNECTOR_ID,
  type SolanaNetwork,
  type SolanaSendOptions,
  type WalletConnectConnectorProperties,
  type WalletConnectEip1193Provider,
} from '@latchkit/core'
export { LatchModal } from './components/LatchModal/LatchModal'

export { ConnectButton, type ConnectButtonProps } from './components/ConnectButton/ConnectButton'
export {
  ConnectButtonRenderer,
  type ConnectButtonAccount,
  type ConnectButtonRenderProps,
  type ConnectButtonRendererProps,
} from './components/ConnectButton/ConnectButtonRenderer'
export { AccountButton, type AccountButtonProps } from './components/AccountButton/AccountButton'
export {
  AccountButtonRenderer,
  type AccountButtonRenderProps,
  type AccountButtonRendererProps,
} from './components/AccountButton/AccountButtonRenderer'
export { NetworkButton, type NetworkButtonProps } from './components/NetworkButton/NetworkButton'
export {
  NetworkButtonRenderer,
  type NetworkButtonRenderProps,
  type NetworkButtonRendererProps,
} from './components/NetworkButton/NetworkButtonRenderer'
export { Avatar, type AvatarProps } from './components/Avatar/Avatar'
export { WalletButton, type WalletButtonProps } from './components/WalletButton/WalletButton'

export { useLatch, type UseLatchReturnType } from './hooks/useLatch'
export { useLatchState, type UseLatchStateReturnType } from './hooks/useLatchState'
export { useLatchAccount, type UseLatchAccountParameters, type UseLatchAccountReturnType } from './hooks/useLatchAccount'
export { useLatchNetwork, type UseLatchNetworkReturnType } from './hooks/useLatchNetwork'
export { useLatchTheme, type UseLatchThemeReturnType } from './hooks/useLatchTheme'
export { useLatchLocale, type UseLatchLocaleReturnType } from './hooks/useLatchLocale'
export { useLatchFormats } from './hooks/useT'
export { useLatchEvents, type UseLatchEventsReturnType } from './hooks/useLatchEvents'
export { useDisconnect, type UseDisconnectReturnType } from './hooks/useDisconnect'
export { useWalletInfo, type UseWalletInfoReturnType } from './hooks/useWalletInfo'
export { useLatchProvider, type UseLatchProviderReturnType } from './hooks/useLatchProvider'
export { useLatchBalances, type UseLatchBalancesReturnType } from './hooks/useLatchBalances'
export { useLatchActivity, type UseLatchActivityReturnType } from './hooks/useLatchActivity'
export { useLatchSend, type UseLatchSendReturnType } from './hooks/useLatchSend'
export { useLatchSession, type UseLatchSessionReturnType } from './hooks/useLatchSession'
// Connecting without the modal (an app's own connect UI) and one named wallet (a wallet button).
export { useLatchWallets, type UseLatchWalletsReturnType } from './hooks/useLatchWallets'
export { useLatchWallet, type UseLatchWalletParameters, type UseLatchWalletReturnType } from './hooks/useLatchWallet'
export { LatchUnknownWalletError } from '@latchkit/core'
export {
  useLatchConnections,
  type LatchConnection,
  type UseLatchConnectionsReturnType,
} from './hooks/useLatchConnections'
export { useLatchConnection, type UseLatchConnectionReturnType } from './hooks/useLatchConnection'
export { usePay, type UsePayReturnType } from './views/onramp/usePay'
export { getPayResult, type PayRequest, type PayResult } from '@latchkit/core'
// Core's setNameResolver under the name apps already use.
export { setNameResolver as setLatchNameResolver } from '@latchkit/core'

export { truncateAddress } from './utils'
export type { MessageKey } from './messages'
export type {
  Latch,
  LatchOptions,
  LatchState,
  LatchView,
  LatchWallet,
  LatchWalletConnectState,
  LatchSessionStatus,
  LatchSiwxOptions,
  LatchSIWXConfig,
  OpenOptions,
  SIWXConfig,
  SIWXMessage,
  SIWXSession,
  ThemeMode,
  WalletConnectOptions,
  WalletConnectParameters,
} from '@latchkit/core'
