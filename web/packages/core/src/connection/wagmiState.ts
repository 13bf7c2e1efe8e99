// Reading and waiting on wagmi's state.
import { type Config, getConnection } from '@wagmi/core'
import { type Address, isAddress } from 'viem'

import { toWalletInfo } from './connectors.js'
import { toCaipAddress } from './format.js'
import { disconnectedNamespace, type NamespaceConnection } from './types.js'

/** The part of zustand's persist API that {@link hydrateWagmi} uses. */
interface PersistApi {
  hasHydrated(): boolean
  rehydrate(): Promise<void> | void
  onFinishHydration(listener: () => void): () => void
}

/** The eip155 namespace state that wagmi's current connection describes. */
export function namespaceFromWagmi(config: Config): NamespaceConnection {
  const connection = getConnection(config)
  if (connection.status === 'disconnected') return disconnectedNamespace
  const { address, chainId, connector } = connection
  return {
    // 'connecting'/'reconnecting' keep the previous connection's data, as wagmi
    // does, so a failed connect falls back to exactly the previous state (spec §4).
    status: connection.status,
    address,
    caipAddress: address && chainId !== undefined ? toCaipAddress(chainId, address) : undefined,
    chainId,
    connectorId: connector?.id,
    wallet: connector ? toWalletInfo(config, connector) : undefined,
  }
}

/** Whether wagmi is in the middle of a connect or reconnect. */
export function isWagmiBusy(config: Config): boolean {
  const { status } = config.state
  return status === 'connecting' || status === 'reconnecting'
}

/**
 * Resolves once wagmi is neither connecting nor reconnecting, or after
 * `timeoutMs`. wagmi's `reconnect` is guarded by a module-wide flag: a second
 * call while one runs (e.g. the app's own WagmiProvider reconnecting on mount)
 * returns at once, so the outcome must be read from the state, not its result.
 */
export function waitForWagmiSettled(config: Config, timeoutMs: number): Promise<void> {
  if (!isWagmiBusy(config)) return Promise.resolve()
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer)
      unsubscribe()
      resolve()
    }
    const timer = setTimeout(finish, timeoutMs)
    const unsubscribe = config.subscribe(
      (state) => state.status,
      () => {
        if (!isWagmiBusy(config)) finish()
      },
    )
  })
}

/**
 * Waits for wagmi's persisted state to be loaded. Reconnecting before that
 * would be undone when the stored state is merged in afterwards. An `ssr: true`
 * config never hydrates by itself (its WagmiProvider normally does it), so we
 * rehydrate it here, as wagmi's own `hydrate().onMount` does.
 */
export async function hydrateWagmi(config: Config): Promise<void> {
  // `persist` only exists when the config has storage. wagmi's declared type
  // for it depends on zustand's middleware augmentation, so we state the
  // three methods we use ourselves.
  const { persist } = config._internal.store as unknown as { persist?: PersistApi }
  if (!persist || persist.hasHydrated()) return
  if (config._internal.ssr) {
    await persist.rehydrate()
    return
  }
  await new Promise<void>((resolve) => {
    const unsubscribe = persist.onFinishHydration(() => {
      unsubscribe()
      resolve()
    })
    if (persist.hasHydrated()) {
      unsubscribe()
      resolve()
    }
  })
}

/**
 * Drops connections wagmi restored from storage while it is disconnected.
 * They hold only a connector's id and name (no methods), and would otherwise
 * linger until the next connect. wagmi's `hydrate()` does the same when it is
 * not reconnecting.
 */
export function dropStaleConnections(config: Config): void {
  if (config.state.status !== 'disconnected' || config.state.connections.size === 0) return
  config.setState((x) => ({ ...x, connections: new Map(), current: null }))
}

/** Splits a stored `eip155:<chainId>:<address>`; undefined when malformed. */
export function parseEip155CaipAddress(caipAddress: string | undefined): { chainId: number; address: Address } | undefined {
  const [namespace, chain, address, ...rest] = (caipAddress ?? '').split(':')
  const chainId = Number(chain)
  if (namespace !== 'eip155' || rest.length > 0 || !Number.isSafeInteger(chainId) || chainId <= 0) return undefined
  if (!address || !isAddress(address, { strict: false })) return undefined
  return { chainId, address }
}
