import { type Chain, defineChain } from 'viem'
import { mainnet } from 'viem/chains'
import { describe, expect, it } from 'vitest'

import { createMemoryStorage } from '../storage'
import { createDefaultWagmiConfig, latchRpcUrl } from './wagmiConfig.js'

const devChain = defineChain({
  id: 31337,
  name: 'Dev',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
})

describe('latchRpcUrl', () => {
  it('builds the latchd proxy URL (spec §7)', () => {
    expect(latchRpcUrl({ apiUrl: 'https://api.example/', projectId: 'p 1', chainId: 8453 })).toBe(
      'https://api.example/v1?chainId=eip155:8453&projectId=p%201',
    )
  })
})

describe('createDefaultWagmiConfig', () => {
  it('uses transportUrl per chain, falling back to the chain default', () => {
    const transportUrl = (chain: Chain) =>
      chain.id === devChain.id ? undefined : latchRpcUrl({ apiUrl: 'https://api.example', projectId: 'p', chainId: chain.id })
    const config = createDefaultWagmiConfig({ networks: [mainnet, devChain], transportUrl, storage: createMemoryStorage() })

    const urlOf = (chainId: number) => (config.getClient({ chainId }).transport as { url?: string }).url
    expect(urlOf(mainnet.id)).toBe('https://api.example/v1?chainId=eip155:1&projectId=p')
    expect(urlOf(devChain.id)).toBe('http://127.0.0.1:8545')
  })
})
