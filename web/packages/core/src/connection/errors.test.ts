import { UserRejectedRequestError } from 'viem'
import { describe, expect, it } from 'vitest'

import { isUserRejectedError, LatchConnectError, toConnectError } from './errors.js'

describe('isUserRejectedError', () => {
  it.each([
    ['EIP-1193 code 4001', { code: 4001, message: 'nope' }],
    ['WalletConnect code 5000', { code: 5000, message: 'x' }],
    ['viem UserRejectedRequestError', new UserRejectedRequestError(new Error('x'))],
    ['4001 deep in the cause chain', new Error('outer', { cause: new Error('mid', { cause: { code: 4001 } }) })],
    ['"User rejected" message', new Error('MetaMask Tx Signature: User rejected the transaction.')],
    ['"user denied" message', new Error('User denied account authorization')],
    ['"rejected the request" message', new Error('The user rejected the request.')],
    ['"connection reset" message', new Error('Connection request reset. Please try again.')],
    ['a bare string', 'user rejected'],
  ])('recognises %s', (_, error) => {
    expect(isUserRejectedError(error)).toBe(true)
  })

  it.each([
    ['a generic error', new Error('Internal JSON-RPC error.')],
    ['request already pending (-32002)', { code: -32002, message: 'Request already pending' }],
    ['null', null],
    ['a number', 4001],
  ])('does not flag %s', (_, error) => {
    expect(isUserRejectedError(error)).toBe(false)
  })
})

describe('toConnectError', () => {
  it('maps rejections to kind user_rejected with the code', () => {
    const error = toConnectError({ code: 4001, message: 'User rejected the request.' })
    expect(error).toBeInstanceOf(LatchConnectError)
    expect(error.kind).toBe('user_rejected')
    expect(error.code).toBe(4001)
  })
  it('keeps the original message otherwise', () => {
    const cause = new Error('boom')
    const error = toConnectError(cause)
    expect(error.kind).toBe('unknown')
    expect(error.message).toBe('boom')
    expect(error.cause).toBe(cause)
  })
})
