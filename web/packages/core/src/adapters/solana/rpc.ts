// Solana JSON-RPC for the widget: through latchd's RPC proxy (the page talks
// to no host but the operator's), or the network's own URL when the app set
// no projectId.
import type { Latch } from '../../latch-types'
import type { SolanaNetwork } from './network'

/** The JSON-RPC URL of a Solana network for this instance. */
export function solanaRpcUrl(latch: Latch, network: SolanaNetwork): string {
  const { apiUrl, projectId } = latch._internal.opts
  if (projectId) return `${apiUrl}/v1?chainId=${encodeURIComponent(network.caipNetworkId)}&projectId=${encodeURIComponent(projectId)}`
  const own = network.rpcUrls.default.http[0]
  if (!own) throw new Error(`${network.name} has no RPC URL and the app sets no projectId for latchd's RPC proxy`)
  return own
}

/** An error the node answered. */
export class SolanaRpcError extends Error {
  override readonly name = 'SolanaRpcError'
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

/** One JSON-RPC call; rejects with SolanaRpcError for the node's errors. */
export async function solanaRpc<T>(url: string, method: string, params: readonly unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    // text/plain keeps the POST a "simple" request: no CORS preflight round trip.
    headers: { 'Content-Type': 'text/plain' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json().catch(() => undefined)) as { result?: T; error?: { code: number; message: string } } | undefined
  if (body?.error) throw new SolanaRpcError(body.error.code, body.error.message)
  if (!response.ok || !body || !('result' in body)) throw new Error(`${method}: latchd answered HTTP ${response.status}`)
  return body.result as T
}
