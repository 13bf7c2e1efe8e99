#!/usr/bin/env node
// Imports the network, token and wallet icons latchd serves from data/icons.
//
//   node scripts/import-icons.mjs            fetch the pinned packages with `npm pack` and rewrite data/icons
//   node scripts/import-icons.mjs --from DIR use packages already unpacked in DIR/core and DIR/common
//
// The icons come from the @web3icons packages (MIT, © 0xa3k5): @web3icons/core
// holds the SVGs, @web3icons/common the metadata that names them (CAIP-2 ids
// of networks, token symbols). Only the icons our own data needs are kept:
// the networks of data/networks.json, the tokens of data/tokens.json and the
// networks' native currencies, and the wallets of data/wallets.json that the
// set draws. The result is committed: latchd embeds it (data/icons/icons.go),
// and nothing is downloaded at build or install time.
//
// Rerun it after adding a network, a token or a wallet, or to move to a newer
// version (bump VERSIONS); `git diff data/icons` then shows what changed.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'data/icons')

// The pinned versions; @web3icons/core 4.0.56 depends on exactly common 0.11.51.
const VERSIONS = { core: '4.0.56', common: '0.11.51' }

// The set's licence (the repository's LICENCE file; the npm package declares
// MIT in package.json but ships no licence file).
const LICENCE = `MIT License

Copyright (c) 2024 0xa3k5

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`

// Networks without an icon of their own that show another network's: the
// Solana test clusters look like Solana, as in AppKit.
const NETWORK_ALIASES = {
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
}

// Tokens the set has no icon for that show the asset they wrap or bridge.
// xDAI, WXDAI and Blast's USDB have none and keep their monogram.
const TOKEN_ALIASES = {
  WETH: 'ETH',
  WBNB: 'BNB',
  WAVAX: 'AVAX',
  WMATIC: 'MATIC',
  WCRO: 'CRO',
  WMNT: 'MNT',
  WFTM: 'FTM',
  'USDC.E': 'USDC',
  USDBC: 'USDC', // USD Base Coin: bridged USDC on Base
  USDZC: 'USDC', // bridged USDC on Zora
  'DAI.E': 'DAI',
  USDT0: 'USDT', // Tether's omnichain USDT
}

// Our wallet slugs (data/wallets.json) → the set's wallet ids. The names
// differ, so the list is by hand; a slug missing from our registry fails.
const WALLETS = {
  metamask: 'metamask',
  'trust-wallet': 'trust',
  'coinbase-wallet': 'coinbase',
  'okx-wallet': 'okx',
  phantom: 'phantom',
  rainbow: 'rainbow',
  rabby: 'rabby',
  zerion: 'zerion',
  'ledger-live': 'ledger',
  safe: 'safe',
  tokenpocket: 'token-pocket',
  backpack: 'backpack',
  exodus: 'exodus',
  imtoken: 'imtoken',
  solflare: 'solflare',
  'kraken-wallet': 'kraken',
  argent: 'argent',
  'trezor-suite': 'trezor',
  'ronin-wallet': 'ronin',
  coin98: 'coin98',
  alphawallet: 'alpha-wallet',
  enkrypt: 'enkrypt',
  sequence: 'sequence',
  pillar: 'pillar',
  zengo: 'zengo',
  'mew-wallet': 'my-ether-wallet',
  glow: 'glow',
  'atomic-wallet': 'atomic',
}

// Variants by preference. "background" draws the brand's mark on its own
// coloured square, like an app icon: it reads on the light and the dark theme
// alike (many "branded" marks are white or black on nothing) and matches the
// monogram's rounded square.
const VARIANTS = ['background', 'branded', 'mono']

