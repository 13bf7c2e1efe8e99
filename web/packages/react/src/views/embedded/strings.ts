// The e-mail views' own strings (English). They live in the views' lazy
// chunk rather than in core's catalogue, which is part of every page's first
// load; a translation replaces this object like core's catalogue.
import { useStrings, type StringKey } from '../../hooks/useT'

/** The e-mail views' strings; `{name}` placeholders are filled from params. */
export const embeddedStrings = {
  'email.continue': 'Continue',
  'email.codeSentTo': 'Enter the code we sent to {email}',
  'email.codeLabel': 'Digit {n} of the code',
  'email.codeExpiry': 'The code expires in 10 minutes',
  'email.resend': 'Resend code',
  // The resend cooldown, by the seconds left (`count`).
  'email.cooldown_one': 'Please try again after {count} second',
  'email.cooldown_other': 'Please try again after {count} seconds',
  'email.didNotGetIt': "Didn't receive it?",
  'email.deviceTitle': 'Register this device to continue',
  'email.deviceApprove': 'Approve the login link we sent to {email}',
  'email.deviceExpiry': 'The link expires in 10 minutes',
  'email.recoveryTitle': 'Recovery password required',
  'email.recoveryHint': 'This device is new to your wallet: enter the recovery password you chose for it',
  'email.recoveryLabel': 'Recovery password',
  'email.newAddress': 'New email',
  'email.update': 'Update email',
  'email.updateCodeCurrent': 'Enter the code we sent to your current address {email}',
  'email.updateCodeNew': 'Enter the code we sent to {email}',
  'email.updated': 'Your email is now {email}',
  'approve.message': 'Message',
  'approve.typedData': 'Typed data',
  'approve.recipient': 'Recipient',
  'approve.amount': 'Amount',
  'approve.token': 'Token',
  'approve.fee': 'Network fee',
  'approve.feeByWallet': 'Estimated when sent',
  'approve.feeSponsored': 'Paid by the app',
  'approve.network': 'Network',
  'approve.data': 'Data',
  'approve.approve': 'Approve',
  'approve.reject': 'Reject',
  'approve.signMessage': 'Sign this message?',
  'approve.sendTransaction': 'Send this transaction?',
  'account.type': 'Account type',
  'account.typeSmart': 'Smart account',
  'account.typeEoa': 'EOA',
  'account.notDeployed': 'Deployed with its first transaction',
  'account.toSmart': 'Switch to smart account',
  'account.toEoa': 'Switch to EOA',
} as const

/** A key of the e-mail views' strings (a plural group by its base). */
export type EmbeddedStringKey = StringKey<keyof typeof embeddedStrings>

/** useEmbeddedT returns the e-mail views' string lookup, filling `{name}` placeholders. */
export function useEmbeddedT(): (key: EmbeddedStringKey, params?: Record<string, string | number>) => string {
  return useStrings(embeddedStrings)
}
