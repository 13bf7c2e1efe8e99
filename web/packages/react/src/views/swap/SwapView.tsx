import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { loadSwapModule, type SwapModule, type TokenBalance } from '@latchkit/core'
import { useLatchInstance } from '../../context'
import { useAccountModels } from '../../hooks/useAccountModels'
import { useLatchBalances } from '../../hooks/useLatchBalances'
import { useLatchSelector } from '../../hooks/useLatchSelector'
import { useLocaleNumbers } from '../../hooks/useLocaleNumbers'
import { useModalT } from '../../components/LatchModal/strings'
import { useSwapT } from './strings'

type SwapToken = Awaited<ReturnType<SwapModule['getSwapTokens']>>[number]
type SwapQuote = Awaited<ReturnType<SwapModule['getSwapQuote']>>

/** Delay between the last keystroke in the amount and asking for a quote. */
const QUOTE_DEBOUNCE_MS = 400

/** Gas a swap may use, as latchd allows when it does not estimate: a first hop and each further one. */
const GAS_FIRST_HOP = 160_000n
const GAS_NEXT_HOP = 100_000n

/** The plain address of a CAIP-10 id, lower case. */
const plain = (caip10: string) => caip10.slice(caip10.lastIndexOf(':') + 1).toLowerCase()

/** formatUnits renders base units with up to 6 decimals. */
function formatUnits(value: bigint, decimals: number, places = 6): string {
  const digits = value.toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals, digits.length - decimals + places).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}

/**
 * The swap panel (WalletSwap, spec §2): the active network's tokens with the
 * visitor's balances, the amount in and the best quote out (refreshed every
 * 10 s and on input), price impact (a warning above 3%, refused above 15%),
 * the fees, then approve (when the router's allowance is short) and swap
 * through the wallet, with pending, success and error states.
 */
