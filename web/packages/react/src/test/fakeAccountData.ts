// latchd's account-data routes for component tests: a real AccountData (core's
// client, lock and toast logic) over a fetch that answers from fixtures.
import { loadAccountModule, type AccountData, type TokenBalance, type Transaction } from '@latchkit/core'
// An internal of core (not in its public entry), imported by path as tests do.
import { createAccountData } from '../../../core/src/account/data'

export type FakeAccountServer = {
  /** Balances answered by GET /v1/account/{address}/balance; a number answers that HTTP status instead. */
  balances?: TokenBalance[] | number
  /** History pages by cursor ('' = first page); a number answers that HTTP status. */
  history?: Record<string, { data: Transaction[]; next: string | null }> | number
  identity?: { name: string | null; avatar: string | null }
}

export type FakeAccountData = AccountData & {
  /** Every URL requested, in order. */
  requests: URL[]
  server: FakeAccountServer
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

export function createFakeAccountData(server: FakeAccountServer = {}, showError: (message: string) => void = () => {}): FakeAccountData {
  const requests: URL[] = []
  const fetch = async (input: RequestInfo | URL): Promise<Response> => {
    const url = new URL(String(input))
    requests.push(url)
    if (url.pathname.endsWith('/balance')) {
      const b = server.balances ?? []
      return typeof b === 'number' ? json({}, b) : json({ balances: b })
    }
    if (url.pathname.endsWith('/history')) {
      const h = server.history ?? { '': { data: [], next: null } }
      if (typeof h === 'number') return json({}, h)
      const page = h[url.searchParams.get('cursor') ?? '']
      return page ? json(page) : json({}, 400)
    }
    if (url.pathname.startsWith('/v1/identity/')) return json(server.identity ?? { name: null, avatar: null })
    return json({}, 404)
  }
  const data = createAccountData({
    client: async () => (await loadAccountModule()).createAccountClient({ apiUrl: 'https://latchd.test', projectId: 'test', sdkVersion: 'react-test', fetch }),
    showError,
  })
  return Object.assign(data, { requests, server })
}
