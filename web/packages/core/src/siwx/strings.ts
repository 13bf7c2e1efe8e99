// The sign-in flow's own strings (spec §8, verbatim). They live in the flow's
// lazy chunk rather than in core's catalogue, which every page loads first.
// Errors thrown at app developers (sign-in not enabled, no account) are
// English constants of flow.ts, not catalogue entries.
export const siwxStrings = {
  /** A decline in the wallet; SIWXSignMessage stays and shows it (spec §4). */
  'siwx.signatureDeclined': 'Signature declined',
  /** Any other failure of a sign-in. */
  'siwx.signMessageFailed': 'Sign message failed',
  /** The startup check failed: the wallet is disconnected and this shows (spec §4). */
  'siwx.authInit': 'A problem occurred while trying initialize authentication',
} as const

/** A key of the sign-in flow's strings. */
export type SiwxStringKey = keyof typeof siwxStrings