export function SwapView() {
  const latch = useLatchInstance()
  const t = useSwapT()
  const tc = useModalT()
  // Amounts, rates and percentages in the active locale.
  const { decimal: dec, number: num } = useLocaleNumbers()
  const models = useAccountModels()
  const { balances } = useLatchBalances()
  const network = useLatchSelector((s) => s.activeNetwork)
  // The route reads in the text's direction, so its arrow points the way the text runs.
  const arrow = useLatchSelector((s) => (s.dir === 'rtl' ? ' ← ' : ' → '))
  const ids = { from: useId(), to: useId(), amount: useId(), error: useId() }
  const [mod, setMod] = useState<SwapModule>()
  const [tokens, setTokens] = useState<SwapToken[]>()
  const [from, setFrom] = useState<string>('')
  const [to, setTo] = useState<string>('')
  const [amount, setAmount] = useState('')
  const [quote, setQuote] = useState<SwapQuote>()
  const [quoting, setQuoting] = useState(false)
  const [allowance, setAllowance] = useState<bigint>()
  const [gasPrice, setGasPrice] = useState<bigint>()
  const [step, setStep] = useState<'idle' | 'approving' | 'swapping'>('idle')
  const [error, setError] = useState<string>()
  // The last swap's failure, apart from the quote's: a re-quote after it must not clear it.
  const [swapError, setSwapError] = useState<string>()
  const [success, setSuccess] = useState<string>()
  const quoteSeq = useRef(0)
  // open({ view: 'WalletSwap', arguments: { fromToken, toToken, amount } }): where the panel starts (core checked them).
  const args = useLatchSelector((s) => s.viewData.arguments)

  // The module, then the network's tokens (default: the first token for the native coin).
  useEffect(() => {
    let live = true
    setTokens(undefined)
    setQuote(undefined)
    loadSwapModule()
      .then(async (m) => {
        const list = await m.getSwapTokens(latch)
        if (!live) return
        setMod(m)
        setTokens(list)
        const named = (key: string) => (typeof args?.[key] === 'string' ? m.findSwapToken(list, args[key] as string)?.address : undefined)
        // Defaults: the first token after the native coin into the native coin; a named side takes the other.
        const wantTo = named('toToken')
        const fromAddress = named('fromToken') ?? (list[1]?.address !== wantTo ? list[1]?.address : list[0]?.address) ?? ''
        setFrom(fromAddress)
        setTo(wantTo ?? list.find((tk) => tk.address !== fromAddress)?.address ?? '')
        if (typeof args?.amount === 'string' || typeof args?.amount === 'number') setAmount(String(args.amount))
      })
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)))
    return () => {
      live = false
    }
  }, [latch, network, args])

  const fromToken = tokens?.find((tk) => tk.address === from)
  const toToken = tokens?.find((tk) => tk.address === to)
  const balanceOf = (token: SwapToken | undefined): TokenBalance | undefined =>
    token && balances?.find((b) => (mod?.isNativeSwapToken(token) ? !b.address : b.address !== undefined && plain(b.address) === plain(token.address)))

  // The quote: debounced on input, then every QUOTE_REFRESH_MS; a newer request wins.
  useEffect(() => {
    setQuote(undefined)
    if (!mod || !fromToken || !toToken || amount.trim() === '' || step !== 'idle') return
    try {
      mod.swapAmount(fromToken, amount, latch)
    } catch (e) {
      setError((e as Error).message)
      return
    }
    setError(undefined)
    const controller = new AbortController()
    const run = async () => {
      const seq = ++quoteSeq.current
      setQuoting(true)
      try {
        const [q, allowed, gas] = await Promise.all([
          mod.getSwapQuote(latch, { from: fromToken, to: toToken, amount }, { signal: controller.signal }),
          mod.isNativeSwapToken(fromToken) ? Promise.resolve(undefined) : mod.getSwapAllowance(latch, fromToken),
          mod.getSwapGasPrice(latch),
        ])
        if (seq !== quoteSeq.current) return
        setQuote(q)
        setAllowance(allowed)
        setGasPrice(gas)
        setError(undefined)
      } catch (e) {
        if (seq !== quoteSeq.current || controller.signal.aborted) return
        setQuote(undefined)
        setError((e as Error).message)
      } finally {
        if (seq === quoteSeq.current) setQuoting(false)
      }
    }
    const first = setTimeout(run, QUOTE_DEBOUNCE_MS)
    const every = setInterval(run, mod.QUOTE_REFRESH_MS)
    return () => {
      controller.abort()
      clearTimeout(first)
      clearInterval(every)
    }
  }, [mod, latch, fromToken, toToken, amount, step])

  const held = balanceOf(fromToken)
  const native = balances?.find((b) => !b.address)
  const fee = useMemo(() => {
    if (!quote || gasPrice === undefined) return undefined
    const gas = GAS_FIRST_HOP + GAS_NEXT_HOP * BigInt(Math.max(0, quote.path.length - 2))
    const wei = gas * gasPrice
    const eth = Number(formatUnits(wei, 18, 8))
    return { native: formatUnits(wei, 18, 8), usd: native && native.price > 0 ? eth * native.price : undefined }
  }, [quote, gasPrice, native])

  if (!tokens || !models) {
    return error ? (
      <p className="latch-error-text" role="alert" data-testid="latch-swap-error">
        {error}
      </p>
    ) : (
      <span className="latch-spinner latch-list-spinner" role="status" aria-label={tc('account.loadingBalances')} />
    )
  }
  if (tokens.length < 2) return <p className="latch-subtitle">{t('swap.noTokens')}</p>

  const impact = quote?.priceImpact ?? 0
  const blocked = impact > (mod?.PRICE_IMPACT_BLOCK ?? 15)
  let amountBase: bigint | undefined
  try {
    amountBase = fromToken && mod && amount.trim() !== '' ? mod.swapAmount(fromToken, amount, latch) : undefined
  } catch {
    amountBase = undefined
  }
  let heldBase: bigint | undefined
  try {
    heldBase = held && fromToken && mod ? mod.swapAmount(fromToken, held.quantity.numeric, latch) : undefined
  } catch {
    heldBase = held ? 0n : undefined // a zero (or unreadable) balance
  }
  const insufficient = amountBase !== undefined && heldBase !== undefined && amountBase > heldBase
  const needsApproval = allowance !== undefined && amountBase !== undefined && allowance < amountBase
  const busy = step !== 'idle'

  const swap = async () => {
    if (!mod || !fromToken || !toToken || !quote) return
    setSwapError(undefined)
    setSuccess(undefined)
    try {
      const result = await mod.executeSwap(latch, { from: fromToken, to: toToken, amount, onStep: setStep })
      const message = t('swap.success', { from: dec(amount), fromSymbol: fromToken.symbol, to: dec(formatUnits(result.toAmount, toToken.decimals)), toSymbol: toToken.symbol })
      setSuccess(message)
      latch.showToast(message, 'success')
      setAmount('')
    } catch (e) {
      setSwapError((e as Error).message)
    } finally {
      setStep('idle')
    }
  }

  const option = (tk: SwapToken) => {
    const b = balanceOf(tk)
    return (
      <option key={tk.address} value={tk.address}>
        {tk.symbol}
        {b ? ` — ${models.formatQuantity(b.quantity.numeric)}` : ''}
      </option>
    )
  }

  return (
    <form
      className="latch-view latch-swap"
      data-testid="latch-view-WalletSwap"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void swap()
      }}
    >
      <label className="latch-field-label" htmlFor={ids.from}>
        {t('swap.from')}
      </label>
      <div className="latch-input-row">
        <select id={ids.from} className="latch-input" data-testid="latch-swap-from" value={from} disabled={busy}
          onChange={(event) => {
            if (event.target.value === to) setTo(from)
            setFrom(event.target.value)
          }}
        >
          {tokens.map(option)}
        </select>
        <input
          id={ids.amount}
          className="latch-input"
          data-testid="latch-swap-amount"
          dir="ltr"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0"
          aria-label={t('swap.amount')}
          value={amount}
          disabled={busy}
          aria-invalid={insufficient || undefined}
          aria-describedby={error ? ids.error : undefined}
          onChange={(event) => {
            setSuccess(undefined)
            setSwapError(undefined)
            setAmount(event.target.value)
          }}
        />
      </div>
      {held && fromToken ? (
        <span className="latch-subtitle" data-testid="latch-swap-balance">
          {t('swap.balance', { amount: models.formatQuantity(held.quantity.numeric), symbol: fromToken.symbol })}
        </span>
      ) : null}
      <button type="button" className="latch-secondary-button" data-testid="latch-swap-flip" aria-label={t('swap.flip')} disabled={busy}
        onClick={() => {
          setFrom(to)
          setTo(from)
        }}
      >
        ⇅
      </button>
      <label className="latch-field-label" htmlFor={ids.to}>
        {t('swap.to')}
      </label>
      <div className="latch-input-row">
        <select id={ids.to} className="latch-input" data-testid="latch-swap-to" value={to} disabled={busy}
          onChange={(event) => {
            if (event.target.value === from) setFrom(to)
            setTo(event.target.value)
          }}
        >
          {tokens.map(option)}
        </select>
        <output className="latch-input" dir="ltr" data-testid="latch-swap-out" data-amount={quote ? quote.toAmount.toString() : ''} aria-busy={quoting || undefined}>
          {quote && toToken ? dec(formatUnits(quote.toAmount, toToken.decimals)) : quoting ? '…' : dec('0')}
        </output>
      </div>

      {quote && fromToken && toToken && amountBase ? (
        <div className="latch-swap-details" data-testid="latch-swap-details" style={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <span className="latch-subtitle">
            {t('swap.rate', {
              from: fromToken.symbol,
              to: toToken.symbol,
              rate: dec((Number(formatUnits(quote.toAmount, toToken.decimals)) / Number(amount)).toPrecision(6)),
            })}
          </span>
          <span className="latch-subtitle" data-testid="latch-swap-route">
            {t('swap.route', { route: quote.path.map((a) => tokens.find((tk) => plain(tk.address) === plain(a) && !mod?.isNativeSwapToken(tk))?.symbol ?? a).join(arrow) })}
          </span>
          <span className="latch-subtitle" data-testid="latch-swap-impact">
            {t('swap.impact', { impact: dec(impact.toFixed(2)) })}
          </span>
          <span className="latch-subtitle">{t('swap.slippage', { slippage: num(mod?.SWAP_SLIPPAGE ?? 1) })}</span>
          <span className="latch-subtitle" data-testid="latch-swap-minimum">
            {t('swap.minimum', { amount: dec(formatUnits((quote.toAmount * BigInt(100 - (mod?.SWAP_SLIPPAGE ?? 1))) / 100n, toToken.decimals)), symbol: toToken.symbol })}
          </span>
          <span className="latch-subtitle">{t('swap.poolFee')}</span>
          {fee ? (
            <span className="latch-subtitle" data-testid="latch-swap-fee">
              {t('swap.fee', { native: dec(fee.native), symbol: network.nativeCurrency.symbol, usd: fee.usd !== undefined ? ` (${models.formatFiat(fee.usd)})` : '' })}
            </span>
          ) : null}
          {impact > (mod?.PRICE_IMPACT_WARN ?? 3) && !blocked ? (
            <p className="latch-error-text" role="status" data-testid="latch-swap-impact-warning">
              {t('swap.impactWarning', { impact: dec(impact.toFixed(2)) })}
            </p>
          ) : null}
          {blocked ? (
            <p className="latch-error-text" role="alert" data-testid="latch-swap-impact-blocked">
              {t('swap.impactBlocked', { max: num(mod?.PRICE_IMPACT_BLOCK ?? 15) })}
            </p>
          ) : null}
        </div>
      ) : null}

      {insufficient && fromToken ? (
        <p className="latch-error-text" role="alert" data-testid="latch-swap-insufficient">
          {t('swap.insufficient', { symbol: fromToken.symbol })}
        </p>
      ) : null}
      {error ? (
        <p id={ids.error} className="latch-error-text" role="alert" data-testid="latch-swap-error">
          {error}
        </p>
      ) : null}
      {swapError ? (
        <p className="latch-error-text" role="alert" data-testid="latch-swap-failed">
          {swapError}
        </p>
      ) : null}
      {success ? (
        <p className="latch-subtitle" role="status" data-testid="latch-swap-success">
          {success}
        </p>
      ) : null}
      {busy ? (
        <p className="latch-subtitle" role="status" data-testid="latch-swap-status">
          <span className="latch-spinner" aria-hidden="true" /> {step === 'approving' ? t('swap.approving', { symbol: fromToken?.symbol ?? '' }) : t('swap.swapping')}
        </p>
      ) : null}
      <button type="submit" className="latch-primary-button" data-testid="latch-swap-submit" disabled={busy || !quote || blocked || insufficient}>
        {needsApproval && fromToken ? t('swap.approveAndSwap', { symbol: fromToken.symbol }) : t('swap.swap')}
      </button>
    </form>
  )
}

export default SwapView
