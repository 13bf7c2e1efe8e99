// The on-ramp's rules on the widget's side: the providers list (spec §5),
// the built-in options (spec §7, §9) and the method's limits as the visitor
// types an amount. latchd checks all of it again.
import type { Latch } from '../latch-types'
import { lookup, type MessageParams } from '../messages'
import type { OnrampOptions, PaymentCurrency } from './client'
import { onrampFlowStrings, type OnrampFlowStringKey } from './strings'

/** The on-ramp providers the widget knows (spec §9). */
export const ONRAMP_PROVIDERS = ['coinbase', 'meld', 'dev'] as const

/**
 * onrampProviders reads a providers list: it must be an array of strings,
 * otherwise it is emptied (spec §5); names the widget does not know are left out.
 */
export function onrampProviders(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((p): p is string => typeof p === 'string')) return []
  return value.filter((p) => (ONRAMP_PROVIDERS as readonly string[]).includes(p))
}

/** Spec §9: USD; card 10.00 to 7500.00, ACH bank account 10.00 to 25000.00; USDC on Ethereum and Polygon. */
export const DEFAULT_PAYMENT_CURRENCY = 'USD'
export const DEFAULT_PURCHASE_CURRENCY = 'USDC'
export const DEFAULT_PAYMENT_METHOD = 'card'

/** The built-in options when latchd cannot be reached (spec §7: a USD and EUR sample); latchd answers the same ones when its provider fails. */
export function defaultOnrampOptions(): OnrampOptions {
  const card = { id: 'card', min: '10.00', max: '7500.00' }
  return {
    paymentCurrencies: [
      { id: 'USD', payment_method_limits: [card, { id: 'ach_bank_account', min: '10.00', max: '25000.00' }] },
      { id: 'EUR', payment_method_limits: [card] },
    ],
    purchaseCurrencies: [
      {
        id: 'USDC',
        name: 'USD Coin',
        symbol: 'USDC',
        networks: [
          { name: 'ethereum-mainnet', display_name: 'Ethereum', chain_id: '1', contract_address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
          { name: 'polygon-mainnet', display_name: 'Polygon', chain_id: '137', contract_address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359' },
        ],
      },
    ],
  }
}

const decimalText = /^-?\d+(\.\d+)?$/

/** The limits of a payment method in a currency, if it has that method. */
export function methodLimits(currency: PaymentCurrency | undefined, method: string): { min: string; max: string } | undefined {
  return currency?.payment_method_limits.find((l) => l.id === method)
}

/**
 * amountError is what is wrong with an amount as typed, or undefined: the
 * spec's decimal message (§5), then the method's limits in latchd's words;
 * in the instance's language when given `latch` (English without).
 */
export function amountError(amount: string, currency: PaymentCurrency | undefined, method: string, latch?: Latch): string | undefined {
  const state = latch?.getState()
  const say = (key: OnrampFlowStringKey, params?: MessageParams) => lookup(onrampFlowStrings, key, params, state?.catalogue, state?.locale)
  const text = amount.trim()
  if (text === '') return say('onramp.amountRequired')
  if (!decimalText.test(text)) return say('onramp.invalidDecimal', { value: text })
  const limits = methodLimits(currency, method)
  if (!currency || !limits) return undefined // latchd says which is unknown
  const value = Number(text)
  if (value < Number(limits.min) || value > Number(limits.max)) {
    const label = method === 'ach_bank_account' ? say('onramp.methodAch') : method
    return say('onramp.amountOutOfRange', { min: limits.min, max: limits.max, currency: currency.id, method: label })
  }
  return undefined
}
