import { describe, expect, it } from 'vitest'
import {
  ACTION_NOT_ALLOWED,
  frameSearchParams,
  isSafeRpcMethod,
  isUnsafeRpcMethod,
  parseAppEvent,
  parseFrameEvent,
  RPC_NOT_ALLOWED,
  SAFE_RPC_METHODS,
  UNSAFE_RPC_METHODS,
} from './protocol'

describe('parseAppEvent', () => {
  it('accepts each page event with its payload', () => {
    const ok: unknown[] = [
      { id: 'a1', type: '@latch-app/CONNECT_EMAIL', payload: { email: 'visitor@example.com' } },
      { id: 'a2', type: '@latch-app/CONNECT_DEVICE' },
      { id: 'a3', type: '@latch-app/CONNECT_OTP', payload: { otp: '012345' } },
      { id: 'a4', type: '@latch-app/GET_USER', payload: { chainId: 'eip155:1', recoveryPassword: 'long enough' } },
      { id: 'a5', type: '@latch-app/RPC_REQUEST', payload: { method: 'eth_chainId', chainNamespace: 'eip155', chainId: 1 } },
      { id: 'a7', type: '@latch-app/SWITCH_NETWORK', payload: { chainId: 31337 } },
      { id: 'a8', type: '@latch-app/SIGN_OUT' },
      { id: 'a9', type: '@latch-app/SYNC_THEME', payload: { themeMode: 'dark', themeVariables: { '--latch-accent': '#f00' } } },
      { id: 'b0', type: '@latch-app/SYNC_THEME', payload: { themeMode: 'light', themeVariables: {}, locale: 'de' } },
      { id: 'b1', type: '@latch-app/CONNECT_EMAIL', payload: { email: 'visitor@example.com', locale: 'zh-TW' } },
      { id: 'b2', type: '@latch-app/UPDATE_EMAIL', payload: { email: 'visitor@example.com', locale: 'de' } },
      { id: 'b3', type: '@latch-app/UPDATE_EMAIL_PRIMARY_OTP', payload: { otp: '012345', locale: 'pt-BR' } },
    ]
    for (const e of ok) expect(parseAppEvent(e), JSON.stringify(e)).toBeDefined()
  })

  it('refuses unknown types, wrong payloads and malformed envelopes (spec §5)', () => {
    const bad: unknown[] = [
      null,
      'CONNECT_EMAIL',
      { id: 'a', type: '@latch-app/EXPORT_PRIVATE_KEY' },
      { id: 'a', type: '@latch-frame/CONNECT_EMAIL_SUCCESS', payload: { action: 'CONNECT' } },
      { id: 'a', type: '@latch-app/CONNECT_EMAIL', payload: { email: 'not an e-mail' } },
      { id: 'a', type: '@latch-app/CONNECT_EMAIL' },
      { id: 'a', type: '@latch-app/CONNECT_EMAIL', payload: { email: 'visitor@example.com', locale: 'de"><script>' } },
      { id: 'a', type: '@latch-app/UPDATE_EMAIL', payload: { email: 'visitor@example.com', locale: 'x'.repeat(36) } },
      { id: 'a', type: '@latch-app/UPDATE_EMAIL_PRIMARY_OTP', payload: { otp: '012345', locale: 7 } },
      { id: 'a', type: '@latch-app/CONNECT_OTP', payload: { otp: '12345' } },
      { id: 'a', type: '@latch-app/CONNECT_OTP', payload: { otp: '12345a' } },
      { id: 'a', type: '@latch-app/RPC_REQUEST', payload: { method: 'eth_chainId', chainNamespace: 'bip122', chainId: 1 } },
      { id: 'a', type: '@latch-app/RPC_APPROVE', payload: { requestId: 'a5', approved: 'yes' } },
      { id: 'a', type: '@latch-app/GET_USER', payload: { recoveryPassword: 'short' } },
      { type: '@latch-app/SIGN_OUT' },
      { id: '', type: '@latch-app/SIGN_OUT' },
      { id: 'x'.repeat(65), type: '@latch-app/SIGN_OUT' },
      { id: 'a b', type: '@latch-app/SIGN_OUT' },
    ]
    for (const e of bad) expect(parseAppEvent(e), JSON.stringify(e)).toBeUndefined()
  })
})

