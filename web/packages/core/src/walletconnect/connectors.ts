// Which WalletConnect connector a new Latch's own wagmi config holds.
import type { CreateConnectorFn } from '@wagmi/core'
import { LatchOptionsError, type LatchOptions, type ResolvedOptions } from '../options'
import { walletConnect } from './connector/connector'
import { resolveWalletConnectOptions, type WalletConnectConnectorFactory } from './options'

/** What createLatch can be given beside its options (tests give a scripted WalletConnect). */
export interface LatchExtensions {
  /** Builds the WalletConnect connector; default: core's walletConnect (its SDK a lazy chunk). */
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
  if (!projectId || !wc || options.wagmiConfig) return []
  const build = extensions.walletConnect ?? walletConnect
  return [
    build({
      projectId,
      apiUrl: opts.apiUrl,
      relayUrl: wc.relayUrl,
      metadata: opts.metadata,
      namespaces: wc.namespaces,
      logLevel: wc.logLevel,
    }),
  ]
}
