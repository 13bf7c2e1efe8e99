// The names flow's messages the visitor sees (English; spec §5 verbatim where
// it has them): the account-name rules as the visitor types, and a
// registration's missing prerequisites. They live in the names chunk rather
// than in core's catalogue (which holds latchd failures' fallbacks, names.*Error).
export const namesFlowStrings = {
  'names.ruleRequired': 'A name is required',
  'names.ruleOneLabel': 'A name is one label, without dots',
  'names.ruleCharacter': 'A name may only contain letters, digits and hyphens, not {character}',
  'names.ruleTooShort_one': 'A name must be at least {count} character',
  'names.ruleTooShort_other': 'A name must be at least {count} characters',
  'names.ruleTooLong_one': 'A name must be at most {count} character',
  'names.ruleTooLong_other': 'A name must be at most {count} characters',
  'names.ruleHyphens': 'A name must not have hyphens as its third and fourth characters',
  'names.networkNotFound': 'Network not found',
  'names.addressNotFound': 'Address or auth connector not found',
  'names.evmOnly': 'Names can only be registered for EVM accounts',
  'names.alreadyTaken': '{name} is already taken',
} as const

/** A key of the names flow's messages (a plural group by its base, e.g. names.ruleTooShort). */
export type NamesFlowStringKey =
  | Exclude<keyof typeof namesFlowStrings, `${string}_${'one' | 'other'}`>
  | 'names.ruleTooShort'
  | 'names.ruleTooLong'
