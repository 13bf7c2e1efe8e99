'use client'
// wagmi's own hooks work beside Latch's: the chain comes from the cookie on the
// server, so this renders the same there and in the browser's first render.
import { useChainId, useChains } from 'wagmi'

export function ChainNote() {
  const chainId = useChainId()
  const chain = useChains().find((c) => c.id === chainId)
  return <p data-testid="chain-note">wagmi chain: {chain ? `${chain.name} (${chainId})` : chainId}</p>
}
