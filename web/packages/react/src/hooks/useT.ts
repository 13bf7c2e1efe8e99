// Type-only imports of core and no useLatchSelector: views' lazy chunks share this module with the entry, and a
// runtime import here made the app's bundler split core and the selector out of the entry into extra first-load
// files (+0.9 KiB measured with web/bench/measure.mjs).
import { useCallback, useSyncExternalStore } from 'react'
import type { Latch, LocaleFormats, MessageKey } from '@latchkit/core'
import { useLatchInstance } from '../context'

type Params = Record<string, string | number>

/**
 * A catalogue's keys as a view asks for them: each key, and the base of a
 * plural group (`email.cooldown` for `email.cooldown_one` / `_other`), which
 * lookup resolves by the numeric `count` param.
 */
export type StringKey<K extends string> = K | (K extends `${infer Base}_other` ? Base : never)

/** One field of the active locale's state, re-rendering when it changes (the same on the server, so hydration matches). */
function useLocaleField<T>(latch: Latch, read: (state: ReturnType<Latch['getState']>) => T): T {
  const subscribe = useCallback((onChange: () => void) => latch.subscribe(() => onChange()), [latch])
  const get = () => read(latch.getState())
  return useSyncExternalStore(subscribe, get, get)
}

/**
 * useStrings returns a lookup of a view's own strings: `english` (the view's
 * built-in catalogue, part of its lazy chunk) or the active locale's string
 * for the key, `{name}` placeholders filled, plurals by a numeric `count`.
 * Re-renders when the locale changes.
 */
export function useStrings<K extends string>(english: Readonly<Record<K, string>>): (key: StringKey<K>, params?: Params) => string {
  const latch = useLatchInstance()
  // The catalogue object changes exactly when the locale does; the lookup is rebuilt then, so memoised children re-render.
  const catalogue = useLocaleField(latch, (s) => s.catalogue)
  return useCallback((key, params) => (void catalogue, latch.translate(english, key, params)), [english, catalogue, latch])
}

/** useT: core's message catalogue (core/src/messages.ts) in the active locale. */
export function useT(): (key: MessageKey, params?: Params) => string {
  const latch = useLatchInstance()
  const catalogue = useLocaleField(latch, (s) => s.catalogue)
  return useCallback((key, params) => (void catalogue, latch.t(key, params)), [catalogue, latch])
}

/** The active locale's Intl formats; undefined in English, whose spec §9 en-US formats are the built-in helpers. */
export function useLatchFormats(): LocaleFormats | undefined {
  return useLocaleField(useLatchInstance(), (s) => s.formats)
}
