import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createLatch, LatchProvider } from '@latchkit/react'
import '@latchkit/react/styles.css'
import { App } from './App'
import { loadDevInfo } from './devInfo'

// The demo uses the widget exactly as a dapp would: createLatch once (from
// @latchkit/react, which brings WalletConnect through latchd's relay), the
// provider at the root, buttons and hooks below it.
const { info, chains } = await loadDevInfo()
const latch = createLatch({
  projectId: info.projectId,
  apiUrl: info.apiUrl,
  // The e-mail wallet: its keys live in latchd dev's frame, codes are read at /dev/outbox.
  frameUrl: info.frameOrigin,
  networks: chains,
  metadata: { name: 'Latch demo', description: 'A dapp using the Latch widget', url: location.origin, icons: [] },
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LatchProvider latch={latch}>
      <App />
    </LatchProvider>
  </StrictMode>,
)
