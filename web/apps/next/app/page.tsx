// A server component: the Latch buttons are client components it renders on
// the server too (their 'use client' entry makes them so).
import { ConnectButton, NetworkButton } from '@latchkit/react'
import { ChainNote } from './chain-note'

export default function Home() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 32, display: 'grid', gap: 16, justifyItems: 'start' }}>
      <h1>Latch · Next.js App Router</h1>
      <div style={{ display: 'flex', gap: 8 }}>
        <NetworkButton />
        <ConnectButton />
      </div>
      <ChainNote />
    </main>
  )
}
