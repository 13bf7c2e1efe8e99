// Baseline: what every wagmi dapp already pays for: React, wagmi, viem, TanStack Query.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { http } from 'viem'
import { mainnet } from 'viem/chains'
import { createConfig, injected, useAccount, useConnect, WagmiProvider } from 'wagmi'

const config = createConfig({ chains: [mainnet], connectors: [injected()], transports: { [mainnet.id]: http() } })
const queryClient = new QueryClient()

function Button() {
  const { address } = useAccount()
  const { connect, connectors } = useConnect()
  return <button onClick={() => connectors[0] && connect({ connector: connectors[0] })}>{address ?? 'Connect'}</button>
}

createRoot(document.getElementById('root')!).render(
  <WagmiProvider config={config}>
    <QueryClientProvider client={queryClient}>
      <Button />
    </QueryClientProvider>
  </WagmiProvider>,
)
