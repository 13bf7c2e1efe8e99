import type { Latch } from '../../latch-types'
import { defaultOnrampOptions, onrampProviders } from '../rules'
import { onrampClient, onrampSlice, type OnrampState } from '../state'

/**
 * loadOnrampOptions asks latchd what can be bought. When latchd cannot be
 * reached the built-in options stand in (spec §7), flagged as fallback. The
 * form then starts from spec §9's defaults (USD, card, USDC) where offered,
 * on the active network when the currency has it.
 */
export async function loadOnrampOptions(latch: Latch, provider?: string): Promise<OnrampState> {
  const slice = onrampSlice(latch)
  slice.setState({ optionsLoading: true })
  let patch: Partial<OnrampState>
  try {
    const answer = await onrampClient(latch).options(provider)
    patch = { options: answer.options, fallback: answer.fallback, providers: onrampProviders(answer.providers) }
  } catch {
    patch = { options: defaultOnrampOptions(), fallback: true, providers: [] }
  }
  const options = patch.options!
  const current = slice.getState()
  const pay = options.paymentCurrencies.find((c) => c.id === current.paymentCurrency) ?? options.paymentCurrencies[0]
  const buy = options.purchaseCurrencies.find((c) => c.id === current.purchaseCurrency || c.symbol === current.purchaseCurrency) ?? options.purchaseCurrencies[0]
  const chainId = String(latch.getState().activeNetwork?.id ?? '')
  const network = buy?.networks.find((n) => n.name === current.network) ?? buy?.networks.find((n) => n.chain_id === chainId) ?? buy?.networks[0]
  const method = pay?.payment_method_limits.some((l) => l.id === current.paymentMethod) ? current.paymentMethod : pay?.payment_method_limits[0]?.id
  slice.setState({
    ...patch,
    optionsLoading: false,
    provider: provider ?? current.provider,
    paymentCurrency: pay?.id ?? current.paymentCurrency,
    paymentMethod: method ?? current.paymentMethod,
    purchaseCurrency: buy?.id ?? current.purchaseCurrency,
    network: network?.name,
  })
  return slice.getState()
}
