import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { shownMessage, signAndSendTransaction, signMessage, signTransaction, signWireTransaction, solanaAddress } from './solana'

const secret = new Uint8Array(32).map((_, i) => i + 1)
const pub = ed25519.getPublicKey(secret)
const other = ed25519.getPublicKey(new Uint8Array(32).fill(9))

// A wire transaction: shortvec(sig count), empty signatures, then a message
// whose signers are `signers` (legacy, or v0 when versioned).
function wireTx(signers: Uint8Array[], versioned = false): Uint8Array {
  const program = new Uint8Array(32).fill(5)
  const keys = [...signers, program]
  const message = [
    ...(versioned ? [0x80] : []),
    signers.length, 0, 1, // header
    keys.length, ...keys.flatMap((k) => [...k]),
    ...new Uint8Array(32).fill(7), // blockhash
    1, signers.length, 0, 0, // one instruction: program index, no accounts, no data
    ...(versioned ? [0] : []), // no lookup tables
  ]
  return new Uint8Array([signers.length, ...new Uint8Array(64 * signers.length), ...message])
}

describe('signWireTransaction', () => {
  it('writes our signature over the message bytes into our signer slot (legacy and v0)', () => {
    for (const versioned of [false, true]) {
      const tx = wireTx([other, pub], versioned)
      const signed = signWireTransaction(secret, tx)
      const message = tx.subarray(1 + 128)
      expect(signed.subarray(1 + 128)).toEqual(message) // message untouched
      expect(signed.subarray(1, 65)).toEqual(new Uint8Array(64)) // the other signer's slot untouched
      expect(ed25519.verify(signed.subarray(65, 129), message, pub)).toBe(true)
    }
  })

  it('refuses a transaction this key need not sign, and malformed bytes', () => {
    expect(() => signWireTransaction(secret, wireTx([other]))).toThrow("does not need this wallet's signature")
    expect(() => signWireTransaction(secret, new Uint8Array([1, 2, 3]))).toThrow('Invalid transaction')
    const bad = wireTx([pub])
    bad[0] = 2 // claims two signatures
    expect(() => signWireTransaction(secret, bad)).toThrow('Invalid transaction')
  })
})

describe('Solana methods', () => {
  it('shownMessage adds the message as text for ApproveTransaction when its bytes are UTF-8, else leaves the params', () => {
    const pubkey = solanaAddress(secret)
    expect(shownMessage({ message: base58.encode(new TextEncoder().encode('gm ☀')), pubkey })).toEqual({ message: base58.encode(new TextEncoder().encode('gm ☀')), pubkey, text: 'gm ☀' })
    expect(shownMessage({ message: base58.encode(new Uint8Array([0xff, 0xfe])), pubkey })).toEqual({ message: base58.encode(new Uint8Array([0xff, 0xfe])), pubkey })
    expect(shownMessage({ message: '0OIl', pubkey })).toEqual({ message: '0OIl', pubkey })
    expect(shownMessage('nonsense')).toBe('nonsense')
  })

  it('signMessage signs the base58 message, for our pubkey only', () => {
    const message = new TextEncoder().encode('hello')
    const { signature } = signMessage(secret, { message: base58.encode(message), pubkey: solanaAddress(secret) })
    expect(ed25519.verify(base58.decode(signature), message, pub)).toBe(true)
    expect(() => signMessage(secret, { message: base58.encode(message), pubkey: base58.encode(other) })).toThrow('is not this wallet')
    expect(() => signMessage(secret, { message: '0OIl', pubkey: solanaAddress(secret) })).toThrow('not base58')
  })

  it('signTransaction returns the signed wire bytes (base64)', () => {
    const { transaction } = signTransaction(secret, { transaction: base64.encode(wireTx([pub])) })
    const signed = base64.decode(transaction)
    expect(ed25519.verify(signed.subarray(1, 65), signed.subarray(65), pub)).toBe(true)
  })

  it('signAndSendTransaction sends the signed bytes with sendTransaction and returns the signature', async () => {
    const sent: unknown[][] = []
    const r = await signAndSendTransaction(secret, { transaction: base64.encode(wireTx([pub])), options: { skipPreflight: true, maxRetries: 2 } }, async (m, p) => {
      expect(m).toBe('sendTransaction')
      sent.push(p)
      return 'sig58'
    })
    expect(r).toEqual({ signature: 'sig58' })
    expect(sent[0]![1]).toEqual({ encoding: 'base64', skipPreflight: true, maxRetries: 2 })
    const signed = base64.decode(sent[0]![0] as string)
    expect(ed25519.verify(signed.subarray(1, 65), signed.subarray(65), pub)).toBe(true)
    await expect(signAndSendTransaction(secret, { transaction: 'x', options: { preflightCommitment: 'soon' } }, async () => '')).rejects.toThrow('Invalid params')
  })
})
