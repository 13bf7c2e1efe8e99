import { describe, expect, it } from 'vitest'
import { withDevCheckoutLocale } from './startOnrampCheckout'

describe('withDevCheckoutLocale', () => {
  it("adds the widget's locale to latchd dev's checkout page only", () => {
    expect(withDevCheckoutLocale('http://127.0.0.1:8547/dev/onramp/checkout/o1', 'ar')).toBe('http://127.0.0.1:8547/dev/onramp/checkout/o1?locale=ar')
    expect(withDevCheckoutLocale('http://latchd.test/dev/onramp/checkout/o1?locale=de', 'pt-BR')).toBe('http://latchd.test/dev/onramp/checkout/o1?locale=pt-BR')
    // A provider's URL is the provider's: untouched.
    expect(withDevCheckoutLocale('https://pay.coinbase.com/buy/select-asset?sessionToken=x', 'de')).toBe('https://pay.coinbase.com/buy/select-asset?sessionToken=x')
    expect(withDevCheckoutLocale('not a url', 'de')).toBe('not a url')
  })
})
