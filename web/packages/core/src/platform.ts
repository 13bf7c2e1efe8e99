// Platform facts, read lazily so importing in Node (SSR) never touches window.

/** isMobileUserAgent says whether ua (default: navigator.userAgent) is a phone or tablet browser. */
export function isMobileUserAgent(ua?: string): boolean {
  const agent = ua ?? (typeof navigator === 'undefined' ? '' : navigator.userAgent)
  return /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i.test(agent)
}
