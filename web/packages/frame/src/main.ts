// The frame's entry: reads its address (spec §2: projectId, chainId, version,
// enableLogger), learns from latchd which origins may embed it, and answers
// the embedding page's messages. Everything else is in createFrame.
import { z } from 'zod/mini'
import { FRAME_PROTOCOL_VERSION } from '../../core/src/embedded/protocol'
import { browserPrompt, DEFAULT_APPEARANCE, type Appearance } from './approval'
import { createAuthApi } from './authApi'
import { openDeviceStore } from './deviceStore'
import { createFrame } from './frame'
import { embedderOrigin } from './origins'
import { readSmartAccountNetworks } from './smartAccount'

// No compiled validators: zod would probe for them with new Function, which
// the frame's CSP (no 'unsafe-eval') refuses and reports as a violation.
z.config({ jitless: true })

const q = new URLSearchParams(location.search)
// latchd writes its API URL into the page it serves.
const apiUrl = document.querySelector<HTMLMetaElement>('meta[name="latch-api"]')?.content ?? ''
const enableLogger = q.get('enableLogger') === 'true'
const log = enableLogger ? (...a: unknown[]) => console.debug('[latch frame]', ...a) : () => {}

const projectId = q.get('projectId') ?? ''
// A widget speaking another protocol version gets no READY and reports its
// load timeout, rather than exchanging messages neither side understands.
const version = q.get('version') ?? FRAME_PROTOCOL_VERSION
if (!projectId || !/^https?:\/\//.test(apiUrl) || window.parent === window || version !== FRAME_PROTOCOL_VERSION) {
  log(`not started: needs a projectId, latchd's API URL, an embedding page and protocol version ${FRAME_PROTOCOL_VERSION}`)
} else {
  const api = createAuthApi({ apiUrl: apiUrl.replace(/\/+$/, ''), projectId })
  const parentOrigin = embedderOrigin(location, document.referrer)
  let appearance: Appearance = DEFAULT_APPEARANCE
  void createFrame({
    api,
    store: openDeviceStore(),
    projectId,
    chainId: q.get('chainId') ?? '1',
    smartAccountNetworks: readSmartAccountNetworks(document.querySelector<HTMLMetaElement>('meta[name="latch-smart-accounts"]')?.content),
    parent: window.parent,
    parentOrigin,
    listen: (fn) => window.addEventListener('message', fn),
    // Every unsafe request is shown here, and approved here only (approvalView.ts).
    prompt: browserPrompt({ window, appearance: () => appearance, pageOrigin: parentOrigin ?? '' }),
    setAppearance: (a) => (appearance = a),
    reload: () => location.reload(),
    log,
  })
    // The key code (signer.ts), the EVM key and signing code (evm.ts) and the
    // approval view are scripts of their own, left out of the way to READY;
    // fetch them now, before the page asks for a key. (Solana's is fetched
    // when first used.)
    .then(
      () => Promise.all([import('./signer'), import('./evm'), import('./approvalView')]).catch((e: unknown) => log('key code not loaded', e instanceof Error ? e.message : e)),
      (e: unknown) => log('start failed', e instanceof Error ? e.message : e),
    )
}
