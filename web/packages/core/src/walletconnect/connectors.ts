// Which WalletConnect connector a new Latch's own wagmi config holds.
import type { CreateConnectorFn } from '@wagmi/core'
import { LatchOptionsError, type LatchOptions, type ResolvedOptions } from '../options'
import { resolveWalletConnectOptions, type WalletConnectConnectorFactory } from './options'

/** What createLatch can be given beside its options: connectors whose SDKs core does not depend on. */
export interface LatchExtensions {
  /** Builds the WalletConnect connector; without it there is no WalletConnect. */
  readonly walletConnect?: WalletConnectConnectorFactory
}

/**
 * walletConnectConnectors validates the `walletConnect` option (throwing
 * LatchOptionsError) and returns the connectors to add: WalletConnect needs a
 * project id (relay authentication, RPC proxy), and an app's own wagmi config
 * brings its own connector.
 */
export function walletConnectConnectors(options: LatchOptions, opts: ResolvedOptions, extensions: LatchExtensions): CreateConnectorFn[] {
  let wc: ReturnType<typeof resolveWalletConnectOptions>
  try {
    wc = resolveWalletConnectOptions(options.walletConnect, opts.apiUrl)
  } catch (error) {
    throw new LatchOptionsError((error as Error).message)
  }
  const projectId = opts.projectId
  if (!extensions.walletConnect || !projectId || !wc || options.wagmiConfig) return []
  return [
    extensions.walletConnect({
      projectId,
      apiUrl: opts.apiUrl,
      relayUrl: wc.relayUrl,
      metadata: opts.metadata,
      namespaces: wc.namespaces,
      logLevel: wc.logLevel,
    }),
  ]
}
