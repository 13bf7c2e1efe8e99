// @vitest-environment jsdom
// The embedded Solana key's Wallet Standard wallet: base58, its registration by
// the standard's window events, and what each feature asks the frame.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { base58 } from '../base58'
import { createSolanaWallet, SOLANA_CHAIN_REFERENCES, SOLANA_NOT_SIGNED_IN_MESSAGE, type LatchSolanaWallet } from './solanaWallet'

/** Bytes of ASCII text (jsdom's TextEncoder makes arrays of another realm, which deep equality tells apart). */
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))

const ADDRESS = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'
const user = { address: '0x0000000000000000000000000000000000000001', chainId: 1, accounts: [], solanaAddress: ADDRESS, email: 'v@example.com' }

type Feature<T> = T
const feature = <T>(wallet: LatchSolanaWallet, name: string) => wallet.features[name] as Feature<T>

/** Collects wallets the way a Wallet Standard app does: it listens for register-wallet and dispatches app-ready. */
function app() {
  const wallets: LatchSolanaWallet[] = []
  const register = (w: LatchSolanaWallet) => {
    wallets.push(w)
    return () => wallets.splice(wallets.indexOf(w), 1)
  }
  const onRegister = (e: Event) => (e as CustomEvent<(api: { register: typeof register }) => void>).detail({ register })
  window.addEventListener('wallet-standard:register-wallet', onRegister)
  return {
    wallets,
    ready: () => window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: { register } })),
    stop: () => window.removeEventListener('wallet-standard:register-wallet', onRegister),
  }
}

afterEach(() => vi.restoreAllMocks())

describe('createSolanaWallet', () => {
  it('is announced once the visitor has a Solana address: to a listening app, and to one that starts later; withdrawn on destroy', async () => {
    const early = app()
    const handle = createSolanaWallet(vi.fn(), 'E-mail wallet')
    expect(early.wallets).toEqual([])
    handle.setUser({ ...user, solanaAddress: undefined })
    expect(early.wallets).toEqual([])
    const changes: unknown[] = []
    feature<{ on(e: string, l: (p: unknown) => void): () => void }>(handle.wallet, 'standard:events').on('change', (p) => changes.push(p))
    handle.setUser(user)
    expect(early.wallets).toEqual([handle.wallet])
    expect(handle.wallet.accounts.map((a) => [a.address, a.publicKey.length, a.label])).toEqual([[ADDRESS, 32, 'v@example.com']])
    expect(changes).toEqual([{ accounts: handle.wallet.accounts }])
    handle.setUser(user) // the same account again: no new event
    expect(changes).toHaveLength(1)

    const late = app()
    late.ready()
    expect(late.wallets).toEqual([handle.wallet])

    handle.setUser(undefined)
    expect(handle.wallet.accounts).toEqual([])
    expect(changes).toHaveLength(2)
    handle.destroy()
    expect(early.wallets).toEqual([])
    expect(late.wallets).toEqual([])
    early.stop()
    late.stop()
  })

  it('connect gives the account, or refuses with a message while no one is signed in (silent: no accounts)', async () => {
    const handle = createSolanaWallet(vi.fn(), 'E-mail wallet')
    const { connect } = feature<{ connect(i?: { silent?: boolean }): Promise<{ accounts: unknown[] }> }>(handle.wallet, 'standard:connect')
    await expect(connect()).rejects.toThrow(SOLANA_NOT_SIGNED_IN_MESSAGE)
    expect(await connect({ silent: true })).toEqual({ accounts: [] })
    handle.setUser(user)
    expect((await connect()).accounts).toEqual(handle.wallet.accounts)
    handle.destroy()
  })

  it('signs a message, a transaction and sends one through the frame, in the frame protocol encodings; refuses other accounts', async () => {
    const signature = new Uint8Array(64).fill(7)
    const request = vi.fn(async (method: string, params: unknown) => {
      if (method === 'solana_signMessage') return { signature: base58.encode(signature) }
      if (method === 'solana_signTransaction') return { transaction: btoa('signed') }
      if (method === 'solana_signAndSendTransaction') return { signature: base58.encode(signature) }
      throw new Error(`unexpected ${method} ${JSON.stringify(params)}`)
    })
    const handle = createSolanaWallet(request, 'E-mail wallet')
    handle.setUser(user)
    const [account] = handle.wallet.accounts
    const message = ascii('hello')

    const signMessage = feature<{ signMessage(...i: unknown[]): Promise<{ signature: Uint8Array; signedMessage: Uint8Array }[]> }>(handle.wallet, 'solana:signMessage').signMessage
    const [signed] = await signMessage({ account, message })
    expect(signed).toEqual({ signedMessage: message, signature, signatureType: 'ed25519' })
    expect(request).toHaveBeenLastCalledWith('solana_signMessage', { message: base58.encode(message), pubkey: ADDRESS }, SOLANA_CHAIN_REFERENCES['solana:mainnet'])

    const tx = new Uint8Array([1, 2, 3])
    const signTransaction = feature<{ signTransaction(...i: unknown[]): Promise<{ signedTransaction: Uint8Array }[]> }>(handle.wallet, 'solana:signTransaction').signTransaction
    expect(await signTransaction({ account, transaction: tx, chain: 'solana:devnet' })).toEqual([{ signedTransaction: ascii('signed') }])
    expect(request).toHaveBeenLastCalledWith('solana_signTransaction', { transaction: 'AQID' }, SOLANA_CHAIN_REFERENCES['solana:devnet'])

    const send = feature<{ signAndSendTransaction(...i: unknown[]): Promise<{ signature: Uint8Array }[]> }>(handle.wallet, 'solana:signAndSendTransaction').signAndSendTransaction
    const local = 'solana:8E9rvCKLFQia2Y35HXjjpWzj8weVo44K'
    expect(await send({ account, transaction: tx, chain: local, options: { skipPreflight: true, maxRetries: 2, commitment: 'confirmed' } })).toEqual([{ signature }])
    expect(request).toHaveBeenLastCalledWith('solana_signAndSendTransaction', { transaction: 'AQID', options: { skipPreflight: true, maxRetries: 2 } }, '8E9rvCKLFQia2Y35HXjjpWzj8weVo44K')

    const calls = request.mock.calls.length
    await expect(signMessage({ account: { address: '11111111111111111111111111111111' }, message })).rejects.toThrow('is not this wallet')
    await expect(send({ account, transaction: tx, chain: 'eip155:1' })).rejects.toThrow('Unsupported Solana chain eip155:1')
    expect(request.mock.calls.length).toBe(calls)
    handle.destroy()
  })
})
