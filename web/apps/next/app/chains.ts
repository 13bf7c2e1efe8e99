// The networks of `latchd dev` (two local chains). A real app lists its own, e.g. from viem/chains.
import { defineChain } from 'viem'

function devChain(id: number, name: string, port: number) {
  return defineChain({
    id,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    // Unused when a project id is set: Latch then reads every chain through latchd's RPC proxy.
    rpcUrls: { default: { http: [`http://127.0.0.1:${port}`] } },
    testnet: true,
  })
}

export const networks = [devChain(31337, 'Latch Dev', 8545), devChain(31338, 'Latch Dev 2', 8546)] as const
