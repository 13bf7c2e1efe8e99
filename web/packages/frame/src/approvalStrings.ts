// The approval view's strings (English), and the widget's other languages,
// each a script of its own loaded when the page's locale asks for it
// (approvalLocales/). The frame holds its own text: the page sends only a
// locale tag, so it cannot relabel Approve and Reject. The English strings
// only a transaction or a Solana transaction shows are in their decoding
// scripts (approvalDecodeTx.ts, approvalDecodeSolana.ts), which hand them
// over with what they decoded.
import type { txStrings } from './approvalDecodeTx'
import type { solanaStrings } from './approvalDecodeSolana'

/** The view's strings; `{name}` placeholders are filled from params. */
export const approvalStrings = {
  'approve.requestedBy': 'Requested by {origin}',
  'approve.signMessage': 'Sign this message?',
  'approve.signTypedData': 'Sign this data?',
  'approve.message': 'Message',
  'approve.primaryType': 'Type',
  'approve.domain': 'Domain',
  'approve.domainChain': 'Signed for',
  'approve.contract': 'Contract',
  'approve.spender': 'Spender',
  'approve.network': 'Network',
  'approve.data': 'Data',
  'approve.unlimited': 'Unlimited approval: {spender} may spend all your {token}, now and later',
  'approve.otherChain': 'The data is signed for {chain}, not this network',
  'approve.arming': 'Approve unlocks once this window is fully visible',
  'approve.tooSmall': 'This window is too small to show the request',
  'approve.working': 'Approved: signing…',
  'approve.approve': 'Approve',
  'approve.reject': 'Reject',
} as const

/** A key of the view's strings. */
export type ApprovalStringKey = keyof typeof approvalStrings | keyof typeof txStrings | keyof typeof solanaStrings

/** English strings a decoding script brings (txStrings, solanaStrings). */
export type EnglishStrings = Partial<Record<ApprovalStringKey, string>>

/** A translation: any of the keys; a missing one falls back to English. */
export type ApprovalCatalogue = Partial<Record<ApprovalStringKey, string>>

// Every translation, as the build splits them (one script per language).
const catalogues = import.meta.glob<{ default: ApprovalCatalogue }>('./approvalLocales/*.ts')

/** The widget's locale mapped to a catalogue the frame ships (de-AT → de, pt → pt-BR, zh-HK → zh-TW), else undefined. */
export function catalogueFor(locale: string | undefined, available: readonly string[]): string | undefined {
  if (!locale) return undefined
  const [lang = '', region = ''] = locale.split('-')
  const l = lang.toLowerCase()
  const exact = `${l}${region ? `-${region.toUpperCase()}` : ''}`
  if (available.includes(exact)) return exact
  if (l === 'pt') return available.includes('pt-BR') ? 'pt-BR' : undefined
  if (l === 'zh') return ['TW', 'HK', 'MO'].includes(region.toUpperCase()) || /hant/i.test(locale) ? 'zh-TW' : 'zh-CN'
  return available.includes(l) ? l : undefined
}

/** A lookup: the locale's string, else English (the view's, or those a decoding script brought). */
export type Lookup = (key: ApprovalStringKey, params?: Record<string, string>, english?: EnglishStrings) => string

/** loadStrings returns the lookup of locale's strings (English for an unknown locale or a failed load). */
export async function loadStrings(locale: string | undefined): Promise<Lookup> {
  const names = Object.keys(catalogues).map((k) => k.replace(/^\.\/approvalLocales\/|\.ts$/g, ''))
  const name = catalogueFor(locale, names)
  let own: ApprovalCatalogue = {}
  if (name) own = await catalogues[`./approvalLocales/${name}.ts`]!().then((m) => m.default, () => ({}))
  const base: EnglishStrings = approvalStrings
  return (key, params, english) => (own[key] ?? english?.[key] ?? base[key] ?? key).replace(/\{(\w+)\}/g, (m, p: string) => params?.[p] ?? m)
}

/** Right-to-left languages the widget ships. */
export const RTL = ['ar', 'fa', 'he']
