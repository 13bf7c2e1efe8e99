import { useState } from 'react'
import { useLatch, usePay } from '@latchkit/react'

/**
 * Buying and paying from the app: the widget's Buy panel, and latch.pay
 * (usePay) for a payment request the dapp fills in: the Pay view pays it from
 * the connected wallet, or buys the missing amount first.
 */
export function Pay() {
  const { open } = useLatch()
  const { pay, result } = usePay()
  const [recipient, setRecipient] = useState('')
  const [amount, setAmount] = useState('5')
  const [asset, setAsset] = useState('USDC')
  const [network, setNetwork] = useState('eip155:31337')
  const [hash, setHash] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  const submit = async () => {
    setHash(null)
    setError(null)
    try {
      setHash((await pay({ recipient, amount, asset, network })).hash)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }

  return (
    <section style={{ marginTop: 24 }}>
      <h2 style={{ fontSize: 18 }}>Buy and pay (on-ramp, latch.pay)</h2>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        <button data-testid="demo-open-buy" onClick={() => open({ view: 'OnRampProviders' })}>
          Buy crypto
        </button>
        <input data-testid="demo-pay-recipient" aria-label="Recipient" placeholder="Recipient 0x…" value={recipient} onChange={(e) => setRecipient(e.target.value)} style={{ flex: 1, minWidth: 200 }} />
        <input data-testid="demo-pay-amount" aria-label="Amount" value={amount} onChange={(e) => setAmount(e.target.value)} style={{ width: 100 }} />
        <input data-testid="demo-pay-asset" aria-label="Asset" value={asset} onChange={(e) => setAsset(e.target.value)} style={{ width: 70 }} />
        <input data-testid="demo-pay-network" aria-label="Network" value={network} onChange={(e) => setNetwork(e.target.value)} style={{ width: 120 }} />
        <button data-testid="demo-pay" onClick={() => void submit()}>
          Pay
        </button>
      </div>
      {hash ? <p data-testid="demo-pay-hash">Paid: {hash}</p> : null}
      {error ? <p data-testid="demo-pay-error" style={{ color: '#b42318' }}>{error}</p> : null}
      {result ? <p data-testid="demo-pay-result">Last payment (getPayResult): {result.amount} {result.asset} to {result.recipient}</p> : null}
    </section>
  )
}
