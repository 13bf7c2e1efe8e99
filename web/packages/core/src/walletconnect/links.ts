// Links that hand a pairing URI to a wallet app: the registry's mobile_link,
// desktop_link and webapp_link plus `wc?uri=<URL-encoded wc: URI>`.
//
// Registry links come in two kinds. An http(s) link is a universal link (iOS)
// or app link (Android): the OS opens the app when it is installed and the
// browser shows the wallet's web page otherwise. Anything else is a custom
// scheme (`metamask://`, `trust:`, `rainbow`), normalised to `scheme://`.
// Either way the URI goes in one query parameter, URL-encoded, so its own
// `?`, `&` and `=` cannot leak into the link.

/** A link to open, and the bare app link (for "open the app" without a pairing). */
export interface WalletLink {
  /** The link carrying the pairing, e.g. `metamask://wc?uri=wc%3A…`. */
  readonly redirect: string
  /** The wallet's link without the pairing, e.g. `metamask://`. */
  readonly href: string
}

/** isHttpUrl reports whether a registry link is a universal (web) link rather than a custom scheme. */
export function isHttpUrl(url: string): boolean {
  return url.startsWith('http://') || url.startsWith('https://')
}

/** formatUniversalLink builds `https://wallet.example/wc?uri=…` from an http(s) app link. */
export function formatUniversalLink(appUrl: string, wcUri: string): WalletLink {
  if (!isHttpUrl(appUrl)) return formatNativeLink(appUrl, wcUri)
  const href = appUrl.endsWith('/') ? appUrl : `${appUrl}/`
  return { redirect: `${href}wc?uri=${encodeURIComponent(wcUri)}`, href }
}

/**
 * formatNativeLink builds `scheme://wc?uri=…` from a custom-scheme app link.
 * A bare scheme (`trust`, `trust:`, `trust:/`) becomes `trust://`; an http(s)
 * link is treated as the universal link it is.
 */
export function formatNativeLink(appUrl: string, wcUri: string): WalletLink {
  if (isHttpUrl(appUrl)) return formatUniversalLink(appUrl, wcUri)
  let href = appUrl
  if (!href.includes('://')) href = `${href.replaceAll('/', '').replaceAll(':', '')}://`
  if (!href.endsWith('/')) href = `${href}/`
  return { redirect: `${href}wc?uri=${encodeURIComponent(wcUri)}`, href }
}

/** Ways to hand a pairing to a wallet (AppKit's platforms of the ConnectingWalletConnect view). */
export type WalletConnectPlatform = 'qrcode' | 'mobile' | 'desktop' | 'web'

/** The links of a wallet that matter for WalletConnect. */
export interface WalletLinks {
  readonly mobileLink?: string | null | undefined
  readonly desktopLink?: string | null | undefined
  readonly webappLink?: string | null | undefined
}

/**
 * walletConnectPlatforms lists how the ConnectingWalletConnect view can reach
 * a wallet, the first being the default: on a phone the deep link (mobile),
 * elsewhere the QR code a phone scans; then the wallet's web app; then, on a
 * computer, its desktop app. A wallet without any link (or no wallet at all,
 * the generic WalletConnect entry) gets the QR code only.
 */
export function walletConnectPlatforms(wallet: WalletLinks | undefined, isMobile: boolean): WalletConnectPlatform[] {
  if (!wallet) return ['qrcode']
  const platforms: WalletConnectPlatform[] = []
  if (wallet.mobileLink) platforms.push(isMobile ? 'mobile' : 'qrcode')
  if (wallet.webappLink) platforms.push('web')
  if (wallet.desktopLink && !isMobile) platforms.push('desktop')
  // No link at all: the QR code is still a way in (any WalletConnect wallet, on another device, can scan it).
  return platforms.length > 0 ? platforms : ['qrcode']
}

/** The link a platform opens with a pairing URI, or undefined when the wallet has no link for it. */
export function walletConnectLink(wallet: WalletLinks, platform: WalletConnectPlatform, wcUri: string): WalletLink | undefined {
  switch (platform) {
    case 'mobile':
      return wallet.mobileLink ? formatNativeLink(wallet.mobileLink, wcUri) : undefined
    case 'desktop':
      return wallet.desktopLink ? formatNativeLink(wallet.desktopLink, wcUri) : undefined
    case 'web':
      return wallet.webappLink ? formatUniversalLink(wallet.webappLink, wcUri) : undefined
    case 'qrcode':
      return undefined
  }
}

/**
 * linkTarget is the window a wallet link opens in. On a phone the wallet app
 * takes over, so the link replaces the page (`_top` from inside a frame,
 * which could not navigate to an app otherwise). On a computer a web app or a
 * universal link opens in a new tab so the dapp keeps waiting for the session;
 * a custom scheme never replaces the page (the OS hands it to the app), so it
 * opens in place rather than leaving an empty tab behind.
 */
export function linkTarget(platform: WalletConnectPlatform, url: string, inFrame: boolean): '_self' | '_top' | '_blank' {
  if (platform === 'mobile') return inFrame ? '_top' : '_self'
  return isHttpUrl(url) ? '_blank' : inFrame ? '_top' : '_self'
}
