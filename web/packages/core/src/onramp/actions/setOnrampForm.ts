import type { Latch } from '../../latch-types'
import { onrampSlice, type OnrampState } from '../state'

/** The fields of the Buy form. */
export type OnrampForm = Partial<Pick<OnrampState, 'provider' | 'paymentCurrency' | 'paymentMethod' | 'purchaseCurrency' | 'network' | 'amount'>>

/**
 * setOnrampForm changes the Buy form. The quote and its error belong to the
 * old values and are cleared; a new purchase currency takes its first
 * network unless one is given.
 */
export function setOnrampForm(latch: Latch, form: OnrampForm): void {
  const slice = onrampSlice(latch)
  const { options } = slice.getState()
  const network =
    form.purchaseCurrency !== undefined && form.network === undefined
      ? { network: options?.purchaseCurrencies.find((c) => c.id === form.purchaseCurrency)?.networks[0]?.name }
      : {}
  const patch: Partial<OnrampState> = { ...form, ...network, quote: undefined, error: undefined }
  slice.setState(patch)
}
