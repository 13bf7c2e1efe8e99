// Sign In With Farcaster in the frame (docs/social.md): the frame opens a
// channel on latchd with the S256 challenge of a verifier it keeps (the
// channel token travels in the QR code, so the connect needs the verifier
// too), then polls the channel until the visitor's Farcaster client posted
// the signed message, and spends it for a session.
import type { AuthApi, Session } from './authApi'
import { challengeOf, newVerifier } from './social'

/** How often CONNECT_FARCASTER asks latchd whether the Farcaster client completed the channel. */
export const FARCASTER_POLL_MS = 1500
/** CONNECT_FARCASTER before GET_FARCASTER_URI (or after its channel was spent). */
export const NO_FARCASTER_LOGIN = 'No Farcaster sign-in in progress: please start again'

/** The channel this frame opened last. */
interface OpenChannel {
  readonly token: string
  readonly verifier: string
}

/** What the Farcaster sign-in needs of the wallet. */
export interface FarcasterDeps {
  readonly api: Pick<AuthApi, 'farcasterChannel' | 'farcasterStatus' | 'farcasterConnect'>
  readonly deviceId: () => Promise<string>
  /** Waits ms or rejects when signal aborts. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>
}

/** createFarcasterLogin keeps the frame's one Farcaster channel. */
export function createFarcasterLogin(deps: FarcasterDeps) {
  let open: OpenChannel | undefined
  return {
    /** uri opens a new channel for the page on parentOrigin and returns its farcaster:// URI (GET_FARCASTER_URI). */
    async uri(parentOrigin: string): Promise<{ url: string }> {
      const verifier = newVerifier()
      const ch = await deps.api.farcasterChannel({ deviceId: await deps.deviceId(), codeChallenge: await challengeOf(verifier), parentOrigin })
      open = { token: ch.channelToken, verifier }
      return { url: ch.url }
    },
    /**
     * connect waits until the channel is completed (latchd's errors end it:
     * an expired channel), then spends it with the verifier for a session.
     */
    async connect(signal?: AbortSignal): Promise<{ session: Session; username: string }> {
      const ch = open
      if (!ch) throw new Error(NO_FARCASTER_LOGIN)
      const deviceId = await deps.deviceId()
      for (;;) {
        const { state } = await deps.api.farcasterStatus({ channelToken: ch.token, deviceId })
        if (state === 'completed') break
        await deps.sleep(FARCASTER_POLL_MS, signal)
      }
      if (open === ch) open = undefined
      const r = await deps.api.farcasterConnect({ channelToken: ch.token, codeVerifier: ch.verifier, deviceId })
      return { session: r.session, username: r.username }
    },
    clear(): void {
      open = undefined
    },
  }
}
