// @latchkit/appkit-compat: AppKit's React API (@reown/appkit/react names and shapes) over Latch, so an app
// moves from AppKit by changing its imports. What maps and what is refused: docs/appkit-compat.md.
// Latch's styles come with it (AppKit apps import no stylesheet).
import '@latchkit/react/styles.css'

export {
  createAppKit,
  type AppKit,
  type AppKitEvent,
  type AppKitOpenOptions,
  type AppKitState,
  type AppKitView,
  type CaipNetwork,
} from './appkit'
export { AppKitProvider, type AppKitProviderProps } from './provider'
export { AppKitCompatError, mapOptions, mapThemeVariables, type AppKitThemeVariables, type CreateAppKit } from './options'
export {
  useAppKit,
  useAppKitAccount,
  useAppKitBalance,
  useAppKitConnection,
  useAppKitConnections,
  useAppKitEvents,
  useAppKitNetwork,
  useAppKitProvider,
  useAppKitState,
  useAppKitTheme,
  useAppKitWallet,
  useDisconnect,
  useWalletInfo,
  type AccountType,
  type AppKitConnectionChange,
  type Connection,
  type EmbeddedWalletInfo,
  type FetchBalanceResult,
  type UseAppKitAccountReturn,
  type UseAppKitConnectionOptions,
  type UseAppKitConnectionReturn,
  type UseAppKitConnectionsReturn,
  type UseAppKitNetworkReturn,
  type UseAppKitProviderReturn,
  type UseAppKitReturn,
  type UseAppKitThemeReturn,
  type UseAppKitWalletReturn,
  type ParsedCaipAddress,
  type UseDisconnectReturn,
  type UseWalletInfoReturn,
  type WalletProviderType,
} from './hooks'
export {
  AppKitAccountButton,
  AppKitButton,
  AppKitConnectButton,
  AppKitNetworkButton,
  type AppKitAccountButtonProps,
  type AppKitButtonProps,
  type AppKitConnectButtonProps,
  type AppKitNetworkButtonProps,
} from './components'
