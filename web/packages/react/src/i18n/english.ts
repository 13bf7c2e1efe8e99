/// <reference types="vite/client" />
// Test support: every English string of the widget in one catalogue — core's
// messages.ts and each `strings.ts` of core and react (a view's strings live in
// its lazy chunk). A key must be unique across them: a locale's catalogue is
// one flat object holding them all.
import { messages } from '@latchkit/core'

const modules = {
  ...import.meta.glob<Record<string, unknown>>('../../../core/src/**/strings.ts', { eager: true }),
  ...import.meta.glob<Record<string, unknown>>('../**/strings.ts', { eager: true }),
}

/** Where each key comes from, and the merged catalogue; throws on a key defined twice. */
export function englishCatalogue(): { catalogue: Record<string, string>; sources: Record<string, string> } {
  const catalogue: Record<string, string> = {}
  const sources: Record<string, string> = {}
  const add = (source: string, strings: Readonly<Record<string, unknown>>) => {
    for (const [key, value] of Object.entries(strings)) {
      if (typeof value !== 'string') continue
      if (key in catalogue) throw new Error(`${key} is defined in both ${sources[key]} and ${source}`)
      catalogue[key] = value
      sources[key] = source
    }
  }
  add('core/src/messages.ts', messages.en)
  for (const [path, exports] of Object.entries(modules)) {
    for (const value of Object.values(exports)) {
      if (value && typeof value === 'object' && !Array.isArray(value)) add(path, value as Record<string, unknown>)
    }
  }
  return { catalogue, sources }
}
