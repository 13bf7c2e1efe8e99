/// <reference types="vite/client" />
// Issue 24: server rendering with a locale. A page renders the same text on the
// server and in the browser's first render (no hydration mismatch), then the
// widget switches to its language once mounted; a page that awaited
// loadLocale on both sides renders in that language from the start.
import { createLatch, loadLocale, type LatchLocale } from '@latchkit/core'
import { act, cleanup, waitFor } from '@testing-library/react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { mainnet } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loadedLocales } from '../../../core/src/i18n/locale'
import { ConnectButton } from '../components/ConnectButton/ConnectButton'
import { LatchProvider } from '../components/LatchProvider/LatchProvider'

const catalogues = import.meta.glob<{ default: Record<string, string> }>('../../../core/src/i18n/locales/*.ts', { eager: true })
const connectLabel = (locale: LatchLocale) => catalogues[`../../../core/src/i18n/locales/${locale}.ts`]!.default['button.connect']!

const latches: Array<ReturnType<typeof createLatch>> = []
const make = (locale?: LatchLocale) => {
  const latch = createLatch({ networks: [mainnet], debug: false, walletConnect: false, ...(locale ? { locale } : {}) })
  latches.push(latch)
  return latch
}
// Each test starts as a page does, with no catalogue loaded (test files share their worker's modules, and another
// file may have loaded one).
beforeEach(() => {
  for (const locale of [...loadedLocales.keys()]) if (locale !== 'en') loadedLocales.delete(locale)
})
afterEach(() => {
  cleanup()
  for (const l of latches.splice(0)) l.destroy()
  document.body.innerHTML = ''
})

async function hydrate(server: ReturnType<typeof createLatch>, client: ReturnType<typeof createLatch>) {
  const page = (latch: ReturnType<typeof createLatch>) => (
    <LatchProvider latch={latch}>
      <ConnectButton />
    </LatchProvider>
  )
  const container = document.createElement('div')
  container.innerHTML = renderToString(page(server))
  const html = container.innerHTML
  document.body.appendChild(container)
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
  const recoverable = vi.fn()
  const root = await act(async () => hydrateRoot(container, page(client), { onRecoverableError: recoverable }))
  // Latch's own configuration logs (no projectId here) are not React's hydration errors.
  const calls = errors.mock.calls.filter((args) => !String(args[0]).startsWith('[latch]'))
  errors.mockRestore()
  return { root, container, html, errors: calls, recoverable }
}

describe('server rendering in a locale', () => {
  it('renders English on both sides, hydrates without mismatch, then switches to the option’s locale', async () => {
    const { root, container, html, errors, recoverable } = await hydrate(make('de'), make('de'))
    expect(html).toContain('Connect Wallet')
    expect(errors).toEqual([])
    expect(recoverable).not.toHaveBeenCalled()
    await waitFor(() => expect(container.textContent).toContain(connectLabel('de')))
    expect(container.querySelector('[data-latch]')?.getAttribute('lang')).toBe('de')
    act(() => root.unmount())
  })

  it('renders the locale from the start when both sides awaited loadLocale, and the button is right to left in Arabic', async () => {
    await loadLocale('ar')
    const { root, container, html, errors, recoverable } = await hydrate(make('ar'), make('ar'))
    expect(html).toContain(connectLabel('ar'))
    expect(html).toContain('dir="rtl"')
    expect(errors).toEqual([])
    expect(recoverable).not.toHaveBeenCalled()
    expect(container.textContent).toContain(connectLabel('ar'))
    act(() => root.unmount())
  })

  it('without the option follows the visitor’s languages after mount', async () => {
    const languages = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['xx-YY', 'ja-JP', 'en-US'])
    try {
      const { root, container, errors } = await hydrate(make(), make())
      expect(errors).toEqual([])
      await waitFor(() => expect(container.textContent).toContain(connectLabel('ja')))
      act(() => root.unmount())
    } finally {
      languages.mockRestore()
    }
  })
})
