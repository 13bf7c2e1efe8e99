import { loadEmbeddedActions, type EmbeddedActions } from '@latchkit/core'

/** withActions runs fn with core's e-mail wallet actions (a chunk loaded on first use). */
export function withActions(fn: (actions: EmbeddedActions) => Promise<void>): Promise<void> {
  return loadEmbeddedActions().then(fn)
}
