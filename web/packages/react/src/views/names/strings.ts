// The names views' own strings (English). They live in the views' lazy chunk
// rather than in core's catalogue, which is part of every page's first load.
import { useStrings } from '../../hooks/useT'

/** The names views' strings; `{name}` placeholders are filled from params. */
export const namesStrings = {
  'names.label': 'Name',
  'names.placeholder': 'Choose a name',
  'names.available': '{name} is available',
  'names.taken': '{name} is taken',
  'names.suggestions': 'Free names like it',
  'names.checking': 'Checking…',
  'names.register': 'Register',
  'names.signing': 'Sign the message in your wallet…',
  'names.registering': 'Registering…',
  'names.success': '{name} is now your name',
  'names.done': 'Done',
  'names.embeddedOnly': 'Names are registered by the e-mail or social login wallet: connect with it to choose a name.',
} as const

/** A key of the names views' strings. */
export type NamesStringKey = keyof typeof namesStrings

/** useNamesT returns the names views' string lookup, filling `{name}` placeholders. */
export function useNamesT(): (key: NamesStringKey, params?: Record<string, string | number>) => string {
  return useStrings(namesStrings)
}
