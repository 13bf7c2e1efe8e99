// The embedded wallet's page-side timings (spec §9) and messages (spec §8):
// a file without imports, so the first load can read them while the frame
// client itself stays an on-demand chunk.

/** Spec §9: the frame is marked initialised this long after READY. */
export const FRAME_READY_DELAY_MS = 500
/** Spec §9: the frame must announce READY within this time of a request. */
export const FRAME_LOAD_TIMEOUT_MS = 20_000
/** Spec §9: connect calls (e-mail, device, code) must be answered within this time. */
export const FRAME_REQUEST_TIMEOUT_MS = 30_000
/**
 * How long the page waits for a new device's approval: the mailed link's
 * 10-minute expiry. Not the 30 s connect timeout: the frame answers
 * CONNECT_DEVICE only once the visitor opened the link, which may take minutes.
 */
export const DEVICE_APPROVAL_TIMEOUT_MS = 10 * 60_000
/** Spec §4, §9: an unknown RPC method opens the modal; its message shows this long after. */
export const UNKNOWN_METHOD_MESSAGE_DELAY_MS = 300
/** Spec §9: sign-out waits at most this long for the frame. */
export const FRAME_SIGN_OUT_WAIT_MS = 3_000
/** Spec §9: e-mail login cooldown. */
export const EMAIL_LOGIN_COOLDOWN_MS = 30_000

/** Spec §8 messages. */
export const FRAME_LOAD_FAILED_MESSAGE = 'Unable to load email login dependency'
export const RPC_ABORTED_MESSAGE = 'Request was aborted'
export const REQUEST_ABORTED_MESSAGE = 'Something went wrong'
/** The approval link expired before it was opened (the frame's own message for it, too). */
export const DEVICE_APPROVAL_EXPIRED_MESSAGE = 'Device approval expired: please start again'
/** A Farcaster sign-in's QR code is good for latchd's 10-minute channel; then the wait ends with this. */
export const FARCASTER_EXPIRED_MESSAGE = 'This Farcaster sign-in has expired: please start again'
export const FRAME_NOT_SET_MESSAGE = 'Latch frame: iframe is not set; parent is not set'

/** The embedded wallet's name: its wagmi connector's, and its Wallet Standard wallet's (the Solana key). */
export const EMBEDDED_CONNECTOR_NAME = 'E-mail wallet'
