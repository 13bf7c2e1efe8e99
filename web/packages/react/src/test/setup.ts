// Loaded before each react (and appkit-compat) test file.
//
// Test files share their worker's modules (vitest.config.ts: isolate: false), so Testing Library's own
// afterEach(cleanup), which it registers once when its module is first imported, would run for the first file
// only; each file registers it here instead.
//
// The modal's dialog is a lazy chunk (components/LatchModal/LatchModal) that a page fetches right after its first
// render; loading it here lets a test's click open the modal at once, as in a page where the chunk has arrived.
// LatchModal.lazy.test.tsx checks the loading itself, with a fresh module.
import { afterEach } from 'vitest'
import { cleanup, configure } from '@testing-library/react'
import { loadModalDialog } from '../components/LatchModal/LatchModal'

afterEach(() => cleanup())

// findBy* and waitFor wait for the page's state, up to 5 s rather than Testing Library's 1 s: a lazy chunk takes
// longer than a second to load on a machine busy with other suites (vitest.config.ts gives each test 15 s).
configure({ asyncUtilTimeout: 5000 })

// Each file starts from the page a fresh environment gives it (files in the node environment have none): no stored wallets, sessions or cookies, the
// default URL, and no attributes left on <html> (lang, dir) by another file's locale.
if (typeof window !== 'undefined') {
  localStorage.clear()
  sessionStorage.clear()
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]!.trim()
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  }
  window.history.replaceState(null, '', '/')
  document.body.innerHTML = ''
  for (const { name } of [...document.documentElement.attributes]) document.documentElement.removeAttribute(name)
}

await loadModalDialog()
