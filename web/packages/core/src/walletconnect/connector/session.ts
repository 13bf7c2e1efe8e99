// What the WalletConnect connector does once used: load the SDK (its own
// chunk), propose and restore sessions, follow the wallet, switch chains.
// This module is itself loaded on demand by the connector (connector.ts), so
// a page that never uses WalletConnect carries only the connector's shell.
import { getAddress, isAddress, numberToHex, SwitchChainError, UserRejectedRequestError, type Address } from 'viem'
import { ChainNotConfiguredError, type CreateConnectorFn } from '@wagmi/core'
import { buildOptionalNamespaces, EIP155_METHODS } from '../proposal'
import type { WalletConnectParameters } from '../options'
import type { WalletConnectConnectorProperties } from './connector'
import {
  createEip1193Provider,
  currentChainId,
  sessionAccounts,
  sessionChainIds,
  WalletConnectRpcError,
  type WalletConnectEip1193Provider,
} from './eip1193'
import { accountOfIssuer, walletConnectSignIn, type WalletConnectSignIn } from './signIn'
import type { LoadUniversalProvider, UniversalProviderLike, WalletConnectSession } from './types'

type ConnectorFn = CreateConnectorFn<WalletConnectEip1193Provider, WalletConnectConnectorProperties>
/** What wagmi hands a connector: its chains, transports and emitter. */
export type ConnectorConfig = Parameters<ConnectorFn>[0]
/** The connector's behaviour: everything but its id, name and type. */
export type WalletConnectSessionConnector = Omit<ReturnType<ConnectorFn>, 'id' | 'name' | 'type'>

/**
 * What the session takes from the page's first chunk rather than importing it:
 * a lazy module importing a module of the first chunk makes the build split
 * that module into a chunk of its own, one more file the page loads.
 */
export interface SessionShared {
  /** The relay's websocket URL. */
  readonly relayUrl: string
  /** latchd's RPC proxy URL of an EVM chain. */
  readonly rpcUrl: (chainId: number) => string | undefined
  readonly isUserRejectedError: (error: unknown) => boolean
  /** The message a cancelled connect() rejects with. */
  readonly pairingResetMessage: string
}

