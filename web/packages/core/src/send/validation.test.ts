import { describe, expect, it } from 'vitest'
import { LatchSendError, toSendError } from './errors'
import {
  assertFeeFields,
  assertSendNamespace,
  assertSufficientBalance,
  hasSolanaSendOptions,
  looksLikeName,
  maxSendable,
  parseReceiverAddress,
  SOLANA_COMMITMENTS,
  solanaSendOptions,
  validateSend,
  type SendInput,
} from './validation'

const usdc = { symbol: 'USDC', quantity: { decimals: '6', numeric: '100' } }
const eth = { symbol: 'ETH', quantity: { decimals: '18', numeric: '1' } }
const receiver = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' // dev account #2, checksummed
const base: SendInput = { namespace: 'eip155', token: usdc, amount: '1.5', receiver }

function errorOf(fn: () => unknown): LatchSendError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(LatchSendError)
    return error as LatchSendError
  }
  throw new Error('expected a LatchSendError')
}

describe('validateSend (spec §5)', () => {
  it('accepts a valid send: amount in smallest units, checksummed receiver', () => {
    expect(validateSend(base)).toEqual({ namespace: 'eip155', amount: 1_500_000n, decimals: 6, receiver })
    expect(validateSend({ ...base, receiver: receiver.toLowerCase() }).receiver).toBe(receiver)
    expect(validateSend({ ...base, token: eth, amount: '0.01' }).amount).toBe(10_000_000_000_000_000n)
  })

  it.each(['bip122', 'polkadot', 'cosmos', 'tron'])('"Unsupported chain" for %s', (namespace) => {
    const e = errorOf(() => validateSend({ ...base, namespace }))
    expect(e.message).toBe('Unsupported chain')
    expect(e.kind).toBe('unsupported_chain')
    expect(() => assertSendNamespace(namespace)).toThrow('Unsupported chain')
  })

  it('eip155 and solana are supported', () => {
    expect(() => assertSendNamespace('eip155')).not.toThrow()
    expect(() => assertSendNamespace('solana')).not.toThrow()
  })

  it.each([
    ['no amount', { amount: '' }],
    ['blank amount', { amount: '   ' }],
    ['no receiver', { receiver: '' }],
    ['undefined both', { amount: undefined, receiver: undefined }],
  ])('"An amount and receiver address are required": %s', (_, patch) => {
    const e = errorOf(() => validateSend({ ...base, ...patch }))
    expect(e.message).toBe('An amount and receiver address are required')
    expect(e.kind).toBe('missing_fields')
  })

  it('the fields check comes before the token check (AppKit order)', () => {
    expect(errorOf(() => validateSend({ ...base, token: undefined, amount: '' })).message).toBe('An amount and receiver address are required')
  })

  it('"A token is required"', () => {
    const e = errorOf(() => validateSend({ ...base, token: undefined }))
    expect(e.message).toBe('A token is required')
    expect(e.kind).toBe('missing_token')
  })

  it.each(['abc', '1,5', '1e3', '--2', '.'])('a non-decimal amount %j gets the spec message', (amount) => {
    const e = errorOf(() => validateSend({ ...base, amount }))
    expect(e.message).toBe(`Number \`${amount}\` is not a valid decimal number.`)
    expect(e.kind).toBe('invalid_amount')
  })

  it('extra fraction digits are rounded to the token decimals', () => {
    expect(validateSend({ ...base, amount: '1.0000005' }).amount).toBe(1_000_001n)
    expect(validateSend({ ...base, amount: '1.0000004' }).amount).toBe(1_000_000n)
  })

  it.each(['0', '-1', '0.0000001', '-0.5'])('amount %j (zero after rounding, or negative) is refused', (amount) => {
    const e = errorOf(() => validateSend({ ...base, amount }))
    expect(e.message).toBe('The amount must be greater than 0')
    expect(e.kind).toBe('invalid_amount')
  })

  it.each([
    ['too short', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293B', 'Address "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293B" is invalid.'],
    ['not hex', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BZ', 'Address "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BZ" is invalid.'],
    ['no 0x', '3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', 'Address "3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" is invalid.'],
    ['bad checksum', '0x3c44CdDdB6a900fa2b585dd299e03d12FA4293BC', 'Address "0x3c44CdDdB6a900fa2b585dd299e03d12FA4293BC" has an invalid checksum.'],
    ['words', 'my friend', 'Address "my friend" is invalid.'],
  ])('a bad receiver (%s) is refused', (_, value, message) => {
    const e = errorOf(() => validateSend({ ...base, receiver: value }))
    expect(e.message).toBe(message)
    expect(e.kind).toBe('invalid_receiver')
  })

  it('all-lower and all-upper hex addresses need no checksum', () => {
    expect(parseReceiverAddress('eip155', receiver.toLowerCase())).toBe(receiver)
    expect(parseReceiverAddress('eip155', `0x${receiver.slice(2).toUpperCase()}`)).toBe(receiver)
  })

  it('Solana receivers are 32–44 base58 characters', () => {
    expect(parseReceiverAddress('solana', '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T')).toBe('4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T')
    expect(() => parseReceiverAddress('solana', '0OIl' + '1'.repeat(30))).toThrow('is not a Solana address')
    expect(() => parseReceiverAddress('solana', '1'.repeat(31))).toThrow('is not a Solana address')
  })

  it('tells names from addresses', () => {
    expect(looksLikeName('vitalik.eth')).toBe(true)
    expect(looksLikeName('pay.alice.eth')).toBe(true)
    expect(looksLikeName(receiver)).toBe(false)
    expect(looksLikeName('alice')).toBe(false)
    expect(looksLikeName('a .eth')).toBe(false)
  })
})

describe('assertSufficientBalance', () => {
  const native = { native: true, tokenSymbol: 'ETH', nativeSymbol: 'ETH', fee: 100n }
  it('native: amount alone above the balance', () => {
    expect(() => assertSufficientBalance({ ...native, amount: 1001n, tokenBalance: 1000n, nativeBalance: 1000n })).toThrow('Insufficient ETH balance')
  })
  it('native: amount + fee above the balance', () => {
    const e = errorOf(() => assertSufficientBalance({ ...native, amount: 950n, tokenBalance: 1000n, nativeBalance: 1000n }))
    expect(e.message).toBe('Insufficient ETH balance for the amount plus the network fee')
    expect(e.kind).toBe('insufficient_balance')
  })
  it('native: exactly enough passes', () => {
    expect(() => assertSufficientBalance({ ...native, amount: 900n, tokenBalance: 1000n, nativeBalance: 1000n })).not.toThrow()
  })
  it('token: amount above the token balance', () => {
    const e = errorOf(() => assertSufficientBalance({ native: false, tokenSymbol: 'USDC', nativeSymbol: 'ETH', amount: 2n, fee: 1n, tokenBalance: 1n, nativeBalance: 10n }))
    expect(e.message).toBe('Insufficient USDC balance')
  })
  it('token: the fee is paid in the native currency', () => {
    const e = errorOf(() => assertSufficientBalance({ native: false, tokenSymbol: 'USDC', nativeSymbol: 'ETH', amount: 1n, fee: 11n, tokenBalance: 1n, nativeBalance: 10n }))
    expect(e.message).toBe('Insufficient ETH balance to pay the network fee')
  })
  it('maxSendable keeps the fee for native sends and never goes negative', () => {
    expect(maxSendable({ native: true, balance: 1000n, fee: 100n })).toBe(900n)
    expect(maxSendable({ native: true, balance: 50n, fee: 100n })).toBe(0n)
    expect(maxSendable({ native: false, balance: 1000n, fee: 100n })).toBe(1000n)
  })
})

describe('fee fields and node errors (spec §8)', () => {
  it('gasPrice with maxFeePerGas or maxPriorityFeePerGas is a conflict', () => {
    const message = 'Cannot specify both gasPrice and maxFeePerGas/maxPriorityFeePerGas'
    expect(() => assertFeeFields({ gasPrice: 1n, maxFeePerGas: 2n })).toThrow(message)
    expect(() => assertFeeFields({ gasPrice: 1n, maxPriorityFeePerGas: 2n })).toThrow(message)
    expect(() => assertFeeFields({ gasPrice: 1n })).not.toThrow()
    expect(() => assertFeeFields({ maxFeePerGas: 2n, maxPriorityFeePerGas: 1n })).not.toThrow()
    expect(toSendError({ name: 'FeeConflictError', message: 'x' }).kind).toBe('fee_conflict')
  })

  it('maps a wallet rejection (4001, wording, nested) to user_rejected', () => {
    for (const error of [
      { code: 4001, message: 'User rejected the request.' },
      new Error('MetaMask Tx Signature: User denied transaction signature.'),
      { name: 'TransactionExecutionError', message: 'failed', cause: { name: 'UserRejectedRequestError', message: 'x' } },
    ]) {
      const e = toSendError(error)
      expect(e.kind).toBe('user_rejected')
      expect(e.message).toBe('User rejected the request.')
    }
  })

  it.each([
    ['insufficient funds for gas * price + value: balance 0, tx cost 1', 'insufficient_funds', 'Insufficient funds for the amount plus the network fee'],
    ['err: max fee per gas less than block base fee: address 0x, maxFeePerGas: 1 baseFee: 7', 'fee', 'The max fee per gas is below the network’s base fee'],
    ['max priority fee per gas higher than max fee per gas', 'fee', 'The priority fee is higher than the max fee per gas'],
    ['intrinsic gas too low: have 100, want 21000', 'gas', 'The gas limit is too low for this transaction'],
    ['exceeds block gas limit: gas limit reached', 'gas', 'The gas limit is above what the network allows'],
    ['nonce too low: next nonce 5, tx nonce 4', 'nonce', 'The transaction nonce is out of date; try again'],
    ['execution reverted: ERC20: transfer amount exceeds balance', 'reverted', 'The transaction would fail: ERC20: transfer amount exceeds balance'],
  ] as const)('maps the node message %j', (message, kind, text) => {
    // As a wallet hands it back (plain JSON-RPC error), and wrapped the way viem wraps it.
    for (const error of [{ code: -32000, message }, { name: 'TransactionExecutionError', shortMessage: 'failed', cause: { name: 'RpcRequestError', details: message } }]) {
      const e = toSendError(error)
      expect(e.kind).toBe(kind)
      expect(e.message).toBe(text)
    }
  })

  it('an unclassified estimate failure is "error estimating gas"; a send failure keeps its message', () => {
    expect(toSendError(new Error('socket hang up'), 'estimate').message).toBe('error estimating gas')
    expect(toSendError(new Error('socket hang up'), 'send').message).toBe('socket hang up')
    expect(toSendError({ shortMessage: 'HTTP request failed.', message: 'long' }).message).toBe('HTTP request failed.')
  })

  it('keeps the code of the innermost error that has one', () => {
    expect(toSendError({ message: 'wrap', cause: { code: -32000, message: 'nonce too low' } }).code).toBe(-32000)
  })
})

describe('Solana send options (spec §3)', () => {
  it('keeps the options that are set', () => {
    expect(solanaSendOptions({})).toEqual({})
    expect(solanaSendOptions({ skipPreflight: false, preflightCommitment: 'finalized', maxRetries: 0, minContextSlot: 12 })).toEqual({
      skipPreflight: false,
      preflightCommitment: 'finalized',
      maxRetries: 0,
      minContextSlot: 12,
    })
    for (const commitment of SOLANA_COMMITMENTS) expect(solanaSendOptions({ preflightCommitment: commitment }).preflightCommitment).toBe(commitment)
  })

  it.each([
    [{ gasPrice: 1n }, 'gasPrice is an EVM fee field; a Solana send takes skipPreflight, preflightCommitment, maxRetries and minContextSlot'],
    [{ preflightCommitment: 'Finalized' }, 'preflightCommitment must be one of processed, confirmed, finalized, recent, single, singleGossip, root or max, not "Finalized"'],
    [{ maxRetries: 2.5 }, 'maxRetries must be a whole number of 0 or more, not 2.5'],
    [{ minContextSlot: -3 }, 'minContextSlot must be a whole number of 0 or more, not -3'],
    [{ skipPreflight: 1 }, 'skipPreflight must be true or false'],
  ])('refuses %o', (options, message) => {
    const e = errorOf(() => solanaSendOptions(options as never))
    expect(e.kind).toBe('invalid_options')
    expect(e.message).toBe(message)
  })

  it('an EVM send refuses them rather than ignoring them', () => {
    const e = errorOf(() => assertFeeFields({ skipPreflight: true }))
    expect(e.kind).toBe('invalid_options')
    expect(e.message).toBe(
      'skipPreflight, preflightCommitment, maxRetries and minContextSlot are Solana send options; an EVM send takes gas, gasPrice, maxFeePerGas and maxPriorityFeePerGas',
    )
    expect(hasSolanaSendOptions({ maxFeePerGas: 1n })).toBe(false)
    expect(hasSolanaSendOptions({ minContextSlot: 0 })).toBe(true)
  })

  it('a Solana receiver is 32 to 44 base58 characters (spec §5)', () => {
    const ok = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
    expect(validateSend({ namespace: 'solana', token: usdc, amount: '2', receiver: ok })).toEqual({ namespace: 'solana', amount: 2_000_000n, decimals: 6, receiver: ok })
    for (const bad of ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', 'short', ok.replace('W', '0'), `${ok}${ok}`]) {
      expect(errorOf(() => validateSend({ namespace: 'solana', token: usdc, amount: '2', receiver: bad })).message).toBe(`"${bad}" is not a Solana address.`)
    }
  })
})
