// The on-demand entry of the account module (see models.ts).

/** Everything `./models` exports: latchd's account client, formats, the Activity model. */
export type AccountModule = typeof import('./models')

let loading: Promise<AccountModule> | undefined

/** Loads the account module once; later calls share the same promise. */
export function loadAccountModule(): Promise<AccountModule> {
  loading ??= import('./models').catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}
