// Social login's PKCE (RFC 7636, S256) in the frame: the verifier is made
// and kept here, only its challenge goes to latchd and the provider, so a
// result URI that leaks from the popup or the page is useless without this
// frame. Verifiers are kept by the login's state, the last few only.
import { base64urlnopad } from '@scure/base'

/** How many started social logins the frame remembers (a visitor may retry). */
const MAX_PENDING = 5

/** newVerifier is 32 random bytes, base64url: a 43-character PKCE verifier. */
export function newVerifier(): string {
  return base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(32)))
}

/** challengeOf is BASE64URL(SHA-256(verifier)) (S256). */
export async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))
  return base64urlnopad.encode(new Uint8Array(digest))
}

/** stateOf reads the state parameter of an authorization or result URI. */
export function stateOf(uri: string): string | undefined {
  try {
    return new URL(uri).searchParams.get('state') ?? undefined
  } catch {
    return undefined
  }
}

/** PendingLogins keeps the verifiers of the social logins started here, by state. */
export class PendingLogins {
  private readonly byState = new Map<string, string>()

  add(state: string, verifier: string): void {
    this.byState.set(state, verifier)
    for (const key of this.byState.keys()) {
      if (this.byState.size <= MAX_PENDING) break
      this.byState.delete(key)
    }
  }

  /** take returns the verifier of state and forgets it (a result is spent once). */
  take(state: string): string | undefined {
    const v = this.byState.get(state)
    this.byState.delete(state)
    return v
  }

  clear(): void {
    this.byState.clear()
  }
}
