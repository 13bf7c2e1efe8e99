// Alert banner controller (spec §2: open or closed, variants info, warning,
// error) and the catalogue of alert codes (spec §8). Each code is shown at most
// once per session so a page that retries a failing call does not flash the
// same banner again and again.
import { t, type MessageKey } from './messages'
import { createStore, type SliceFactory, type Store } from './store'

/** Alert variants. */
export type AlertVariant = 'info' | 'warning' | 'error'

/** One alert definition: its short title, its longer explanation and its variant. */
export interface AlertDefinition {
  readonly title: MessageKey
  readonly description: MessageKey
  readonly variant: AlertVariant
}

/** Alert codes (spec §8 and api-shapes §1.3/§1.5). */
export const ALERTS = {
  PROJECT_ID_NOT_CONFIGURED: {
    title: 'alert.projectIdNotConfigured',
    description: 'alert.projectIdNotConfiguredLong',
    variant: 'error',
  },
  INVALID_APP_CONFIGURATION: {
    title: 'alert.invalidAppConfiguration',
    description: 'alert.invalidAppConfigurationLong',
    variant: 'error',
  },
  INVALID_PROJECT_ID: { title: 'alert.invalidAppConfiguration', description: 'alert.invalidProjectIdLong', variant: 'error' },
  ORIGIN_NOT_ALLOWED: { title: 'alert.invalidAppConfiguration', description: 'alert.originNotAllowedLong', variant: 'error' },
  SWITCH_NETWORK_NOT_FOUND: { title: 'alert.networkNotFound', description: 'alert.networkNotFoundLong', variant: 'error' },
  LOCAL_CONFIGURATION_IGNORED: {
    title: 'alert.localConfigurationIgnored',
    description: 'alert.localConfigurationIgnoredLong',
    variant: 'warning',
  },
  RATE_LIMITED: { title: 'alert.rateLimited', description: 'alert.rateLimitedLong', variant: 'error' },
  SERVER_ERROR: { title: 'alert.serverError', description: 'alert.serverErrorLong', variant: 'error' },
  NETWORK_ERROR: { title: 'alert.networkError', description: 'alert.networkErrorLong', variant: 'error' },
  EMBEDDED_WALLET_REQUEST_TIMEOUT: {
    title: 'alert.embeddedRequestTimeout',
    description: 'alert.embeddedRequestTimeoutLong',
    variant: 'error',
  },
  SESSION_EXPIRED: { title: 'alert.sessionExpired', description: 'alert.sessionExpiredLong', variant: 'warning' },
  UNVERIFIED_DOMAIN: { title: 'alert.unverifiedDomain', description: 'alert.unverifiedDomainLong', variant: 'error' },
  IFRAME_LOAD_FAILED: { title: 'alert.iframeLoadFailed', description: 'alert.iframeLoadFailedLong', variant: 'error' },
  IFRAME_REQUEST_TIMEOUT: {
    title: 'alert.iframeRequestTimeout',
    description: 'alert.iframeRequestTimeoutLong',
    variant: 'error',
  },
} as const satisfies Record<string, AlertDefinition>

/** An alert code. */
export type AlertCode = keyof typeof ALERTS

/** Alert banner state. */
export interface AlertState {
  readonly open: boolean
  readonly variant: AlertVariant
  readonly code: AlertCode | undefined
  /** Title and description in English, as logged; the banner shows alertMessage's text in the active locale. */
  readonly title: string
  readonly description: string
  /** The `{name}` params the texts were filled with. */
  readonly params?: Readonly<Record<string, string | number>> | undefined
}

/** Options of the alert controller. */
export interface AlertControllerOptions {
  /**
   * options.debug: when false, alerts are only logged, never shown (AppKit's
   * `debug` shows UI alerts for configuration errors; default true).
   */
  readonly debug?: boolean
  /** Where every alert is also logged; defaults to console. */
  readonly log?: (variant: AlertVariant, message: string) => void
  /** Where the state lives: a slice of the instance's root store (default: a store of its own). */
  readonly slice?: SliceFactory<AlertState>
}

/** The alert controller. */
export interface AlertController {
  readonly store: Store<AlertState>
  /**
   * Shows the alert for code with `{name}` params, unless this code was shown
   * before in this session; returns whether it was shown.
   */
  show(code: AlertCode, params?: Readonly<Record<string, string | number>>): boolean
  /** Closes the banner. */
  close(): void
  /** Whether code was already shown in this session. */
  wasShown(code: AlertCode): boolean
}

const closedAlert: AlertState = { open: false, variant: 'info', code: undefined, title: '', description: '' }

function defaultLog(variant: AlertVariant, message: string): void {
  if (variant === 'error') console.error(message)
  else if (variant === 'warning') console.warn(message)
  else console.info(message)
}

/** alertMessage is what the banner of an open alert says: its description in the locale's catalogue (English without one). */
export function alertMessage(code: AlertCode, params: AlertState['params'], catalogue?: Readonly<Record<string, string>>, locale?: string): string {
  return t(ALERTS[code].description, params, catalogue, locale)
}

/** createAlertController makes a closed alert banner. */
export function createAlertController(options: AlertControllerOptions = {}): AlertController {
  const store = (options.slice ?? createStore)(closedAlert)
  const shown = new Set<AlertCode>()
  const log = options.log ?? defaultLog
  return {
    store,
    show(code, params) {
      if (shown.has(code)) return false
      shown.add(code)
      const definition: AlertDefinition = ALERTS[code]
      const title = t(definition.title, params)
      const description = t(definition.description, params)
      log(definition.variant, `[latch] ${title}: ${description}`)
      if (options.debug === false) return false
      store.setState({ open: true, variant: definition.variant, code, title, description, params })
      return true
    },
    close() {
      store.setState({ open: false })
    },
    wasShown: (code) => shown.has(code),
  }
}