function unpack() {
  const i = process.argv.indexOf('--from')
  if (i > 0) return { dir: process.argv[i + 1], cleanup() {} }
  const dir = mkdtempSync(join(tmpdir(), 'latch-icons-'))
  const specs = [`@web3icons/core@${VERSIONS.core}`, `@web3icons/common@${VERSIONS.common}`]
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir, ...specs], { encoding: 'utf8' })
    .trim()
    .split('\n')
  for (const [name, file] of [['core', packed[0]], ['common', packed[1]]]) {
    mkdirSync(join(dir, name))
    execFileSync('tar', ['xzf', join(dir, file), '-C', join(dir, name), '--strip-components=1'])
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

// svgOf reads the SVG a core module exports (`var x = '<svg…>'`) in the first
// variant there is.
async function svgOf(dir, kind, file, variants) {
  for (const v of VARIANTS) {
    if (!variants.includes(v)) continue
    const mod = await import(pathToFileURL(join(dir, 'core/dist/svgs', kind, v, `${file}.svg.js`)).href)
    return clean(mod.default)
  }
  throw new Error(`${kind}/${file}: no variant of ${VARIANTS.join(', ')}`)
}

// clean drops the set's CSS class and the indentation; latchd checks what is
// left (no script, event handler, foreignObject or external reference).
function clean(svg) {
  const s = svg
    .replace(/\s+class="web3icons"/, '')
    .replace(/>\s+</g, '><')
    .trim()
  if (/<script|<foreignObject|\son[a-z]+=|<style|url\((?!#)|href="(?!#)/i.test(s)) throw new Error(`unsafe SVG: ${s.slice(0, 120)}`)
  return s + '\n'
}

async function main() {
  const { dir, cleanup } = unpack()
  try {
    const meta = (name) => import(pathToFileURL(join(dir, 'common/dist/metadata', `${name}.js`)).href)
    const { networks } = await meta('networks')
    const { tokens } = await meta('tokens')
    const { wallets } = await meta('wallets')
    const readData = (f) => JSON.parse(readFileSync(join(root, 'data', f), 'utf8'))
    const ourNetworks = readData('networks.json')
    const ourTokens = readData('tokens.json')
    const ourWallets = readData('wallets.json')

    for (const kind of ['networks', 'tokens', 'wallets']) rmSync(join(out, kind), { recursive: true, force: true })
    const files = new Map() // path under data/icons → SVG
    const manifest = {
      source: {
        package: '@web3icons/core',
        version: VERSIONS.core,
        metadata: `@web3icons/common@${VERSIONS.common}`,
        licence: 'MIT',
        copyright: 'Copyright (c) 2024 0xa3k5',
        licenceFile: 'LICENSE',
      },
      networks: {},
      tokens: {},
      wallets: {},
    }
    const missing = []

    const byCaip = new Map(networks.map((n) => [n.caip2id, n]))
    for (const n of ourNetworks) {
      const w = byCaip.get(NETWORK_ALIASES[n.caipNetworkId] ?? n.caipNetworkId)
      if (!w) {
        missing.push(`network ${n.caipNetworkId} (${n.name})`)
        continue
      }
      const path = `networks/${w.id}.svg`
      if (!files.has(path)) files.set(path, await svgOf(dir, 'networks', w.filePath.split(':')[1], w.variants))
      manifest.networks[n.caipNetworkId] = path
    }

    // A symbol may name several tokens: take the best ranked one.
    const bySymbol = new Map()
    for (const t of tokens) {
      const key = t.symbol.toUpperCase()
      const had = bySymbol.get(key)
      if (!had || (t.marketCapRank ?? Infinity) < (had.marketCapRank ?? Infinity)) bySymbol.set(key, t)
    }
    const symbols = new Set([
      ...ourNetworks.map((n) => n.nativeCurrency.symbol.toUpperCase()),
      ...Object.values(ourTokens).flatMap((list) => list.map((t) => t.symbol.toUpperCase())),
    ])
    for (const sym of [...symbols].sort()) {
      const t = bySymbol.get(TOKEN_ALIASES[sym] ?? sym)
      if (!t) {
        missing.push(`token ${sym}`)
        continue
      }
      const file = t.filePath.split(':')[1]
      const path = `tokens/${file}.svg`
      if (!files.has(path)) files.set(path, await svgOf(dir, 'tokens', file, t.variants))
      manifest.tokens[sym] = path
    }

    const walletById = new Map(wallets.map((w) => [w.id, w]))
    const slugs = new Set(ourWallets.map((w) => w.slug))
    for (const [slug, id] of Object.entries(WALLETS)) {
      if (!slugs.has(slug)) throw new Error(`wallet ${slug} is not in data/wallets.json`)
      const w = walletById.get(id)
      if (!w) throw new Error(`@web3icons has no wallet ${id}`)
      const path = `wallets/${w.id}.svg`
      files.set(path, await svgOf(dir, 'wallets', w.id, w.variants))
      manifest.wallets[slug] = path
    }

    let bytes = 0
    for (const [path, svg] of files) {
      mkdirSync(dirname(join(out, path)), { recursive: true })
      writeFileSync(join(out, path), svg)
      bytes += Buffer.byteLength(svg)
    }
    writeFileSync(join(out, 'icons.json'), JSON.stringify(manifest, null, 2) + '\n')
    writeFileSync(join(out, 'LICENSE'), LICENCE)
    const n = (o) => Object.keys(o).length
    console.log(
      `data/icons: ${files.size} SVG files (${(bytes / 1024).toFixed(1)} KiB) for ${n(manifest.networks)} networks, ` +
        `${n(manifest.tokens)} token symbols and ${n(manifest.wallets)} wallets`,
    )
    if (missing.length) console.log(`no icon (monogram): ${missing.join(', ')}`)
  } finally {
    cleanup()
  }
}

await main()
