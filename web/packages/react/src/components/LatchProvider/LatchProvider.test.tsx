import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query'
import { WagmiProvider, useChainId, useConfig } from 'wagmi'
import { createFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'
import { LatchProvider } from './LatchProvider'

function ChainCount() {
  return <span data-testid="latch-test-chains">{useConfig().chains.length}</span>
}

/** Hands the QueryClient it renders under to `seen`. */
function ClientProbe({ seen }: { seen: QueryClient[] }) {
  seen.push(useQueryClient())
  return null
}

function ChainId() {
  return <span data-testid="latch-test-chain-id">{useChainId()}</span>
}

describe('LatchProvider', () => {
  it('calls latch.init() once after mount, also under StrictMode', () => {
    const latch = createFakeLatch()
    render(
      <StrictMode>
        <LatchProvider latch={latch} wagmi={false} />
      </StrictMode>,
    )
    expect(latch.initCalls).toBe(1)
  })

  it("provides wagmi with the latch's config", () => {
    const latch = createFakeLatch()
    renderWithLatch(<ChainCount />, { latch, wagmi: true })
    expect(screen.getByTestId('latch-test-chains').textContent).toBe('3')
  })

  it("with wagmi={false} uses the app's own WagmiProvider and QueryClientProvider", () => {
    const latch = createFakeLatch()
    render(
      <WagmiProvider config={latch.getWagmiConfig()} reconnectOnMount={false}>
        <QueryClientProvider client={new QueryClient()}>
          <LatchProvider latch={latch} wagmi={false}>
            <ChainCount />
          </LatchProvider>
        </QueryClientProvider>
      </WagmiProvider>,
    )
    expect(screen.getByTestId('latch-test-chains').textContent).toBe('3')
  })

  describe('QueryClient', () => {
    it('is one per provider: two providers of one latch, and two server renders, get two clients', () => {
      const latch = createFakeLatch()
      for (const wagmi of [true, false]) {
        const seen: QueryClient[] = []
        render(
          <>
            <LatchProvider latch={latch} wagmi={wagmi}>
              <ClientProbe seen={seen} />
            </LatchProvider>
            <LatchProvider latch={latch} wagmi={wagmi}>
              <ClientProbe seen={seen} />
            </LatchProvider>
          </>,
        )
        expect(seen).toHaveLength(2)
        expect(seen[0]).toBeInstanceOf(QueryClient)
        expect(seen[0]).not.toBe(seen[1])
      }
      // two requests of a server that made its latch once (at module level)
      const served: QueryClient[] = []
      for (let request = 0; request < 2; request++) {
        renderToString(
          <LatchProvider latch={latch}>
            <ClientProbe seen={served} />
          </LatchProvider>,
        )
      }
      expect(served[0]).not.toBe(served[1])
    })

    it("is kept across the provider's renders", () => {
      const latch = createFakeLatch()
      const seen: QueryClient[] = []
      const app = (
        <LatchProvider latch={latch}>
          <ClientProbe seen={seen} />
        </LatchProvider>
      )
      const { rerender } = render(app)
      rerender(<LatchProvider latch={latch}><ClientProbe seen={seen} /></LatchProvider>)
      expect(seen.length).toBeGreaterThanOrEqual(2)
      expect(new Set(seen).size).toBe(1)
    })

    it('is the app\'s when passed, or with wagmi={false} the one of its QueryClientProvider', () => {
      const latch = createFakeLatch()
      const passed = new QueryClient()
      const seen: QueryClient[] = []
      render(
        <LatchProvider latch={latch} queryClient={passed}>
          <ClientProbe seen={seen} />
        </LatchProvider>,
      )
      const above = new QueryClient()
      render(
        <QueryClientProvider client={above}>
          <LatchProvider latch={latch} wagmi={false}>
            <ClientProbe seen={seen} />
          </LatchProvider>
        </QueryClientProvider>,
      )
      expect(seen[0]).toBe(passed)
      expect(seen.at(-1)).toBe(above)
    })
  })

  it("passes initialState (wagmi's state read from the request's cookie) to wagmi for the first render", () => {
    const latch = createFakeLatch()
    const chains = latch.getWagmiConfig().chains
    const last = chains[chains.length - 1]!
    expect(last.id).not.toBe(chains[0].id)
    const html = renderToString(
      <LatchProvider latch={latch} initialState={{ chainId: last.id, connections: new Map(), current: null, status: 'disconnected' }}>
        <ChainId />
      </LatchProvider>,
    )
    expect(html).toContain(`>${last.id}<`)
  })

  it('refuses initialState with wagmi={false}, where it would reach no WagmiProvider', () => {
    const state = { chainId: 1, connections: new Map(), current: null, status: 'disconnected' as const }
    expect(() => renderToString(<LatchProvider latch={createFakeLatch()} wagmi={false} initialState={state} />)).toThrow(
      '<LatchProvider initialState> is for its own WagmiProvider; with wagmi={false}, pass initialState to yours',
    )
  })
})
