// Which page origins may drive the frame: the project's allowed origins as
// latchd answers them (GET /auth/v1/origins), with "https://*.example.com"
// wildcards, and in latchd dev any http://localhost or http://127.0.0.1 port.
// latchd's CSP frame-ancestors refuses other embedders already; this check
// also covers a browser that ignores it and a window that is not our parent.

/** The rule latchd sends. */
export interface OriginRule {
  readonly allowedOrigins: readonly string[]
  readonly localOrigins: boolean
}

/** originAllowed reports whether origin (a browser's serialized origin) may talk to the frame. */
export function originAllowed(origin: string | undefined, rule: OriginRule): boolean {
  if (!origin || origin === 'null') return false
  let u: URL
  try {
    u = new URL(origin)
  } catch {
    return false
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.origin !== origin) return false
  if (rule.localOrigins && u.protocol === 'http:' && (u.hostname === 'localhost' || u.hostname === '127.0.0.1')) return true
  for (const allowed of rule.allowedOrigins) {
    if (allowed === origin) return true
    const star = allowed.indexOf('://*.')
    if (star > 0) {
      const scheme = allowed.slice(0, star + 1)
      const suffix = allowed.slice(star + 4) // ".example.com"
      if (u.protocol === scheme && u.host.endsWith(suffix) && u.host.length > suffix.length) return true
    }
  }
  return false
}

/**
 * embedderOrigin is the origin of the page that embeds the frame: the
 * browser's ancestorOrigins where it has them, else the referrer's origin.
 */
export function embedderOrigin(loc: { ancestorOrigins?: DOMStringList }, referrer: string): string | undefined {
  const a = loc.ancestorOrigins
  if (a && a.length > 0) return a.item(0) ?? undefined
  if (!referrer) return undefined
  try {
    return new URL(referrer).origin
  } catch {
    return undefined
  }
}
