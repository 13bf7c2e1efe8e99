// Connectors: what wagmi knows (configured + EIP-6963 announced wallets),
// mapped to Latch's ConnectorInfo, and waiting for late announcements.
import { type Config, type Connector, watchConnectors } from '@wagmi/core'

import type { ConnectedWalletInfo, ConnectorInfo, ConnectorType } from './types.js'

/** An EIP-6963 announcement as wagmi's discovery store (mipd) keeps it. */
type Announcement = NonNullable<Config['_internal']['mipd']>['getProviders'] extends () => readonly (infer d)[]
  ? d
  : never

function announcements(config: Config): readonly Announcement[] {
  return config._internal.mipd?.getProviders() ?? []
}

function rdnsOf(connector: Connector): readonly string[] {
  if (!connector.rdns) return []
  return typeof connector.rdns === 'string' ? [connector.rdns] : connector.rdns
}

/** The announcement behind a connector. wagmi names announced connectors by their rdns. */
function announcementFor(config: Config, connector: Connector): Announcement | undefined {
  const ids = [connector.id, ...rdnsOf(connector)]
  return announcements(config).find((a) => ids.includes(a.info.rdns))
}

function typeOf(connector: Connector, announced: boolean): ConnectorType {
  if (announced) return 'ANNOUNCED'
  if (connector.type === 'injected') return 'INJECTED'
  if (connector.type === 'walletConnect') return 'WALLET_CONNECT'
  if (connector.type === 'AUTH') return 'AUTH'
  return 'EXTERNAL'
}

/** Whether the page has a legacy `window.ethereum` (needed by the target-less injected connector). */
function hasWindowEthereum(): boolean {
  return typeof window !== 'undefined' && (window as { ethereum?: unknown }).ethereum != null
}

/** Maps one wagmi connector to Latch's {@link ConnectorInfo}. */
export function toConnectorInfo(config: Config, connector: Connector): ConnectorInfo {
  const announcement = announcementFor(config, connector)
  return {
    id: connector.id,
    name: announcement?.info.name ?? connector.name,
    icon: announcement?.info.icon ?? connector.icon,
    rdns: announcement?.info.rdns ?? rdnsOf(connector)[0],
    type: typeOf(connector, announcement !== undefined),
    namespace: 'eip155',
  }
}

/** Wallet info of a connection (spec §3 "Connected wallet info"). */
export function toWalletInfo(config: Config, connector: Connector): ConnectedWalletInfo {
  const { name, icon, rdns } = toConnectorInfo(config, connector)
  return { name, icon, rdns }
}

/**
 * The connectors a visitor can pick. The target-less `injected` connector
 * (legacy `window.ethereum`) is listed only when that object exists, since
 * without it the entry could never connect. Duplicate ids keep the first.
 */
export function listConnectors(config: Config): ConnectorInfo[] {
  const seen = new Set<string>()
  const list: ConnectorInfo[] = []
  for (const connector of config.connectors) {
    if (seen.has(connector.id)) continue
    if (connector.id === 'injected' && !hasWindowEthereum()) continue
    seen.add(connector.id)
    list.push(toConnectorInfo(config, connector))
  }
  return list
}

/** Finds a configured connector by id, or by one of its rdns. */
export function findConnector(config: Config, id: string): Connector | undefined {
  return config.connectors.find((c) => c.id === id) ?? config.connectors.find((c) => rdnsOf(c).includes(id))
}

/**
 * Adds a connector for every announced wallet wagmi has not set up yet. wagmi
 * does this itself except for announcements that arrive before its persisted
 * state has hydrated, and for `ssr: true` configs until `hydrate()` runs; this
 * mirrors what wagmi's own `hydrate().onMount` does so no wallet is missed.
 */
export function addAnnouncedConnectors(config: Config): void {
  const known = new Set<string>()
  for (const c of config.connectors) {
    known.add(c.id)
    for (const rdns of rdnsOf(c)) known.add(rdns)
  }
  const missing = announcements(config).filter((a) => !known.has(a.info.rdns))
  if (missing.length === 0) return
  const { connectors } = config._internal
  const added = missing.map((a) => connectors.setup(connectors.providerDetailToConnector(a)))
  connectors.setState((current) => [...current, ...added])
}

/**
 * Resolves with the connector `id` as soon as it is available, or undefined
 * after `timeoutMs`. Browser extensions announce themselves (EIP-6963)
 * asynchronously, so at page load the stored wallet may not be known yet.
 */
export function waitForConnector(config: Config, id: string, timeoutMs: number): Promise<Connector | undefined> {
  const found = findConnector(config, id)
  if (found) return Promise.resolve(found)
  return new Promise((resolve) => {
    const cleanups: Array<() => void> = []
    const finish = (connector: Connector | undefined) => {
      for (const cleanup of cleanups) cleanup()
      resolve(connector)
    }
    const check = () => {
      const connector = findConnector(config, id)
      if (connector) finish(connector)
    }
    const timer = setTimeout(() => finish(undefined), timeoutMs)
    cleanups.push(() => clearTimeout(timer))
    cleanups.push(watchConnectors(config, { onChange: check }))
    const mipd = config._internal.mipd
    if (mipd) {
      const unsubscribe = mipd.subscribe(() => {
        addAnnouncedConnectors(config)
        check()
      })
      cleanups.push(() => void unsubscribe())
    }
  })
}
