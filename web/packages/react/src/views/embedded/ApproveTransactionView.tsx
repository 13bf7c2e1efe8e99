import { useEffect, useMemo, useState } from 'react'
import { withActions } from './withActions'
import { formatUnits, numberToHex } from 'viem'
import { useLatchInstance } from '../../context'
import { useLocaleNumbers } from '../../hooks/useLocaleNumbers'
import { useEmbeddedT } from './strings'
import { truncateAddress } from '../../utils'
import { decodeApproval } from './decodeApproval'
import { useEmbeddedState } from './useEmbeddedState'

/**
 * ApproveTransaction: what the embedded wallet's frame is about to sign,
 * decoded (a message; typed data; a transaction's recipient, amount, token
 * and fee), with Approve and Reject. The frame signs only after Approve.
 */
export default function ApproveTransactionView() {
  const latch = useLatchInstance()
  const et = useEmbeddedT()
  const { decimal } = useLocaleNumbers()
  const state = useEmbeddedState()
  const request = state?.approval
  const chainId = request ? Number(String(request.chainId).replace(/^eip155:/, '')) : undefined
  const chain = latch._internal.networks.find((c) => c.id === chainId)
  const decoded = useMemo(() => (request ? decodeApproval(request, chain) : undefined), [request, chain])
  const fee = useFee(decoded, chainId)
  const [answering, setAnswering] = useState(false)

  // Nothing waits any more (answered elsewhere, or aborted): leave.
  useEffect(() => {
    if (!request && latch.getState().view === 'ApproveTransaction') latch.goBack()
  }, [request, latch])
  if (!request || !decoded) return <span className="latch-spinner latch-list-spinner" aria-hidden="true" />

  const answer = (approved: boolean) => {
    setAnswering(true)
    void withActions((a) => a.answerApproval(latch, approved)).finally(() => setAnswering(false))
  }
  const symbol = chain?.nativeCurrency.symbol ?? 'ETH'
  return (
    <div className="latch-view latch-approve" data-testid="latch-view-ApproveTransaction">
      <p className="latch-subtitle">{et(decoded.kind === 'transaction' ? 'approve.sendTransaction' : 'approve.signMessage')}</p>
      <dl className="latch-summary" data-testid="latch-approve-details">
        {decoded.kind === 'message' ? (
          <>
            <dt>{et('approve.message')}</dt>
            <dd data-testid="latch-approve-message" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {decoded.text}
            </dd>
          </>
        ) : null}
        {decoded.kind === 'typedData' ? (
          <>
            <dt>{et('approve.typedData')}</dt>
            <dd data-testid="latch-approve-typed">
              {decoded.primaryType} {decoded.domain ? `(${decoded.domain})` : ''}
            </dd>
          </>
        ) : null}
        {decoded.kind === 'transaction' ? (
          <>
            <dt>{et('approve.recipient')}</dt>
            <dd data-testid="latch-approve-recipient" title={decoded.to} dir="ltr">
              {decoded.to ? truncateAddress(decoded.to) : '—'}
            </dd>
            <dt>{et('approve.amount')}</dt>
            <dd data-testid="latch-approve-amount" dir="ltr">
              {decimal(decoded.amount)}
            </dd>
            <dt>{et('approve.token')}</dt>
            <dd data-testid="latch-approve-token" title={decoded.token} dir="ltr">
              {decoded.baseUnits ? truncateAddress(decoded.token) : decoded.token}
            </dd>
            <dt>{et('approve.fee')}</dt>
            <dd data-testid="latch-approve-fee">
              {decoded.sponsored ? (
                et('approve.feeSponsored')
              ) : fee === undefined ? (
                et('approve.feeByWallet')
              ) : (
                <span dir="ltr">{`${decimal(formatUnits(fee, chain?.nativeCurrency.decimals ?? 18))} ${symbol}`}</span>
              )}
            </dd>
          </>
        ) : null}
        <dt>{et('approve.network')}</dt>
        <dd data-testid="latch-approve-network">{chain?.name ?? String(request.chainId)}</dd>
      </dl>
      {decoded.kind === 'other' || decoded.kind === 'typedData' ? (
        <pre className="latch-subtitle" style={{ maxHeight: '12em', overflow: 'auto', fontSize: '0.75em' }}>
          {decoded.json}
        </pre>
      ) : null}
      <div className="latch-button-row">
        <button type="button" className="latch-secondary-button" disabled={answering} onClick={() => answer(false)} data-testid="latch-approve-reject">
          {et('approve.reject')}
        </button>
        <button type="button" className="latch-primary-button" disabled={answering} onClick={() => answer(true)} data-testid="latch-approve-approve">
          {et('approve.approve')}
        </button>
      </div>
    </div>
  )
}

/** The most a transaction may cost in fees: its own gas × max fee, else estimated through the app's chain transport. */
function useFee(decoded: ReturnType<typeof decodeApproval> | undefined, chainId: number | undefined): bigint | undefined {
  const latch = useLatchInstance()
  const [estimated, setEstimated] = useState<bigint | undefined>(undefined)
  const tx = decoded?.kind === 'transaction' ? decoded : undefined
  const own = tx?.gas !== undefined && tx.maxFeePerGas !== undefined ? tx.gas * tx.maxFeePerGas : undefined
  useEffect(() => {
    if (!tx || own !== undefined || chainId === undefined) return
    let current = true
    // Through the chain's transport of the app's wagmi config (latchd's RPC proxy), not the wallet.
    const client = latch.getWagmiConfig().getClient({ chainId })
    const call = { ...(tx.from ? { from: tx.from } : {}), ...(tx.to ? { to: tx.to } : {}), value: numberToHex(tx.value), ...(tx.data ? { data: tx.data } : {}) }
    Promise.all([
      tx.gas ?? client.request({ method: 'eth_estimateGas', params: [call] }).then(BigInt),
      tx.maxFeePerGas ?? client.request({ method: 'eth_gasPrice' }).then(BigInt),
    ]).then(
      ([gas, price]) => current && setEstimated(gas * price),
      () => current && setEstimated(undefined),
    )
    return () => {
      current = false
    }
  }, [tx, own, chainId, latch])
  return own ?? estimated
}
