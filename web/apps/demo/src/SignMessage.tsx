import { useState } from 'react'
import { createPublicClient, custom, recoverMessageAddress, stringToHex, type Hex } from 'viem'
import { useLatchProvider } from '@latchkit/react'

type Eip1193 = { request(args: { method: string; params?: unknown[] }): Promise<unknown> }

/** Signs a message with the connected wallet (personal_sign) and checks the signature (locally, else on chain for a smart account). */
export function SignMessage() {
  const { walletProvider, address, status } = useLatchProvider<Eip1193>()
  const [message, setMessage] = useState('Hello from the Latch demo')
  const [result, setResult] = useState<{ signature: Hex; valid: boolean } | { error: string } | null>(null)
  const [signing, setSigning] = useState(false)

  const sign = async () => {
    if (!walletProvider || !address) return
    setSigning(true)
    setResult(null)
    try {
      const signature = (await walletProvider.request({ method: 'personal_sign', params: [stringToHex(message), address] })) as Hex
      const signer = await recoverMessageAddress({ message, signature }).catch(() => undefined)
      // A smart account's signature (ERC-1271, or ERC-6492 before it is deployed) is checked on chain.
      const valid =
        signer?.toLowerCase() === address.toLowerCase() ||
        (await createPublicClient({ transport: custom(walletProvider) })
          .verifyMessage({ address: address as Hex, message, signature })
          .catch(() => false))
      setResult({ signature, valid })
    } catch (error) {
      setResult({ error: error instanceof Error ? error.message : String(error) })
    } finally {
      setSigning(false)
    }
  }

  return (
    <section style={{ marginTop: 24 }}>
      <h2 style={{ fontSize: 18 }}>Sign a message</h2>
      <div style={{ display: 'flex', gap: 8 }}>
        <input
          data-testid="demo-sign-input"
          aria-label="Message"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          style={{ flex: 1 }}
        />
        <button data-testid="demo-sign-message" disabled={status !== 'connected' || !walletProvider || signing} onClick={() => void sign()}>
          {signing ? 'Signing…' : 'Sign message'}
        </button>
      </div>
      {result && 'signature' in result ? (
        <p>
          <code data-testid="demo-signature" style={{ wordBreak: 'break-all' }}>
            {result.signature}
          </code>{' '}
          <span data-testid="demo-signature-valid">{result.valid ? 'valid signature of the connected account' : 'signature does not match the account'}</span>
        </p>
      ) : null}
      {result && 'error' in result ? (
        <p data-testid="demo-sign-error" role="alert" style={{ color: '#c0392b' }}>
          {result.error}
        </p>
      ) : null}
    </section>
  )
}
