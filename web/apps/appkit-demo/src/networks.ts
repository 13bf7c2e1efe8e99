import { defineChain, type Chain } from 'viem'

/** What latchd dev serves at /latch-dev.json beside this page. */
interface DevInfo {
  projectId: string
  apiUrl: string
  networks: { chainId: number; name: string; rpcUrl: string }[]
}

/**
 * The networks of latchd dev's local chains, as viem chains (an AppKit app would import mainnet, sepolia… from
 * its networks entry instead), with the project id and latchd's URL.
 */
export async function loadNetworks(): Promise<{ projectId: string; apiUrl: string; networks: [Chain, ...Chain[]] }> {
  const res = await fetch('/latch-dev.json')
  if (!res.ok) throw new Error(`latch-dev.json: HTTP status code: ${res.status}`)
  const info = (await res.json()) as DevInfo
  const chains = info.networks.map((n) =>
    defineChain({
      id: n.chainId,
      name: n.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [n.rpcUrl] } },
      testnet: true,
    }),
  )
  const [first, ...rest] = chains
  if (!first) throw new Error('latchd dev reported no dev networks')
  return { projectId: info.projectId, apiUrl: info.apiUrl, networks: [first, ...rest] }
}
