// Options honesty: every key of LatchOptions and Features is read by some code
// path outside options.ts (a source scan, so an option accepted and then
// ignored fails here), and the AppKit features Latch does not build are refused.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { mainnet } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { LatchOptionsError, resolveOptions, UNSUPPORTED_FEATURES, type LatchOptions } from './options'

const here = dirname(fileURLToPath(import.meta.url))
const optionsSource = readFileSync(join(here, 'options.ts'), 'utf8')

/** The keys of `export interface <name> { … }` in options.ts. */
function interfaceKeys(name: string): string[] {
  const body = new RegExp(`export interface ${name} \\{\\n([\\s\\S]*?)\\n\\}`).exec(optionsSource)?.[1]
  if (!body) throw new Error(`interface ${name} not found in options.ts`)
  return [...body.matchAll(/^ {2}readonly (\w+)\??:/gm)].map((m) => m[1]!)
}

/** Every non-test source file of core and react, options.ts left out (it only validates). */
function sources(): string {
  const roots = [here, join(here, '../../react/src')]
  const files: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && path !== join(here, 'options.ts') && !path.includes('/test/')) files.push(path)
    }
  }
  roots.forEach(walk)
  return files.map((f) => readFileSync(f, 'utf8')).join('\n')
}

/** Where each option is read: a pattern that must occur in the sources. */
const reads: Record<string, RegExp> = {
  projectId: /opts\.projectId/,
  networks: /opts\.networks/,
  defaultNetwork: /opts\.defaultNetwork/,
  metadata: /opts\.metadata/,
  apiUrl: /opts\.apiUrl/,
  themeMode: /opts\.themeMode/,
  themeVariables: /opts\.themeVariables/,
  features: /opts\.features\./,
  featuredWalletIds: /opts\.featuredWalletIds/,
  includeWalletIds: /opts\.includeWalletIds/,
  excludeWalletIds: /opts\.excludeWalletIds/,
  customWallets: /opts\.customWallets/,
  allWallets: /opts\.allWallets/,
  allowUnsupportedChain: /opts\.allowUnsupportedChain/,
  enableNetworkSwitch: /opts\.enableNetworkSwitch/,
  enableEmbedded: /opts\.enableEmbedded/,
  debug: /opts\.debug/,
  enableReconnect: /opts\.enableReconnect/,
  locale: /opts\.locale/,
  termsConditionsUrl: /opts\.termsConditionsUrl/,
  privacyPolicyUrl: /opts\.privacyPolicyUrl/,
  siwx: /opts\.siwx/,
  wagmiConfig: /options\.wagmiConfig/,
  walletConnect: /options\.walletConnect/,
  frameUrl: /opts\.frameUrl/,
  defaultAccountTypes: /options\.defaultAccountTypes/,
  tokens: /opts\.tokens/,
  chainImages: /opts\.chainImages/,
  connectorImages: /opts\.connectorImages/,
  // features
  'features.receive': /features\.receive/,
  'features.send': /features\.send/,
  'features.emailShowWallets': /features\.emailShowWallets/,
  'features.analytics': /features\.analytics/,
  'features.allWallets': /features\.allWallets/,
  'features.legalCheckbox': /features\.legalCheckbox/,
  'features.collapseWallets': /features\.collapseWallets/,
  'features.connectorTypeOrder': /features\.connectorTypeOrder/,
  'features.connectMethodsOrder': /features\.connectMethodsOrder/,
  'features.walletFeaturesOrder': /features\.walletFeaturesOrder/,
  // remote-managed: the local value is the fallback of the project config (features.ts)
  'features.email': /local\.email/,
  'features.socials': /local\.socials/,
  'features.swaps': /local\.swaps/,
  'features.onramp': /local\.onramp/,
  'features.history': /local\.history/,
}

describe('options honesty', () => {
  const keys = [...interfaceKeys('LatchOptions'), ...interfaceKeys('Features').map((k) => `features.${k}`)]
  const code = sources()

  it('lists every option of the types in the table (a new option needs a reader)', () => {
    expect(keys.length).toBeGreaterThan(30)
    expect(keys.filter((k) => !(k in reads))).toEqual([])
    expect(Object.keys(reads).filter((k) => !keys.includes(k))).toEqual([])
  })

  it.each(Object.entries(reads))('%s is read by a code path', (_, pattern) => {
    expect(code).toMatch(pattern)
  })

  it.each(UNSUPPORTED_FEATURES)('features.%s is refused and not in the types', (name) => {
    expect(keys).not.toContain(`features.${name}`)
    const options = { networks: [mainnet], features: { [name]: true } } as LatchOptions
    expect(() => resolveOptions(options)).toThrow(LatchOptionsError)
    expect(() => resolveOptions(options)).toThrow(name === 'headless' ? '`features.headless` is not needed: the headless hooks (useLatchWallets, useLatchWallet) always work; remove it' : `\`features.${name}\` is not supported yet`)
  })

  it('refuses the legacy siweConfig (and keeps spec §5 for siweConfig with siwx)', () => {
    expect(keys).not.toContain('siweConfig')
    expect(() => resolveOptions({ networks: [mainnet], ...{ siweConfig: {} } })).toThrow('`siweConfig` is not supported yet; use `siwx`')
    expect(() => resolveOptions({ networks: [mainnet], siwx: {} as never, ...{ siweConfig: {} } })).toThrow('Cannot set both `siweConfig` and `siwx` options')
  })
})
