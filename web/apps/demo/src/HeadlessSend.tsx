import { useState } from 'react'
import { useLatchSend } from '@latchkit/react'

/**
 * The send flow driven from the app's own UI with useLatchSend: the same
 * validation, fee estimate, balance check and wallet call as the widget's
 * Send view, without opening the modal.
 */
export function HeadlessSend() {
  const send = useLatchSend()
  const [symbol, setSymbol] = useState('')
  const [amount, setAmount] = useState('')
  const [receiver, setReceiver] = useState('')
  const [hash, setHash] = useState<string | null>(null)

  const submit = async () => {
    setHash(null)
    try {
      const token = send.tokenBalances.find((b) => b.symbol === symbol)
      const result = await send.sendNow({ token, amount, receiver })
      setHash(result.hash)
    } catch {
      // send.error holds the message
    }
  }

  return (
    <section style={{ marginTop: 24 }}>
      <h2 style={{ fontSize: 18 }}>Send from the app (useLatchSend)</h2>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        <select data-testid="demo-send-token" aria-label="Token" value={symbol} onChange={(event) => setSymbol(event.target.value)}>
          <option value="">Token</option>
          {send.tokenBalances.map((b) => (
            <option key={b.address ?? 'native'} value={b.symbol}>
              {b.symbol}
            </option>
          ))}
        </select>
        <input data-testid="demo-send-amount" aria-label="Amount" placeholder="Amount" value={amount} onChange={(event) => setAmount(event.target.value)} />
        <input
          data-testid="demo-send-receiver"
          aria-label="Receiver"
          placeholder="0x… or name"
          value={receiver}
          onChange={(event) => setReceiver(event.target.value)}
          style={{ flex: 1, minWidth: 200 }}
        />
        <button data-testid="demo-send" disabled={send.loading || send.estimating} onClick={() => void submit()}>
          {send.loading ? 'Confirm in your wallet…' : 'Send'}
        </button>
      </div>
      {send.error ? <p data-testid="demo-send-error" style={{ color: '#b42318' }}>{send.error}</p> : null}
      {hash ? <p data-testid="demo-send-hash">Sent: {hash}</p> : null}
    </section>
  )
}