/** createWalletConnectSession builds the connector's behaviour for wagmi's `config`; `load` brings the SDK. */
export function createWalletConnectSession(
  config: ConnectorConfig,
  parameters: WalletConnectParameters,
  load: LoadUniversalProvider,
  shared: SessionShared,
): WalletConnectSessionConnector {
  const { relayUrl, rpcUrl, isUserRejectedError, pairingResetMessage } = shared
  let universal: UniversalProviderLike | undefined
  let facade: WalletConnectEip1193Provider | undefined
  let loading: Promise<UniversalProviderLike> | undefined
  /** Rejects the connect() in flight, if any. */
  let cancelConnect: ((reason: Error) => void) | undefined
  let unlisten: (() => void) | undefined


  /** Reads go through the chain's wagmi transport (latchd's RPC proxy in Latch's own config). */
  const read = (chainId: number, request: { method: string; params?: unknown }) => {
    const chain = config.chains.find((c) => c.id === chainId)
    const transport = config.transports?.[chainId]
    if (!chain || !transport) return undefined
    return transport({ chain, retryCount: 0 }).request(request as never)
  }

  function metadata() {
    if (parameters.metadata) return { ...parameters.metadata, icons: [...parameters.metadata.icons] }
    const page = typeof window === 'undefined' ? undefined : window.location
    return {
      name: (typeof document === 'undefined' ? '' : document.title) || page?.host || 'Latch',
      description: '',
      url: page?.origin ?? '',
      icons: [],
    }
  }

  function getUniversal(): Promise<UniversalProviderLike> {
    loading ??= load({ projectId: parameters.projectId, relayUrl, apiUrl: parameters.apiUrl, metadata: metadata(), logLevel: parameters.logLevel ?? 'silent' }).then(
      (provider) => {
        universal = provider
        facade = createEip1193Provider(provider, read)
        provider.on('display_uri', ((uri: string) => {
          config.emitter.emit('message', { type: 'display_uri', data: uri })
        }) as never)
        return provider
      },
      (error: unknown) => {
        loading = undefined // a later attempt may load it (e.g. the network came back)
        throw error
      },
    )
    return loading
  }

  /**
   * The sign-in flow's hook when one-click sign-in applies (spec §5): the instance signs in (`options.siwx`)
   * and every chain is eip155 (no non-EVM namespace is requested).
   */
  function oneClickSignIn(): WalletConnectSignIn | undefined {
    const nonEvm = Object.values(parameters.namespaces ?? {}).some((chains) => chains && chains.length > 0)
    return nonEvm ? undefined : walletConnectSignIn(config.emitter)
  }

  return {
    async connect({ chainId, isReconnecting, withCapabilities } = {}) {
      const cancelled = new Promise<never>((_, reject) => {
        cancelConnect = reject
      })
      cancelled.catch(() => {}) // only ever raced
      const abortable = <T>(promise: Promise<T>) => Promise.race([promise, cancelled])
      try {
        const provider = await abortable(getUniversal())
        if (provider.session && isExpired(provider.session)) await provider.disconnect().catch(() => {})
        if (!provider.session) {
          if (isReconnecting) throw new Error('No WalletConnect session to restore')
          const first = chainId ?? config.chains[0].id
          const chains = [first, ...config.chains.map((c) => c.id).filter((id) => id !== first)]
          const signIn = oneClickSignIn()
          const pairing = signIn ? authenticate(provider, signIn, chains, abortable) : provider.connect({
            optionalNamespaces: buildOptionalNamespaces({
              evmChainIds: chains,
              rpcUrl,
              nonEvm: parameters.namespaces,
            }),
          })
          // A cancelled pairing settles much later (its proposal expires); that is not an error of ours.
          pairing.catch(() => {})
          await abortable(pairing)
        }
        let current = currentChainId(provider)
        // Start on the chain asked for when the wallet approved it: a local switch, no prompt.
        if (chainId !== undefined && current !== undefined && chainId !== current && sessionChainIds(provider).includes(chainId)) {
          await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: numberToHex(chainId) }] }, `eip155:${current}`)
          current = chainId
        }
        const accounts = sessionAccounts(provider, current)
        if (current === undefined || accounts.length === 0) {
          throw new Error('The wallet approved no EVM account for this session')
        }
        listen(provider, this)
        return {
          accounts: (withCapabilities ? accounts.map((address) => ({ address, capabilities: {} })) : accounts) as never,
          chainId: current,
        }
      } catch (error) {
        if (isUserRejectedError(error)) throw new UserRejectedRequestError(error as Error)
        throw error
      } finally {
        cancelConnect = undefined
      }
    },

    cancelPairing() {
      if (!cancelConnect) return
      cancelConnect(new Error(pairingResetMessage))
      cancelConnect = undefined
      if (!universal) return
      // Both calls take the list of pairings now (before a next attempt adds its own): stop listening on
      // them at once, so a wallet answering the old QR code is never heard, and let them expire.
      void universal.cleanupPendingPairings().catch(() => {})
      void universal.cleanupPendingPairings({ deletePairings: true }).catch(() => {})
    },

    async disconnect() {
      const provider = await getUniversal()
      try {
        if (provider.session) await provider.disconnect()
      } catch (error) {
        // Already gone on the wallet's side: nothing left to delete.
        if (!/no matching key/i.test(error instanceof Error ? error.message : String(error))) throw error
      } finally {
        stopListening()
      }
    },

    async getAccounts() {
      const provider = await getUniversal()
      return sessionAccounts(provider, currentChainId(provider))
    },

    async getChainId() {
      const provider = await getUniversal()
      const id = currentChainId(provider)
      if (id === undefined) throw new WalletConnectRpcError(4900, 'WalletConnect is not connected')
      return id
    },

    async getProvider() {
      await getUniversal()
      return facade!
    },

    async isAuthorized() {
      try {
        const provider = await getUniversal()
        if (!provider.session || isExpired(provider.session)) return false
        return sessionAccounts(provider, currentChainId(provider)).length > 0
      } catch {
        return false
      }
    },

    async switchChain({ addEthereumChainParameter, chainId }) {
      const chain = config.chains.find((c) => c.id === chainId)
      if (!chain) throw new SwitchChainError(new ChainNotConfiguredError())
      const provider = await this.getProvider()
      const hex = numberToHex(chainId)
      try {
        await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hex }] })
      } catch (error) {
        if (isUserRejectedError(error)) throw new UserRejectedRequestError(error as Error)
        // 4902: the wallet does not know the chain; also any chain the session did not approve. Adding it switches too.
        const explorers = addEthereumChainParameter?.blockExplorerUrls ?? Object.values(chain.blockExplorers ?? {}).map((x) => x.url)
        try {
          await provider.request({
            method: 'wallet_addEthereumChain',
            params: [
              {
                chainId: hex,
                chainName: addEthereumChainParameter?.chainName ?? chain.name,
                nativeCurrency: addEthereumChainParameter?.nativeCurrency ?? chain.nativeCurrency,
                rpcUrls: addEthereumChainParameter?.rpcUrls ?? [...chain.rpcUrls.default.http],
                ...(explorers.length ? { blockExplorerUrls: [...new Set(explorers)] } : {}),
              },
            ],
          })
          await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hex }] })
        } catch (addError) {
          if (isUserRejectedError(addError)) throw new UserRejectedRequestError(addError as Error)
          throw new SwitchChainError(addError as Error)
        }
      }
      config.emitter.emit('change', { chainId })
      return chain
    },

    onAccountsChanged(accounts) {
      const list = accounts.filter((a) => isAddress(a)).map((a) => getAddress(a))
      if (list.length === 0) {
        this.onDisconnect()
        return
      }
      config.emitter.emit('change', { accounts: [...new Set(list)] as Address[] })
      facade?.emit('accountsChanged', [...new Set(list)])
    },

    onChainChanged(chain) {
      const chainId = chain.startsWith('0x') ? Number.parseInt(chain, 16) : Number(chain.split(':').pop())
      if (!Number.isSafeInteger(chainId) || chainId <= 0) return
      config.emitter.emit('change', { chainId })
      facade?.emit('chainChanged', numberToHex(chainId))
    },

    onDisconnect() {
      stopListening()
      config.emitter.emit('disconnect')
      facade?.emit('disconnect', new WalletConnectRpcError(4900, 'The wallet ended the session'))
    },
  }

  /** Follows the session: the wallet's account and chain changes, namespace updates, and its disconnect. */
  function listen(provider: UniversalProviderLike, connector: SessionListener) {
    stopListening()
    const onAccounts = (accounts: string[]) => connector.onAccountsChanged(accounts)
    const onChain = (chain: string | number) => connector.onChainChanged(String(chain))
    const onUpdate = () => connector.onAccountsChanged(sessionAccounts(provider, currentChainId(provider)))
    const onDelete = () => connector.onDisconnect()
    provider.on('accountsChanged', onAccounts as never)
    provider.on('chainChanged', onChain as never)
    provider.on('session_update', onUpdate as never)
    provider.on('session_delete', onDelete as never)
    unlisten = () => {
      provider.removeListener('accountsChanged', onAccounts as never)
      provider.removeListener('chainChanged', onChain as never)
      provider.removeListener('session_update', onUpdate as never)
      provider.removeListener('session_delete', onDelete as never)
    }
  }

  function stopListening() {
    unlisten?.()
    unlisten = undefined
  }
}

