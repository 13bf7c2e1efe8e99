// sign-client 2.21.8 checks a smart-account wallet's one-click sign-in (an
// ERC-1271 CACAO) with one eth_call to https://rpc.walletconnect.org/v1, and
// has no option for another address. For the duration of the sign-in, that
// call goes to latchd's RPC proxy instead (same path and query shape), so the
// page contacts no host but latchd; every other request passes untouched.

/** Where the SDK sends its signature check. */
export const WALLETCONNECT_RPC = 'https://rpc.walletconnect.org/v1'

/** withLatchdRpc runs `run` with the SDK's RPC calls rerouted to `${apiUrl}/v1`. */
export async function withLatchdRpc<T>(apiUrl: string, run: () => Promise<T>): Promise<T> {
  const scope = globalThis as { fetch: typeof fetch }
  const original = scope.fetch
  const base = `${apiUrl.replace(/\/+$/, '')}/v1`
  const rerouted: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined
    return original(url?.startsWith(WALLETCONNECT_RPC) ? base + url.slice(WALLETCONNECT_RPC.length) : input, init)
  }
  scope.fetch = rerouted
  try {
    return await run()
  } finally {
    if (scope.fetch === rerouted) scope.fetch = original
  }
}
