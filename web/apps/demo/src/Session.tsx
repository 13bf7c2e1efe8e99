import { useLatchSession } from '@latchkit/react'

/** Sign-in with X (on with ?siwx=optional|required): the session as useLatchSession() sees it, and its actions. */
export function Session() {
  const session = useLatchSession()
  if (session.status === 'disabled') return null
  return (
    <section style={{ marginTop: 24 }}>
      <h2 style={{ fontSize: 18 }}>Sign-in {session.required ? '(required)' : '(optional)'}</h2>
      <pre data-testid="demo-session">
        {JSON.stringify({ status: session.status, address: session.session?.data.accountAddress ?? null, error: session.error ?? null }, null, 2)}
      </pre>
      <div style={{ display: 'flex', gap: 8 }}>
        <button data-testid="demo-sign-in" disabled={session.status !== 'signed-out'} onClick={() => void session.signIn().catch(() => {})}>
          Sign in
        </button>
        <button data-testid="demo-sign-out" disabled={session.status !== 'signed-in'} onClick={() => void session.signOut()}>
          Sign out
        </button>
      </div>
    </section>
  )
}
