// Core's English catalogue: the strings core itself shows (alerts, errors and
// toasts) and the connect button's. It is part of every page's first load, so
// it holds nothing else: the dialog's strings are in its lazy chunk
// (react/src/components/LatchModal/strings.ts), each area's in its own
// strings.ts, and every other language is a chunk of its own (i18n/). Strings
// quoted by the spec (§5, §6, §8) are kept verbatim.

const en = {
  // The connect button
  'button.connect': 'Connect Wallet',
  'button.connecting': 'Connecting...',
  'button.switchNetwork': 'Switch network',

  // Connecting states
  'connecting.declined': 'Connection declined',
  'connecting.notInstalled': '{name} is not installed',

  // Toasts
  'account.addressCopied': 'Address copied',
  'account.balanceUnavailable': 'Token Balance Unavailable',

  // Networks
  'network.switchDeclined': 'Switch declined',
  'network.notFound': 'Network Not Found',

  // Errors shown in the UI
  'error.generic': 'Something went wrong',
  'error.emailCooldown': 'Please try again after {n} seconds',
  'error.unsupportedChain': 'Unsupported chain',

  // Alerts (spec §8): short titles and the longer explanation logged / shown in debug mode
  'alert.projectIdNotConfigured': 'Project ID Not Configured',
  'alert.projectIdNotConfiguredLong':
    'Set `projectId` in the Latch options. It identifies your project to latchd; remote features are disabled without it.',
  'alert.invalidAppConfiguration': 'Invalid App Configuration',
  'alert.invalidAppConfigurationLong':
    'This origin is not on the project’s allowlist. Update the configuration of your project on your latchd.',
  'alert.originNotAllowedLong':
    'Origin {origin} is not on the project’s allowlist. Add it to the project’s allowed origins on your latchd.',
  'alert.invalidProjectIdLong': 'The project id is not valid. Check `projectId` in the Latch options.',
  'alert.localConfigurationIgnored': 'Local configuration ignored',
  'alert.localConfigurationIgnoredLong':
    'Your local configuration for {features} was ignored because the project’s remote configuration was fetched. Manage these features on your latchd.',
  'alert.networkNotFound': 'Network Not Found',
  'alert.networkNotFoundLong': 'The network you switched to is not among the configured `networks`.',
  'alert.rateLimited': 'Rate Limited',
  'alert.rateLimitedLong': 'latchd answered 429 Too Many Requests. Try again later.',
  'alert.serverError': 'Server Error',
  'alert.serverErrorLong': 'latchd answered with a server error while checking the project configuration.',
  'alert.networkError': 'Network Error',
  'alert.networkErrorLong': 'The embedded wallet could not load. Check your connection and try again.',
  'alert.embeddedRequestTimeout': 'Embedded Wallet Request Timed Out',
  'alert.embeddedRequestTimeoutLong': 'The embedded wallet did not answer in time.',
  'alert.sessionExpired': 'Session Expired',
  'alert.sessionExpiredLong': 'Your session expired. Sign in again.',
  'alert.unverifiedDomain': 'Invalid App Configuration',
  'alert.unverifiedDomainLong': 'This domain is not verified for the project.',
  'alert.iframeLoadFailed': 'Network Error',
  'alert.iframeLoadFailedLong': 'Unable to load email login dependency',
  'alert.iframeRequestTimeout': 'Embedded Wallet Request Timed Out',
  'alert.iframeRequestTimeoutLong': 'The embedded wallet frame did not answer in time.',

  // Send (spec §5)
  'send.amountAndReceiverRequired': 'An amount and receiver address are required',
  'send.tokenRequired': 'A token is required',

  // Names (spec §8)
  'names.resolveError': 'Error resolving name',
  'names.suggestionsError': 'Error fetching name suggestions',
  'names.forAddressError': 'Error fetching names for address',
  'names.registerError': 'Error registering name {name}',
} as const

/** Keys of the message catalogue. */
export type MessageKey = keyof typeof en

/** A catalogue: one string per key. Translations must supply every key. */
export type MessageCatalogue = Readonly<Record<MessageKey, string>>

/** The English catalogue, built in and the fallback of every other locale. */
export const messages: { readonly en: MessageCatalogue } = { en }

/** Values substituted into `{name}` placeholders; a numeric `count` also picks a plural form. */
export type MessageParams = Readonly<Record<string, string | number>>

const pluralRules = new Map<string, Intl.PluralRules>()

/**
 * lookup returns `english[key]`, or the active locale's string for it, with
 * `{name}` placeholders replaced from params. A numeric `params.count` picks
 * the plural form `key_<category>` (Intl.PluralRules of the locale) when the
 * catalogue has one. A placeholder without a value is left as is, so a missing
 * parameter is visible rather than silently blank.
 */
export function lookup(
  english: Readonly<Record<string, string>>,
  key: string,
  params?: MessageParams,
  catalogue?: Readonly<Record<string, string>>,
  locale = 'en',
): string {
  const source = catalogue ?? english
  let chosen = key
  if (typeof params?.count === 'number') {
    let rules = pluralRules.get(locale)
    if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)))
    const plural = `${key}_${rules.select(params.count)}`
    if (source[plural] !== undefined) chosen = plural
  }
  const template = source[chosen] ?? english[key] ?? key
  if (!params) return template
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    const value = params[name]
    return value === undefined ? placeholder : String(value)
  })
}

/** t returns core's message for key, in the given locale's catalogue when there is one (see lookup). */
export function t(key: MessageKey, params?: MessageParams, catalogue?: Readonly<Record<string, string>>, locale?: string): string {
  return lookup(en, key, params, catalogue, locale)
}
