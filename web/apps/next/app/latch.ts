// Latch's options and wagmi config, used on the server (layout.tsx reads the
// wagmi cookie with them) and in the browser (providers.tsx). No 'use client':
// a server component calls these.
import { createSsrWagmiConfig, type LatchOptions } from '@latchkit/core'
import type { Config } from 'wagmi'
import { networks } from './chains'

/** Where latchd is and which project to use; read on the server from the environment (see layout.tsx). */
export type LatchSettings = { apiUrl: string; projectId: string | undefined }

/** The options createLatch and createSsrWagmiConfig get. */
export function latchOptions(settings: LatchSettings): LatchOptions {
  return {
    apiUrl: settings.apiUrl,
    ...(settings.projectId ? { projectId: settings.projectId } : {}),
    networks: [...networks],
    metadata: {
      name: 'Latch Next.js example',
      description: 'Latch in a Next.js App Router app',
      url: 'http://localhost:3000',
      icons: [],
    },
  }
}

/**
 * A wagmi config with wagmi's `ssr` on and its state in a cookie. Make one per
 * request on the server and one per page in the browser: it holds a visitor's state.
 */
export function wagmiConfig(settings: LatchSettings): Config {
  return createSsrWagmiConfig(latchOptions(settings))
}
