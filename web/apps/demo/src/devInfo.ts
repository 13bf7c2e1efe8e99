import { defineSolanaNetwork } from '@latchkit/react'
import { defineChain, type Chain } from 'viem'

/** What latchd dev serves at /latch-dev.json beside this page. */
export interface DevInfo {
  projectId: string
  apiUrl: string
  /** The embedded-wallet frame's origin (latchd's frame listener). */
  frameOrigin: string
  networks: { caipNetworkId: string; chainId: number; name: string; rpcUrl: string; multicall3: string; ensRegistry: string; ensUniversalResolver: string }[]
  /** latchd dev's local Solana network, absent when it runs without one. */
  solana?: { caipNetworkId: string; name: string; rpcUrl: string }
}

/** Loads the dev info and turns the dev networks into the widget's networks (viem chains, and the Solana network). */
export async function loadDevInfo(): Promise<{ info: DevInfo; chains: [Chain, ...Chain[]] }> {
  const res = await fetch('/latch-dev.json')
  if (!res.ok) throw new Error(`latch-dev.json: HTTP status code: ${res.status}`)
  const info = (await res.json()) as DevInfo
  const chains: Chain[] = info.networks.map((n) =>
    defineChain({
      id: n.chainId,
      name: n.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [n.rpcUrl] } },
      // The dev ENS contracts: the names zone (latch.test) resolves under them through latchd's gateway.
      contracts: {
        multicall3: { address: n.multicall3 as `0x${string}` },
        ensRegistry: { address: n.ensRegistry as `0x${string}` },
        ensUniversalResolver: { address: n.ensUniversalResolver as `0x${string}` },
      },
      testnet: true,
    }),
  )
  // The local Solana network after the EVM chains (the first network is the default); its reads go through latchd.
  if (info.solana) chains.push(defineSolanaNetwork({ reference: info.solana.caipNetworkId.slice('solana:'.length), name: info.solana.name, rpcUrl: info.solana.rpcUrl, testnet: true }))
  const [first, ...rest] = chains
  if (!first) throw new Error('latchd dev reported no dev networks')
  return { info, chains: [first, ...rest] }
}
