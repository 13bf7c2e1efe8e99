// Server rendering with wagmi's state kept in a cookie (Next.js App Router
// and other React Server Components frameworks). The server reads the cookie
// with wagmi's cookieToInitialState and hands the state to <LatchProvider
// initialState>, so wagmi's state (chain, and connections when the app's own
// WagmiProvider reconnects) is the same on the server and in the browser's
// first render.
import { cookieStorage, type Config } from '@wagmi/core'
import type { Chain } from 'viem'
import { createDefaultWagmiConfig, latchRpcUrl } from './connection/wagmiConfig'
import { LatchOptionsError, resolveOptions, type LatchOptions } from './options'
import { walletConnectConnectors, type LatchExtensions } from './walletconnect/connectors'

/** Prefix of the cookie wagmi keeps its state in (`latch.wagmi.store`). */
export const LATCH_WAGMI_COOKIE = 'latch.wagmi'

/**
 * createSsrWagmiConfig returns the wagmi config createLatch would make for
 * these options (EIP-6963 discovery, chains read through latchd's RPC proxy,
 * WalletConnect unless `walletConnect: false`), with wagmi's `ssr` on and its
 * state kept in the `latch.wagmi.store` cookie. Pass it to createLatch as
 * `wagmiConfig` in the browser, and to wagmi's cookieToInitialState on the
 * server. Make one per request on the server and one per page in the
 * browser: a config holds a visitor's state. Throws LatchOptionsError for
 * invalid options, and when they already hold a `wagmiConfig`.
 */
export function createSsrWagmiConfig(options: LatchOptions, extensions: LatchExtensions = {}): Config {
  if (typeof options === 'object' && options !== null && options.wagmiConfig !== undefined) {
    throw new LatchOptionsError('createSsrWagmiConfig makes the wagmi config: leave `wagmiConfig` out of its options')
  }
  const opts = resolveOptions(options)
  const { projectId, apiUrl } = opts
  const connectors = walletConnectConnectors(options, opts, extensions)
  return createDefaultWagmiConfig({
    networks: opts.networks as readonly [Chain, ...Chain[]],
    ...(projectId ? { transportUrl: (chain: Chain) => latchRpcUrl({ apiUrl, projectId, chainId: chain.id }) } : {}),
    storage: cookieStorage,
    storageKey: LATCH_WAGMI_COOKIE,
    ssr: true,
    connectors,
  })
}
