// The send flow's visitor-facing strings (English; spec §5, §8 verbatim where
// it has them). They live in the send chunk rather than in core's catalogue,
// which every page loads first. Messages for app developers (send options of
// the wrong namespace or kind) stay English in errors.ts.
export const sendStrings = {
  'send.estimateGas': 'error estimating gas',
  'send.userRejected': 'User rejected the request.',
  'send.amountNotPositive': 'The amount must be greater than 0',
  'send.invalidDecimal': 'Number `{value}` is not a valid decimal number.',
  'send.invalidAddress': 'Address "{value}" is invalid.',
  'send.invalidChecksum': 'Address "{value}" has an invalid checksum.',
  'send.invalidSolanaAddress': '"{value}" is not a Solana address.',
  'send.nameNotResolved': 'No address found for {name}',
  'send.namesUnsupported': 'Names cannot be resolved on {network}',
  'send.insufficientToken': 'Insufficient {symbol} balance',
  'send.insufficientForFee': 'Insufficient {symbol} balance for the amount plus the network fee',
  'send.insufficientFeeOnly': 'Insufficient {symbol} balance to pay the network fee',
  'send.insufficientFunds': 'Insufficient funds for the amount plus the network fee',
  'send.gasTooLow': 'The gas limit is too low for this transaction',
  'send.gasTooHigh': 'The gas limit is above what the network allows',
  'send.feeCapTooLow': 'The max fee per gas is below the network’s base fee',
  'send.feeCapTooHigh': 'The max fee per gas is too high',
  'send.tipAboveFeeCap': 'The priority fee is higher than the max fee per gas',
  'send.nonce': 'The transaction nonce is out of date; try again',
  'send.reverted': 'The transaction would fail: {reason}',
  'send.revertedUnknown': 'The transaction would fail: unknown reason',
  'send.solanaTransactionFailed': 'The transaction failed on chain: {reason}',
  'send.wrongChain': 'The wallet is on chain {walletChain}, not {chainId}; switch networks and try again',
  'send.wrongSolanaAccount': 'The connected Solana account is {account}, not {from}',
  'send.solanaCannotSign': '{wallet} can neither sign nor send Solana transactions',
  'send.alreadyRunning': 'A send is already running',
  'send.failed': 'Send failed',
  'send.sent': 'Sent {amount} {symbol}',
  'send.viewOn': 'View on {name}',
  'send.viewTransaction': 'View transaction',
} as const

/** A key of the send flow's strings. */
export type SendStringKey = keyof typeof sendStrings
