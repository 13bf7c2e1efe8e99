import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { SUPPORTED_LOCALES, type LatchLocale } from '@latchkit/core'
import { createLatch, latchSiwx, LatchProvider } from '@latchkit/react'
import '@latchkit/react/styles.css'
import { App } from './App'
import { loadDevInfo } from './devInfo'

// The demo uses the widget exactly as a dapp would: createLatch once (from
// @latchkit/react, which brings WalletConnect through latchd's relay), the
// provider at the root, buttons and hooks below it.
const { info, chains } = await loadDevInfo()
// ?siwx=optional or ?siwx=required turns on Sign-in with X backed by latchd (docs/siwx.md).
const params = new URLSearchParams(location.search)
const siwxMode = params.get('siwx')
// ?accountType=eoa starts the e-mail wallet as a plain account instead of the default smart account (docs/smart-accounts.md).
const accountType = params.get('accountType')
// ?legal=links shows the terms and privacy links in Connect; ?legal=checkbox asks the visitor to agree first (docs/configuration.md).
const legal = params.get('legal')
// ?locale=de (any locale Latch ships) sets the widget's language; without it the browser's languages decide. An
// unknown value is refused on the page, and the widget keeps its default.
const localeParam = params.get('locale')
const locale = SUPPORTED_LOCALES.find((l): l is LatchLocale => l === localeParam)
const localeRefused = localeParam !== null && !locale
const latch = createLatch({
  projectId: info.projectId,
  apiUrl: info.apiUrl,
  // The e-mail wallet: its keys live in latchd dev's frame, codes are read at /dev/outbox.
  frameUrl: info.frameOrigin,
  networks: chains,
  metadata: { name: 'Latch demo', description: 'A dapp using the Latch widget', url: location.origin, icons: [] },
  ...(locale ? { locale } : {}),
  ...(accountType === 'eoa' || accountType === 'smartAccount' ? { defaultAccountTypes: { eip155: accountType } } : {}),
  ...(legal ? { termsConditionsUrl: `${location.origin}/terms`, privacyPolicyUrl: `${location.origin}/privacy`, features: { legalCheckbox: legal === 'checkbox' } } : {}),
  ...(siwxMode === 'optional' || siwxMode === 'required' ? { siwx: latchSiwx({ required: siwxMode === 'required', statement: 'Sign in to the Latch demo' }) } : {}),
})

// The instance, for trying Latch's API from the browser's console (latch.open({ view: 'WalletSwap' }), latch.getState()).
declare global {
  interface Window {
    latch: typeof latch
  }
}
window.latch = latch

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LatchProvider latch={latch}>
      {localeRefused ? (
        <p role="alert" data-testid="demo-locale-refused" style={{ fontFamily: 'system-ui, sans-serif', color: '#bf3520', textAlign: 'center' }}>
          ?locale={localeParam} is not a locale Latch ships ({SUPPORTED_LOCALES.join(', ')}): the widget follows the browser's languages.
        </p>
      ) : null}
      <App />
    </LatchProvider>
  </StrictMode>,
)
