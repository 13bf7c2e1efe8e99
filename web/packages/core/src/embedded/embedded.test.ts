// @vitest-environment jsdom
// The embedded wallet inside a real Latch (wagmi config, connection
// controller, router) and the real frame client; only the frame's window is
// scripted: it records what the page posts and answers as the frame would.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineChain, type EIP1193Provider } from 'viem'
import { getConnectorClient, sendTransaction, signMessage } from '@wagmi/core'
import { createLatch } from '../latch'
import { LatchOptionsError } from '../options'
import type { Latch } from '../latch-types'
import { resendCode } from './actions/resendCode'
import { signOut } from './actions/signOut'
import { startEmailLogin } from './actions/startEmailLogin'
import { submitOtp } from './actions/submitOtp'
import { INVALID_RECOVERY_PASSWORD_MESSAGE, submitRecoveryPassword } from './actions/submitRecoveryPassword'
import { submitUpdateEmailOtp, updateEmail } from './actions/updateEmail'
import { EMBEDDED_CONNECTOR_ID } from './connector'
import { EMBEDDED_STORAGE_KEYS, PREFERRED_ACCOUNT_TYPES_KEY } from './storageKeys'
import { INVALID_EMAIL_MESSAGE } from './required'

const FRAME = 'http://frame.test:8081'
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const dev = defineChain({ id: 31337, name: 'Latch Dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } })
const dev2 = defineChain({ ...dev, id: 31338, name: 'Latch Dev 2' })

interface Sent {
  id: string
  type: string
  payload?: Record<string, unknown>
}

/** A scripted frame: answers the page's events like web/packages/frame does. */
function scriptedFrame(
  action: 'VERIFY_OTP' | 'VERIFY_DEVICE' | 'CONNECT' = 'VERIFY_OTP',
  opts: { holdDevice?: boolean; recoveryPassword?: string; addressOn?: Record<string, string> } = {},
) {
  // A new device of a wallet in password recovery mode: GET_USER needs the password once.
  let recovered = opts.recoveryPassword === undefined
  const sent: Sent[] = []
  const held: Sent[] = []
  let win: Window | undefined
  const post = (data: unknown) => window.dispatchEvent(new MessageEvent('message', { data, origin: FRAME, source: win! }))
  const answer = (m: Sent, result: unknown, ok = true, code = 4001) =>
    post({ id: m.id, type: `@latch-frame/${m.type.slice('@latch-app/'.length)}_${ok ? 'SUCCESS' : 'ERROR'}`, payload: ok ? result : { message: result, code } })
  let approvals = new Map<string, Sent>()
  function onPost(m: Sent) {
    sent.push(m)
    const name = m.type.slice('@latch-app/'.length)
    switch (name) {
      case 'CONNECT_EMAIL':
        return answer(m, { action })
      case 'CONNECT_DEVICE':
        if (opts.holdDevice) return void held.push(m) // the visitor has not opened the link yet
        return answer(m, undefined)
      case 'CONNECT_OTP':
        return m.payload!.otp === '123456' ? answer(m, undefined) : answer(m, 'Invalid code', false)
      case 'GET_USER':
        if (!recovered) {
          const given = m.payload?.recoveryPassword
          if (given === undefined) return answer(m, 'Recovery password required', false, -32603)
          if (given !== opts.recoveryPassword) return answer(m, 'Wrong recovery password', false, -32603)
          recovered = true
        }
        return answer(m, {
          email: 'visitor@example.com',
          address: opts.addressOn?.[String(m.payload?.chainId)] ?? ADDRESS.toLowerCase(),
          chainId: m.payload?.chainId ?? 31337,
          accounts: [],
        })
      case 'IS_CONNECTED':
        return answer(m, { isConnected: true })
      case 'SWITCH_NETWORK':
        return answer(m, { chainId: m.payload!.chainId })
      case 'SIGN_OUT':
      case 'SYNC_THEME':
        return answer(m, undefined)
      case 'UPDATE_EMAIL':
        return answer(m, { action: 'VERIFY_PRIMARY_OTP' })
      case 'UPDATE_EMAIL_PRIMARY_OTP':
        return answer(m, undefined)
      case 'UPDATE_EMAIL_SECONDARY_OTP':
        return answer(m, { newEmail: 'new@example.com' })
      case 'RPC_REQUEST': {
        const { method, chainId } = m.payload as { method: string; chainId: string }
        if (method === 'personal_sign' || method === 'eth_sendTransaction') {
          approvals.set(m.id, m)
          return post({ id: m.id, type: '@latch-frame/RPC_APPROVAL_REQUIRED', payload: { requestId: m.id, method, chainNamespace: 'eip155', chainId } })
        }
        const reads: Record<string, unknown> = {
          eth_getBalance: '0xde0b6b3a7640000',
          eth_estimateGas: '0x5208',
          eth_getBlockByNumber: { baseFeePerGas: '0x1', number: '0x1', hash: '0x' + '00'.repeat(32), timestamp: '0x1', transactions: [] },
          eth_maxPriorityFeePerGas: '0x1',
          eth_getTransactionCount: '0x0',
        }
        if (method === 'wallet_unknownMethod') return answer(m, 'Requested RPC call is not allowed', false, 4200)
        return method in reads ? answer(m, reads[method]) : answer(m, `unexpected ${method}`, false)
      }
    }
  }
  return {
    sent,
    names: () => sent.map((m) => m.type.slice('@latch-app/'.length)),
    attach() {
      const el = document.querySelector('iframe')
      if (!el?.contentWindow) return false
      if (win === el.contentWindow) return true
      win = el.contentWindow
      vi.spyOn(win, 'postMessage').mockImplementation(((m: Sent) => queueMicrotask(() => onPost(m))) as Window['postMessage'])
      post({ type: '@latch-frame/READY', payload: { version: '1' } })
      return true
    },
    reset: () => (approvals = new Map()),
    /** visitor answers the oldest request the frame shows, as the visitor does in the frame's own view. */
    visitor(approved: boolean) {
      const [id, req] = [...approvals][0]!
      approvals.delete(id)
      if (!approved) return answer(req, 'Signature declined', false)
      return answer(req, req.payload!.method === 'personal_sign' ? '0x' + 'ab'.repeat(65) : '0x' + 'cd'.repeat(32))
    },
    /** approveDevice answers the held CONNECT_DEVICE requests: the link was opened. */
    approveDevice: () => held.splice(0).forEach((m) => answer(m, undefined)),
  }
}

const latches: Latch[] = []
function newLatch(extra: Record<string, unknown> = {}) {
  const latch = createLatch({ projectId: 'a'.repeat(32), networks: [dev, dev2], apiUrl: 'http://127.0.0.1:1', frameUrl: FRAME, walletConnect: false, ...extra })
  latches.push(latch)
  return latch
}

/** Runs an action while attaching the scripted frame as soon as the iframe appears. */
async function withFrame<T>(frame: ReturnType<typeof scriptedFrame>, run: Promise<T>): Promise<T> {
  const poll = setInterval(() => frame.attach(), 1)
  try {
    return await run
  } finally {
    clearInterval(poll)
  }
}

async function until(pred: () => boolean) {
  await vi.waitFor(() => expect(pred()).toBe(true), { timeout: 2000, interval: 5 })
}

afterEach(() => {
  for (const l of latches.splice(0)) l.destroy()
  document.body.innerHTML = ''
  localStorage.clear()
})

describe('embedded wallet', () => {
  it('is on only with a projectId, a frameUrl and features.email not false; the frameUrl must be http(s)', () => {
    expect(newLatch()._internal.embedded).toBeDefined()
    expect(newLatch({ frameUrl: undefined })._internal.embedded).toBeUndefined()
    expect(newLatch({ features: { email: false } })._internal.embedded).toBeUndefined()
    expect(() => newLatch({ frameUrl: 'ftp://x' })).toThrow(LatchOptionsError)
    expect(newLatch()._internal.root.getState().embedded?.step).toBe('idle')
  })

  it('creates no frame at start unless an e-mail login was used before (spec §4)', async () => {
    const unused = newLatch()
    await unused.init()
    await unused._internal.embedded!.startIfUsedBefore()
    expect(document.querySelector('iframe')).toBeNull()
    localStorage.setItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed, 'true')
    void newLatch().init()
    await until(() => document.querySelector('iframe') !== null)
    expect(document.querySelector('iframe')!.src).toContain(`${FRAME}/?projectId=`)
  })

  it('logs in with e-mail and code, connects through the AUTH connector, and sends through the provider after approval', async () => {
    const latch = newLatch()
    const frame = scriptedFrame()
    const embedded = () => latch._internal.embedded!.store.getState()

    await startEmailLogin(latch, 'not an e-mail')
    expect(embedded().error).toBe(INVALID_EMAIL_MESSAGE)
    expect(document.querySelector('iframe')).toBeNull()

    await withFrame(frame, startEmailLogin(latch, ' visitor@example.com '))
    // The widget's locale goes along: latchd writes the mail in it.
    expect(frame.sent[0]).toMatchObject({ type: '@latch-app/CONNECT_EMAIL', payload: { email: 'visitor@example.com', locale: 'en' } })
    expect(embedded().step).toBe('otp')
    expect(latch.getState().view).toBe('EmailVerifyOtp')
    expect(localStorage.getItem(EMBEDDED_STORAGE_KEYS.email)).toBe('visitor@example.com')

    // Within 30 s a new code is refused with the spec's message, nothing is sent.
    await resendCode(latch)
    expect(embedded().error).toMatch(/^Please try again after (30|29) seconds$/)
    expect(frame.names().filter((n) => n === 'CONNECT_EMAIL')).toHaveLength(1)

    await submitOtp(latch, '000000')
    expect(embedded()).toMatchObject({ step: 'otp', error: 'Invalid code' })

    await submitOtp(latch, '123 456')
    expect(embedded().step).toBe('connected')
    const account = latch.getState().account
    expect(account.status).toBe('connected')
    expect(account.address).toBe(ADDRESS)
    expect(localStorage.getItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed)).toBe('true')
    const config = latch.getWagmiConfig()
    expect(config.state.connections.get(config.state.current!)?.connector.type).toBe('AUTH')

    // personal_sign through wagmi: the modal shows ApproveTransaction (where the frame shows the request); the
    // visitor's approval in the frame returns its signature, and the page's state forgets the request.
    const signed = signMessage(config, { message: 'hello' })
    await until(() => embedded().approval?.method === 'personal_sign')
    expect(latch.getState().view).toBe('ApproveTransaction')
    expect(latch.getState().open).toBe(true)
    frame.visitor(true)
    await expect(signed).resolves.toBe('0x' + 'ab'.repeat(65))
    await until(() => embedded().approval === undefined)

    // A rejected send fails as the user's rejection.
    const rejected = sendTransaction(config, { to: ADDRESS, value: 10n ** 16n })
    await until(() => embedded().approval?.method === 'eth_sendTransaction')
    const tx = (frame.sent.filter((m) => m.type === '@latch-app/RPC_REQUEST').at(-1)!.payload!.params as [{ to: string; value: string }])[0]
    expect(tx.to.toLowerCase()).toBe(ADDRESS.toLowerCase())
    expect(BigInt(tx.value)).toBe(10n ** 16n)
    frame.visitor(false)
    await expect(rejected).rejects.toThrow(/rejected|declined/i)
    await until(() => embedded().approval === undefined)

    // Two requests at once: the first is the one shown; when it ends, the next.
    const one = signMessage(config, { message: 'one' })
    const two = signMessage(config, { message: 'two' })
    await until(() => frame.sent.filter((m) => m.type === '@latch-app/RPC_REQUEST' && (m.payload as { method: string }).method === 'personal_sign').length === 3)
    await until(() => embedded().approval !== undefined)
    const first = embedded().approval!.requestId
    frame.visitor(true)
    await one
    await until(() => embedded().approval !== undefined && embedded().approval!.requestId !== first)
    frame.visitor(true)
    await two
    await until(() => embedded().approval === undefined)

    // The provider answers the chain locally and switches through SWITCH_NETWORK.
    const provider = (await getConnectorClient(config)).transport as unknown as { request: EIP1193Provider['request'] }
    await latch.switchNetwork(31338)
    await until(() => latch.getState().account.chainId === 31338)
    expect(frame.sent.find((m) => m.type === '@latch-app/SWITCH_NETWORK')?.payload).toEqual({ chainId: 'eip155:31338' })
    expect(localStorage.getItem(EMBEDDED_STORAGE_KEYS.lastUsedChainId)).toBe('31338')
    expect(provider).toBeDefined()

    await signOut(latch)
    expect(latch.getState().account.status).toBe('disconnected')
    expect(frame.names()).toContain('SIGN_OUT')
    expect(localStorage.getItem(EMBEDDED_STORAGE_KEYS.emailLoginUsed)).toBeNull()
  })

  it('waits for the device approval of a new device, then asks for the code', async () => {
    const latch = newLatch()
    const frame = scriptedFrame('VERIFY_DEVICE')
    await withFrame(frame, startEmailLogin(latch, 'visitor@example.com'))
    expect(frame.names().filter((n) => n !== 'SYNC_THEME')).toEqual(['CONNECT_EMAIL', 'CONNECT_DEVICE'])
    expect(latch._internal.embedded!.store.getState().step).toBe('otp')
    expect(latch.getState().view).toBe('EmailVerifyOtp')
  })

  it('leaving the device-approval view ends the wait: a late approval does not move the modal', async () => {
    const latch = newLatch()
    const frame = scriptedFrame('VERIFY_DEVICE', { holdDevice: true })
    const login = withFrame(frame, startEmailLogin(latch, 'visitor@example.com'))
    await until(() => frame.names().includes('CONNECT_DEVICE'))
    expect(latch.getState().view).toBe('EmailVerifyDevice')
    latch._internal.router.goBack()
    await login
    expect(latch._internal.embedded!.store.getState()).toMatchObject({ step: 'idle', error: undefined })
    frame.approveDevice()
    await new Promise((r) => setTimeout(r, 20))
    expect(latch.getState().view).not.toBe('EmailVerifyOtp')
    expect(latch._internal.embedded!.store.getState().step).toBe('idle')
  })

  it('an unknown RPC method opens the modal, shows "Action not allowed" 300 ms later and rejects open requests (spec §4)', async () => {
    const latch = newLatch()
    const frame = scriptedFrame('CONNECT')
    await withFrame(frame, startEmailLogin(latch, 'visitor@example.com'))
    expect(latch.getState().account.status).toBe('connected')
    const provider = (await getConnectorClient(latch.getWagmiConfig())).transport as unknown as EIP1193Provider
    // A signature waits for approval; the modal is then closed without answering.
    const signing = signMessage(latch.getWagmiConfig(), { message: 'hello' }).catch((e: Error) => e)
    await until(() => latch._internal.embedded!.store.getState().approval !== undefined)
    latch._internal.modal.close()
    await until(() => !latch.getState().open)

    const unknown = provider.request({ method: 'wallet_unknownMethod' as never }).catch((e: { code?: number; message: string }) => e)
    expect(await unknown).toMatchObject({ code: 4200, message: 'Requested RPC call is not allowed' })
    await until(() => latch.getState().open)
    const opened = Date.now()
    // Not yet (another toast may show meanwhile: this test's balances cannot be fetched, which says so).
    expect(latch.getState().toast?.message).not.toBe('Action not allowed')
    await until(() => latch.getState().toast?.message === 'Action not allowed')
    expect(Date.now() - opened).toBeGreaterThanOrEqual(250)
    expect(latch.getState().toast?.variant).toBe('error')
    expect(((await signing) as Error).message).toMatch(/Request was aborted/)
  })

  it("asks a new device for the recovery password when the frame says 'Recovery password required', then connects", async () => {
    const latch = newLatch()
    const frame = scriptedFrame('VERIFY_OTP', { recoveryPassword: 'correct horse' })
    const embedded = () => latch._internal.embedded!.store.getState()
    await withFrame(frame, startEmailLogin(latch, 'visitor@example.com'))
    await submitOtp(latch, '123456')
    expect(embedded()).toMatchObject({ step: 'recoveryPassword', error: undefined })
    expect(latch.getState().account.status).not.toBe('connected')

    const sent = frame.sent.length
    await submitRecoveryPassword(latch, 'short')
    expect(embedded()).toMatchObject({ step: 'recoveryPassword', error: INVALID_RECOVERY_PASSWORD_MESSAGE })
    expect(frame.sent.length).toBe(sent)

    await submitRecoveryPassword(latch, 'wrong password')
    expect(embedded()).toMatchObject({ step: 'recoveryPassword', error: 'Wrong recovery password' })

    await submitRecoveryPassword(latch, 'correct horse')
    expect(embedded().step).toBe('connected')
    expect(latch.getState().account.address).toBe(ADDRESS)
    expect(frame.sent.filter((m) => m.type === '@latch-app/GET_USER').map((m) => m.payload?.recoveryPassword)).toEqual([undefined, 'wrong password', 'correct horse', undefined])
  })

  it('changes the e-mail with the current address code, then the new one', async () => {
    const latch = newLatch()
    const frame = scriptedFrame('CONNECT')
    await withFrame(frame, startEmailLogin(latch, 'visitor@example.com'))
    expect(latch.getState().account.status).toBe('connected')
    await updateEmail(latch, 'bad')
    expect(latch._internal.embedded!.store.getState().update.error).toBe(INVALID_EMAIL_MESSAGE)
    await updateEmail(latch, 'new@example.com')
    expect(latch._internal.embedded!.store.getState().update.step).toBe('primaryOtp')
    await submitUpdateEmailOtp(latch, '111111')
    expect(latch._internal.embedded!.store.getState().update.step).toBe('secondaryOtp')
    await submitUpdateEmailOtp(latch, '222222')
    expect(latch._internal.embedded!.store.getState()).toMatchObject({ email: 'new@example.com', update: { step: 'done' } })
    expect(localStorage.getItem(EMBEDDED_STORAGE_KEYS.email)).toBe('new@example.com')
    expect(frame.names().slice(-3)).toEqual(['UPDATE_EMAIL', 'UPDATE_EMAIL_PRIMARY_OTP', 'UPDATE_EMAIL_SECONDARY_OTP'])
    // The two that make latchd mail a code carry the widget's locale.
    expect(frame.sent.slice(-3).map((m) => (m.payload as { locale?: string }).locale)).toEqual(['en', 'en', undefined])
  })

  it('reconnects after a reload without a code when the frame still has the session', async () => {
    const first = newLatch()
    await withFrame(scriptedFrame(), startEmailLogin(first, 'visitor@example.com'))
    await submitOtp(first, '123456')
    expect(first.getState().account.status).toBe('connected')
    first.destroy()
    expect(document.querySelector('iframe')).toBeNull()

    const latch = newLatch()
    const frame = scriptedFrame()
    await withFrame(frame, latch.init())
    await until(() => latch.getState().account.status === 'connected')
    expect(latch.getState().account.address).toBe(ADDRESS)
    expect(frame.names()).toEqual(expect.arrayContaining(['IS_CONNECTED', 'GET_USER']))
    expect(frame.names()).not.toContain('CONNECT_OTP')
  })

  it('asks GET_USER for the smart account by default, the app\'s default otherwise, the visitor\'s stored choice first (spec §3)', async () => {
    const asked = async (extra: Record<string, unknown>) => {
      const latch = newLatch(extra)
      const frame = scriptedFrame()
      await withFrame(frame, startEmailLogin(latch, 'visitor@example.com'))
      await submitOtp(latch, '123456')
      latch.destroy()
      document.body.innerHTML = ''
      return frame.sent.filter((m) => m.type === '@latch-app/GET_USER').map((m) => m.payload?.preferredAccountType)
    }
    expect(await asked({})).toEqual(['smartAccount'])
    expect(await asked({ defaultAccountTypes: { eip155: 'eoa' } })).toEqual(['eoa'])
    localStorage.setItem(PREFERRED_ACCOUNT_TYPES_KEY, JSON.stringify({ eip155: 'smartAccount' }))
    expect(await asked({ defaultAccountTypes: { eip155: 'eoa' } })).toEqual(['smartAccount'])
    expect(() => newLatch({ defaultAccountTypes: { eip155: 'payment' } })).toThrow('`defaultAccountTypes.eip155` cannot be "payment"')
    expect(() => newLatch({ defaultAccountTypes: { solana: 'smartAccount' } })).toThrow(LatchOptionsError)
  })

  it('takes the account in force on the new chain after a switch (a smart account only where the chain has one)', async () => {
    const EOA = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    const latch = newLatch()
    const frame = scriptedFrame('VERIFY_OTP', { addressOn: { 'eip155:31338': EOA.toLowerCase() } })
    await withFrame(frame, startEmailLogin(latch, 'visitor@example.com'))
    await submitOtp(latch, '123456')
    expect(latch.getState().account.address).toBe(ADDRESS)
    await latch.switchNetwork(31338)
    await until(() => latch.getState().account.chainId === 31338)
    await until(() => latch.getState().account.address === EOA)
    expect(frame.names().slice(-2)).toEqual(['SWITCH_NETWORK', 'GET_USER'])
  })
})
