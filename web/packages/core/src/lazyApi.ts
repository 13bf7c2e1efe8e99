// The latchd client a Latch uses: URLs and telemetry at once, and the GET
// routes through api.ts, loaded with the first of them. Its response schemas
// (zod) are then a chunk of their own rather than part of the page's first load;
// the first GET runs in init(), after the page has mounted.
import type { ApiClient as FullClient } from './api'
import { createApiTransport, type ApiClient, type ApiClientOptions } from './apiBase'
import { loadLazy, once } from './loadLazy'

/** createLazyApiClient makes a client of the latchd at options.apiUrl whose schema-checked routes load on first use. */
export function createLazyApiClient(options: ApiClientOptions): ApiClient {
  const transport = createApiTransport(options)
  const client = once((): Promise<FullClient> => loadLazy().then((l) => l.api()).then((m) => m.createApiClient(options)))
  return {
    getWallets: async (params) => (await client()).getWallets(params),
    getProjectConfig: async () => (await client()).getProjectConfig(),
    getAllowedOrigins: async () => (await client()).getAllowedOrigins(),
    getAnalyticsConfig: async () => (await client()).getAnalyticsConfig(),
    walletImageUrl: transport.walletImageUrl,
    assetImageUrl: transport.assetImageUrl,
    sendEvents: transport.sendEvents,
    sendError: transport.sendError,
  }
}