describe('parseFrameEvent', () => {
  it('accepts READY, answers and approval requests', () => {
    expect(parseFrameEvent({ type: '@latch-frame/READY', payload: { version: '1' } })).toBeDefined()
    expect(parseFrameEvent({ id: 'a', type: '@latch-frame/CONNECT_EMAIL_SUCCESS', payload: { action: 'VERIFY_DEVICE' } })).toBeDefined()
    expect(parseFrameEvent({ id: 'a', type: '@latch-frame/CONNECT_EMAIL_ERROR', payload: { message: 'Invalid email address' } })).toBeDefined()
    expect(parseFrameEvent({ id: 'a', type: '@latch-frame/RPC_REQUEST_SUCCESS', payload: '0x1' })).toBeDefined()
    expect(
      parseFrameEvent({
        id: 'a',
        type: '@latch-frame/GET_USER_SUCCESS',
        payload: { email: 'a@b.co', address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', chainId: 1, accounts: [{ address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', type: 'eoa' }] },
      }),
    ).toBeDefined()
    expect(
      parseFrameEvent({ id: 'r', type: '@latch-frame/RPC_APPROVAL_REQUIRED', payload: { requestId: 'r', method: 'personal_sign', params: ['0x00'], chainNamespace: 'eip155', chainId: 1 } }),
    ).toBeDefined()
  })

  it("no longer accepts the page's RPC_APPROVE: the frame refuses it, and its only answer is an error", () => {
    expect(parseAppEvent({ id: 'a6', type: '@latch-app/RPC_APPROVE', payload: { requestId: 'a5', approved: true } })).toBeUndefined()
    expect(parseFrameEvent({ id: 'a6', type: '@latch-frame/RPC_APPROVE_ERROR', payload: { message: 'Only the visitor approves, in the wallet frame', code: 4200 } })).toBeDefined()
  })

  it('refuses forged and malformed frame events', () => {
    const bad: unknown[] = [
      { id: 'a', type: '@latch-frame/CONNECT_EMAIL_SUCCESS', payload: { action: 'SIGN_EVERYTHING' } },
      { id: 'a', type: '@latch-frame/SESSION_TOKEN', payload: { token: 't' } },
      // The page's approval is no longer an event (the visitor approves in the frame).
      { id: 'a', type: '@latch-frame/RPC_APPROVE_SUCCESS' },
      { id: 'a', type: '@latch-app/CONNECT_EMAIL', payload: { email: 'a@b.co' } },
      { id: 'a', type: '@latch-frame/GET_USER_SUCCESS', payload: { email: 'a@b.co' } },
      { type: '@latch-frame/CONNECT_EMAIL_SUCCESS', payload: { action: 'CONNECT' } },
      // An approval request for a method that needs none is not one.
      { id: 'r', type: '@latch-frame/RPC_APPROVAL_REQUIRED', payload: { requestId: 'r', method: 'eth_call', chainNamespace: 'eip155', chainId: 1 } },
    ]
    for (const e of bad) expect(parseFrameEvent(e), JSON.stringify(e)).toBeUndefined()
  })
})

describe('RPC method classes (spec §6)', () => {
  it('keeps signing out of the safe list and reads out of the unsafe one', () => {
    for (const m of SAFE_RPC_METHODS) expect(isUnsafeRpcMethod(m)).toBe(false)
    for (const m of UNSAFE_RPC_METHODS) expect(isSafeRpcMethod(m)).toBe(false)
    expect(isSafeRpcMethod('eth_sendRawTransaction')).toBe(true)
    expect(isUnsafeRpcMethod('eth_sendTransaction')).toBe(true)
    expect(isSafeRpcMethod('eth_sign')).toBe(false)
    expect(isUnsafeRpcMethod('eth_sign')).toBe(false)
  })

  it('has the spec strings for refused methods', () => {
    expect(RPC_NOT_ALLOWED).toBe('Requested RPC call is not allowed')
    expect(ACTION_NOT_ALLOWED).toBe('Action not allowed')
  })
})

describe('frameSearchParams', () => {
  it('carries projectId, chainId, version and enableLogger (spec §2)', () => {
    expect(frameSearchParams({ projectId: 'abc', chainId: 'eip155:1', enableLogger: true }).toString()).toBe(
      'projectId=abc&chainId=eip155%3A1&version=1&enableLogger=true',
    )
  })
})
