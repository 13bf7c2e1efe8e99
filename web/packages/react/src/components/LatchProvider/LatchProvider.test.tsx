import { StrictMode } from 'react'
import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { WagmiProvider, useConfig } from 'wagmi'
import { createFakeLatch } from '../../test/createFakeLatch'
import { renderWithLatch } from '../../test/render'
import { LatchProvider } from './LatchProvider'

function ChainCount() {
  return <span data-testid="latch-test-chains">{useConfig().chains.length}</span>
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
})
