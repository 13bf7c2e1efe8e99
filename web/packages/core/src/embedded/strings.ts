// The e-mail wallet's messages a visitor sees (issue 24). The frame client,
// the popup and the protocol keep their English constants (they travel between
// the page and the frame, and the actions compare them); the actions turn the
// ones that reach the views into the active locale's text (required.ts's
// shownError). Errors thrown at app developers (the wallet is off, the
// iframe is not set) stay English constants and are not here.
export const embeddedStrings = {
  /** An e-mail field that is not a valid e-mail (spec §5). */
  'embedded.invalidEmail': 'Invalid email address',
  /** The frame answered an error without a message. */
  'embedded.errorFallback': 'An error occurred',
  /** The social login's popup was closed first. */
  'embedded.popupClosed': 'The login window was closed before the login finished',
  /** The browser refused the social login's popup. */
  'embedded.popupBlocked': 'The login window was blocked: allow pop-ups for this site and try again',
  /** The social login's popup did not answer within its wait. */
  'embedded.popupTimeout': 'The social login took too long: please start again',
  /** The device approval link expired before it was used. */
  'embedded.deviceApprovalExpired': 'Device approval expired: please start again',
  /** The Farcaster sign-in's channel expired. */
  'embedded.farcasterExpired': 'This Farcaster sign-in has expired: please start again',
  /** The wallet's frame did not load. */
  'embedded.frameLoadFailed': 'Unable to load email login dependency',
  /** A wallet request was given up. */
  'embedded.requestAborted': 'Request was aborted',
  /** The recovery password was wrong. */
  'embedded.recoveryPasswordWrong': 'Wrong recovery password',
  /** The visitor declined in the wallet's approval. */
  'embedded.signatureDeclined': 'Signature declined',
} as const

/** A key of the e-mail wallet's strings. */
export type EmbeddedStringKey = keyof typeof embeddedStrings
