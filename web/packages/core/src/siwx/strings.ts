// The sign-in flow's own strings (spec §8, verbatim). They live in the flow's
// lazy chunk rather than in core's catalogue, which every page loads first.
export const SIWX_STRINGS = {
  /** A decline in the wallet; SIWXSignMessage stays and shows it (spec §4). */
  signatureDeclined: 'Signature declined',
  /** Any other failure of a sign-in. */
  signMessageFailed: 'Sign message failed',
  /** The startup check failed: the wallet is disconnected and this shows (spec §4). */
  authInit: 'A problem occurred while trying initialize authentication',
  notEnabled: 'SIWX is not enabled',
  noAccount: 'No ActiveCaipAddress found',
  noClient: 'No ConnectionController client found',
} as const