/** The connector methods a session's events call (wagmi's Connector, bound as `this`). */
interface SessionListener {
  onAccountsChanged(accounts: string[]): void
  onChainChanged(chain: string): void
  onDisconnect(): void
}

/**
 * authenticate connects with a wc_sessionAuthenticate request (one-click sign-in): the wallet signs the sign-in
 * message's fields once as a CACAO and the session comes with it. The CACAO goes to the sign-in flow, which has
 * latchd (or the app's own SIWXConfig) verify and keep it; if that fails the connection stays and the flow asks
 * for a signature as usual. A wallet that cannot sign in this way answers with a plain session.
 */
async function authenticate(
  provider: UniversalProviderLike,
  signIn: WalletConnectSignIn,
  chainIds: readonly number[],
  abortable: <T>(promise: Promise<T>) => Promise<T>,
): Promise<void> {
  const chains = chainIds.map((id) => `eip155:${id}`)
  const request = await abortable(signIn.request(chains[0]!))
  const pending = provider.authenticate({
    chains,
    domain: request.domain,
    uri: request.uri,
    nonce: request.nonce,
    methods: [...EIP155_METHODS],
    ...(request.statement ? { statement: request.statement } : {}),
    ...(request.expirationTime ? { exp: request.expirationTime } : {}),
    ...(request.notBefore ? { nbf: request.notBefore } : {}),
    ...(request.requestId ? { requestId: request.requestId } : {}),
    ...(request.resources ? { resources: [...request.resources] } : {}),
  })
  // A cancelled request settles much later (it expires); that is not an error of ours.
  pending.catch(() => {})
  const { auths = [] } = await abortable(pending)
  const signedIn = auths.flatMap((cacao) => {
    const account = accountOfIssuer(cacao.p.iss)
    return account ? [{ account, message: provider.formatAuthMessage(cacao), signature: cacao.s.s, cacao }] : []
  })
  if (signedIn.length === 0) return
  try {
    await signIn.complete(signedIn)
  } catch (error) {
    console.warn('[latch] the one-click sign-in was not accepted; the wallet will be asked to sign the message', error)
  }
}

function isExpired(session: WalletConnectSession): boolean {
  return session.expiry !== undefined && session.expiry * 1000 <= Date.now()
}
