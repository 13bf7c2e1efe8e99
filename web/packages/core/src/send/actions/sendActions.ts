import type { TokenBalance } from '../../account/types'
import type { Latch } from '../../latch-types'
import type { SendController } from '../types'
import { loadSendController } from './loadSendController'

/** The send form's actions bound to one instance; each loads the send module first when it has not loaded yet. */
export type SendActions = Pick<SendController, 'setToken' | 'setAmount' | 'setMax' | 'review' | 'edit' | 'send' | 'sendNow' | 'reset'> & {
  /** Sets the receiver; a name resolves in the background (the state shows it). */
  setReceiver(receiver: string): void
  /** The token list: the account's balances on the active network. */
  setTokenBalances(balances: readonly TokenBalance[]): void
}

/**
 * sendActions returns the instance's send actions (the same object every
 * call). Once the module has loaded they act synchronously, so a controlled
 * input updates in the same render as the keystroke.
 */
export function sendActions(latch: Latch): SendActions {
  const slot = latch._internal.send
  if (slot.actions) return slot.actions
  const ready = (): SendController | Promise<SendController> => slot.controller ?? loadSendController(latch)
  const run = (action: (c: SendController) => void): void => {
    if (slot.controller) action(slot.controller)
    else void loadSendController(latch).then(action)
  }
  slot.actions = {
    setToken: (token) => run((c) => c.setToken(token)),
    setAmount: (amount) => run((c) => c.setAmount(amount)),
    setReceiver: (receiver) => run((c) => void c.setReceiver(receiver)),
    setTokenBalances: (balances) => run((c) => c.setTokenBalances(balances)),
    setMax: async () => (await ready()).setMax(),
    review: async (overrides) => (await ready()).review(overrides),
    edit: () => run((c) => c.edit()),
    send: async () => (await ready()).send(),
    sendNow: async (request) => (await ready()).sendNow(request),
    reset: () => run((c) => c.reset()),
  }
  return slot.actions
}
