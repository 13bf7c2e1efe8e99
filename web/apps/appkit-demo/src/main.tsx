import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createAppKit } from '@latchkit/appkit-compat'
import { App } from './App'
import { loadNetworks } from './networks'

// Written as an AppKit React app is: createAppKit once at module level with the networks and the dapp's
// metadata, then AppKit's components and hooks anywhere below, no provider. Moving from AppKit changed the
// import (and added apiUrl: where latchd runs).
const { projectId, apiUrl, networks } = await loadNetworks()

createAppKit({
  projectId,
  apiUrl,
  networks,
  metadata: { name: 'AppKit-compat demo', description: 'An AppKit app running on Latch', url: location.origin, icons: [] },
  themeMode: 'light',
  themeVariables: { '--w3m-accent': '#1f6feb', '--w3m-border-radius-master': '2px' },
  features: { analytics: false },
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App networks={networks} />
  </StrictMode>,
)
