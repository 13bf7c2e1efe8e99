// The embedded wallet's state: the `embedded` slice of the instance's root
// store, read by the e-mail views. Types and the initial value only, so the
// first load carries none of the frame's code.
import type { FrameStatus } from './frameClient'
import type { ApprovalRequest, FrameUser } from './protocol'

/**
 * Where an e-mail login stands: nothing yet; the code is being requested;
 * the mailed code is awaited; the approval link is awaited (new device);
 * the code was accepted and the wallet is loading ('Authenticating...');
 * a new device of a wallet in password recovery mode waits for the
 * visitor's recovery password ('Recovery password required'); signed in.
 */
export type EmbeddedStep = 'idle' | 'sending' | 'otp' | 'device' | 'authenticating' | 'recoveryPassword' | 'connected'

/** Where an e-mail change stands (spec §4: the current address's code, then the new one's). */
export type EmailUpdateStep = 'idle' | 'sending' | 'primaryOtp' | 'secondaryOtp' | 'done'

/** The OAuth providers of social login (spec §5). */
export type SocialProviderName = 'google' | 'github' | 'apple' | 'facebook' | 'x' | 'discord'

/** Every social of the widget's list: the OAuth providers and Farcaster (spec §9). */
export type SocialName = SocialProviderName | 'farcaster'

/**
 * Where a social login stands, the embedded wallet's auth provider (spec §3;
 * none: e-mail, the default): the popup is open; Farcaster's QR code (`uri`)
 * waits for the visitor's Farcaster client; the frame is exchanging the
 * result; done; or failed with `error`.
 */
export interface SocialLoginState {
  readonly provider: SocialName
  readonly step: 'popup' | 'qr' | 'connecting' | 'done' | 'error'
  readonly error: string | undefined
  /** Farcaster's farcaster:// URI, shown as a QR code. */
  readonly uri?: string
}

/** The embedded wallet's state, the `embedded` slice of the root store. */
export interface EmbeddedState {
  readonly step: EmbeddedStep
  /** The address the code went to (or the signed-in user's). */
  readonly email: string | undefined
  /** The signed-in visitor, once the frame answered GET_USER. */
  readonly user: FrameUser | undefined
  /** The last failure of a login step, shown under the field or the code boxes. */
  readonly error: string | undefined
  /** The signing request the frame waits for the visitor to approve or reject. */
  readonly approval: ApprovalRequest | undefined
  /** The frame's lifecycle. */
  readonly frame: FrameStatus
  /** ms since epoch when a new code may be asked for (spec §9: 30 s after the last). */
  readonly resendAt: number
  /** The social login in progress or last tried (set by connectSocial; none before). */
  readonly social?: SocialLoginState
  /** The e-mail change in progress. */
  readonly update: { readonly step: EmailUpdateStep; readonly newEmail: string | undefined; readonly error: string | undefined }
}

/** The embedded slice before anything happened. */
export function initialEmbeddedState(): EmbeddedState {
  return {
    step: 'idle',
    email: undefined,
    user: undefined,
    error: undefined,
    approval: undefined,
    frame: 'idle',
    resendAt: 0,
    update: { step: 'idle', newEmail: undefined, error: undefined },
  }
}
