// The WalletConnect connector for wagmi 3. Creating it costs nothing: its
// behaviour (session.ts) and the SDK (sdk.ts) are separate chunks that load on
// the first connect, or when wagmi restores a stored WalletConnect connection
// after a reload. The pairing URI
// reaches the views as wagmi's `message` event `{type: 'display_uri'}`.
import { createConnector } from '@wagmi/core'
import { isUserRejectedError } from '../../connection/errors'
import { defaultRelayUrl, evmRpcUrl, type WalletConnectParameters } from '../options'
import type { WalletConnectEip1193Provider } from './eip1193'
import type { WalletConnectSessionConnector } from './session'
import type { LoadUniversalProvider } from './types'
import { loadLazy, once } from '../../loadLazy'

/** The connector's id (and wagmi's `recentConnectorId` for it). */
export const WALLET_CONNECT_CONNECTOR_ID = 'walletConnect'

/** What the connector adds to wagmi's Connector. */
export type WalletConnectConnectorProperties = {
  /**
   * Abandons a connect() in flight — the visitor left the QR view or asked
   * for a new pairing: that connect() rejects at once as user-rejected, and
   * the pairing it offered expires, so a late scan of the old QR code cannot
   * connect.
   */
  cancelPairing(): void
}

/** The message a cancelled connect() rejects with (spec §8 maps "connection reset" to user-rejected). */
export const pairingResetMessage = 'Connection request reset. Please try again.'

/**
 * walletConnect is the wagmi connector for WalletConnect through the relay of
 * a latchd: `walletConnect({ projectId, apiUrl })`. `createLatch` adds it by
 * itself (unless `walletConnect: false`); an app with its own wagmi config
 * adds it to its connectors.
 */
export function walletConnect(parameters: WalletConnectParameters) {
  return createWalletConnectConnector(parameters, loadSdk)
}

// A separate chunk: nothing of the SDK is on the page until this runs.
const loadSdk: LoadUniversalProvider = async (init) => (await loadLazy().then((l) => l.walletConnectSdk())).initUniversalProvider(init)

/** The connector with its SDK loader injected (unit tests pass a fake provider). */
export function createWalletConnectConnector(parameters: WalletConnectParameters, load: LoadUniversalProvider) {
  return createConnector<WalletConnectEip1193Provider, WalletConnectConnectorProperties>((config) => {
    // The behaviour is a chunk of its own, loaded with the first call (connect, or a restore after a reload).
    let loaded: WalletConnectSessionConnector | undefined
    const session = once(() =>
      loadLazy()
        .then((l) => l.walletConnectSession())
        .then(
          ({ createWalletConnectSession }) =>
            (loaded = createWalletConnectSession(config, parameters, load, {
              relayUrl: parameters.relayUrl ?? defaultRelayUrl(parameters.apiUrl),
              rpcUrl: (chainId) => evmRpcUrl(parameters, chainId),
              isUserRejectedError,
              pairingResetMessage,
            })),
        ),
    )
    return {
      id: WALLET_CONNECT_CONNECTOR_ID,
      name: 'WalletConnect',
      type: 'walletConnect',
      async connect(options) {
        return (await session()).connect(options) as never
      },
      cancelPairing: () => loaded?.cancelPairing(),
      disconnect: async () => (await session()).disconnect(),
      getAccounts: async () => (await session()).getAccounts(),
      getChainId: async () => (await session()).getChainId(),
      getProvider: async (options) => (await session()).getProvider(options),
      async isAuthorized() {
        try {
          return await (await session()).isAuthorized()
        } catch {
          return false
        }
      },
      switchChain: async (options) => (await session()).switchChain!(options),
      // The session's events only flow once it has loaded.
      onAccountsChanged: (accounts) => loaded?.onAccountsChanged(accounts),
      onChainChanged: (chain) => loaded?.onChainChanged(chain),
      onDisconnect: (error) => loaded?.onDisconnect(error),
    }
  })
}
