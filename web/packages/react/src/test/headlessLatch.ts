// A real Latch for the headless hooks and the wallet button: a wagmi config
// with core's scripted WalletConnect connector and an injected stand-in, and a
// registry on latchd (MetaMask, matched by rdns io.metamask, and Trust Wallet).
import { createConfig, createConnector, custom } from '@wagmi/core'
import { mainnet } from 'viem/chains'
import { vi } from 'vitest'
import { createLatch } from '@latchkit/core'
import { injectedStandIn, scriptedWalletConnect } from '../../../core/src/walletconnect/test/scripted'

export const metamaskId = 'b'.repeat(64)
export const trustId = 'a'.repeat(64)
const registry = [
  { id: metamaskId, name: 'MetaMask', image_id: 'mm', mobile_link: 'metamask://', desktop_link: null, webapp_link: null, chains: ['eip155:1'], rdns: 'io.metamask' },
  { id: trustId, name: 'Trust Wallet', image_id: 'tw', mobile_link: 'trust:', desktop_link: null, webapp_link: null, chains: ['eip155:1'], rdns: 'com.trustwallet.app' },
]

/** Serves latchd's /getWallets from the registry above (include and search as latchd does); the rest fails. */
export function stubRegistry(): URL[] {
  const asked: URL[] = []
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input instanceof Request ? input.url : input))
    if (url.pathname !== '/getWallets') throw new TypeError('fetch failed')
    asked.push(url)
    const include = url.searchParams.get('include')?.split(',')
    const search = url.searchParams.get('search')?.toLowerCase()
    const data = registry.filter((w) => (!include || include.includes(w.id)) && (!search || w.name.toLowerCase().includes(search)))
    return new Response(JSON.stringify({ count: data.length, data }), { headers: { 'Content-Type': 'application/json' } })
  })
  return asked
}

/** The Latch and the scripted WalletConnect wallet (approve or decline the pairing). */
export function createHeadlessLatch() {
  const { connectorFn, script } = scriptedWalletConnect()
  const rpc = custom({ request: async () => '0x0' })
  const wagmiConfig = createConfig({
    chains: [mainnet],
    connectors: [connectorFn, createConnector(() => injectedStandIn())],
    storage: null,
    transports: { [mainnet.id]: rpc },
  })
  const latch = createLatch({ projectId: 'a'.repeat(32), apiUrl: 'http://latchd.test', networks: [mainnet], wagmiConfig })
  return { latch, script }
}
