// The same page with Latch: createLatch, <LatchProvider> and <ConnectButton/>.
import { createLatch } from '@latchkit/core'
import { ConnectButton, LatchProvider } from '@latchkit/react'
import '@latchkit/react/styles.css'
import { createRoot } from 'react-dom/client'
import { mainnet } from 'viem/chains'

const latch = createLatch({ projectId: '0'.repeat(32), networks: [mainnet], apiUrl: 'http://127.0.0.1:8080' })

createRoot(document.getElementById('root')!).render(
  <LatchProvider latch={latch}>
    <ConnectButton />
  </LatchProvider>,
)
