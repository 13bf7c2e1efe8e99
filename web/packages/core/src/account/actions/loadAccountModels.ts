import type { Latch } from '../../latch-types'
import { loadAccountModule, type AccountModule } from '../load'

/** loadAccountModels loads core's account module (formats, Activity model, its own chunk) and keeps it in the instance. */
export async function loadAccountModels(latch: Latch): Promise<AccountModule> {
  const module = await loadAccountModule()
  latch._internal.account.module = module
  return module
}
