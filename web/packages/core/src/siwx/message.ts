// The text of a sign-in message (EIP-4361, and CAIP-122 for Solana) from its
// fields, as latchd's parser reads it (docs/siwx.md): the first line names
// the namespace's account kind, the Chain ID is the bare reference, lines end
// with \n, and a message without a statement has one blank line before URI.
import type { SIWXMessage, SIWXMessageData } from '../siwx'

/** The account kind the first line names, by CAIP-2 namespace. */
const ACCOUNT_KINDS: Readonly<Record<string, string>> = { eip155: 'Ethereum', solana: 'Solana' }

/** Thrown when a message cannot be written for its fields. */
export class SiwxMessageError extends Error {
  override name = 'SiwxMessageError'
}

/** formatSiwxMessage writes the message text of `data`; it throws for a namespace without a sign-in message. */
export function formatSiwxMessage(data: SIWXMessageData): string {
  const [namespace, reference] = data.chainId.split(':')
  const kind = namespace ? ACCOUNT_KINDS[namespace] : undefined
  if (!kind || !reference) throw new SiwxMessageError(`Sign-in is not supported on ${data.chainId}`)
  for (const [field, value] of Object.entries(data)) {
    if (typeof value === 'string' && value.includes('\n')) throw new SiwxMessageError(`The sign-in message's ${field} must be one line`)
  }
  const lines = [`${data.domain} wants you to sign in with your ${kind} account:`, data.accountAddress, '']
  if (data.statement) lines.push(data.statement, '')
  lines.push(`URI: ${data.uri}`, `Version: ${data.version}`, `Chain ID: ${reference}`, `Nonce: ${data.nonce}`)
  lines.push(`Issued At: ${data.issuedAt ?? new Date().toISOString()}`)
  if (data.expirationTime) lines.push(`Expiration Time: ${data.expirationTime}`)
  if (data.notBefore) lines.push(`Not Before: ${data.notBefore}`)
  if (data.requestId) lines.push(`Request ID: ${data.requestId}`)
  if (data.resources?.length) lines.push('Resources:', ...data.resources.map((r) => `- ${r}`))
  return lines.join('\n')
}

/** createSiwxMessage is a SIWXMessage of `data` (issuedAt filled in), whose toString() is its text. */
export function createSiwxMessage(data: SIWXMessageData): SIWXMessage {
  const filled: SIWXMessageData = { ...data, issuedAt: data.issuedAt ?? new Date().toISOString() }
  const text = formatSiwxMessage(filled)
  return { ...filled, toString: () => text }
}

/** messageDataOf keeps a message's fields without its toString (what a session stores). */
export function messageDataOf(message: SIWXMessageData): SIWXMessageData {
  const { accountAddress, chainId, domain, uri, version, nonce } = message
  const optional = (['statement', 'issuedAt', 'expirationTime', 'notBefore', 'requestId', 'resources'] as const).filter((key) => message[key] !== undefined)
  return { accountAddress, chainId, domain, uri, version, nonce, ...Object.fromEntries(optional.map((key) => [key, message[key]])) }
}
