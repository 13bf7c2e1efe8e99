// The send module of @latchkit/core: decimal amounts, validation with the
// spec's messages, error mapping, name resolution and the send controller.
// Loaded on demand through loadSendModule() so a page that never opens Send
// does not pay for it.
export {
  DEFAULT_DECIMAL_PLACES,
  formatDecimal,
  formatDecimalFixed,
  InvalidDecimalError,
  isDecimal,
  parseDecimal,
  transactionValue,
} from './decimal'
export { LatchSendError, SEND_MESSAGES, toSendError, type SendErrorKind } from './errors'
export {
  assertFeeFields,
  assertSendNamespace,
  hasSolanaSendOptions,
  SOLANA_COMMITMENTS,
  solanaSendOptions,
  type SolanaCommitment,
  type SolanaSendOptions,
  assertSufficientBalance,
  isSendNamespace,
  looksLikeName,
  maxSendable,
  parseReceiverAddress,
  SEND_NAMESPACES,
  tokenDecimals,
  validateSend,
  type BalanceCheck,
  type FeeOverrides,
  type SendInput,
  type SendNamespace,
  type ValidSend,
} from './validation'
export { type NameResolver } from './resolver'
export {
  createSendController,
  RECEIPT_RETRY_DELAY_MS,
  RECEIPT_TIMEOUT_MS,
  type FeeEstimate,
  type SendContext,
  type SendController,
  type SendControllerParameters,
  type SendNotice,
  type SendRequest,
  type SendResult,
  type SendState,
} from './controller'
export { sendControllerOf } from './instance'
