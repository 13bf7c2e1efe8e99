import { lazy, Suspense } from 'react'
import { ConnectButton, NetworkButton, useLatch, useLatchAccount, useLatchTheme } from '@latchkit/react'
import { HeadlessSend } from './HeadlessSend'
import { Pay } from './Pay'
import { Session } from './Session'
import { SignMessage } from './SignMessage'

// ?headless=1 adds the page's own connect UI (useLatchWallets) and wallet buttons, loaded only then.
const Headless = lazy(() => import('./Headless'))
const headless = new URLSearchParams(location.search).get('headless') === '1'

export function App() {
  const { open } = useLatch()
  const account = useLatchAccount()
  const { themeMode, setThemeMode } = useLatchTheme()
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 720, margin: '48px auto', padding: '0 16px' }}>
      <h1>Latch demo</h1>
      <p>A dapp using the Latch widget against a local latchd and its dev networks.</p>
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
        <ConnectButton />
        <NetworkButton />
        <button data-testid="demo-open-all-wallets" onClick={() => open({ view: 'AllWallets' })}>
          All wallets
        </button>
        <button data-testid="demo-open-walletconnect" onClick={() => open({ view: 'ConnectingWalletConnectBasic' })}>
          WalletConnect QR
        </button>
        <button data-testid="demo-toggle-theme" onClick={() => setThemeMode(themeMode === 'dark' ? 'light' : 'dark')}>
          {themeMode === 'dark' ? 'Light' : 'Dark'} theme
        </button>
      </div>
      <pre data-testid="demo-account" style={{ marginTop: 24 }}>
        {JSON.stringify({ status: account.status, address: account.address ?? null }, null, 2)}
      </pre>
      {headless ? (
        <Suspense fallback={null}>
          <Headless />
        </Suspense>
      ) : null}
      <Session />
      <SignMessage />
      <HeadlessSend />
      <Pay />
    </main>
  )
}
