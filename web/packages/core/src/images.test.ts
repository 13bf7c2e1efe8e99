// The app's own icons: chainImages and connectorImages replace latchd's image routes (and an extension's icon).
import { describe, expect, it } from 'vitest'
import { defineChain } from 'viem'
import { mainnet } from 'viem/chains'
import { createLatch } from './latch'
import { toLatchWallet } from './connection/latchWallet'
import { LatchOptionsError, resolveOptions } from './options'

const dev = defineChain({
  id: 31337,
  name: 'Latch Dev',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:1'] } },
})
const base = { projectId: 'a'.repeat(32), networks: [dev, mainnet], apiUrl: 'http://127.0.0.1:1' } as const

describe('chainImages and connectorImages options', () => {
  it('accept http(s), page-relative and data:image URLs, and default to none', () => {
    const opts = resolveOptions({
      ...base,
      chainImages: { 1: 'https://cdn.example/eth.svg', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': '/icons/sol.png', 31337: 'data:image/svg+xml,<svg/>' },
      connectorImages: { 'io.metamask': './mm.png' },
    })
    expect(opts.chainImages['1']).toBe('https://cdn.example/eth.svg')
    expect(opts.chainImages['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp']).toBe('/icons/sol.png')
    expect(opts.connectorImages['io.metamask']).toBe('./mm.png')
    // No prototype: an id that names an Object method finds nothing.
    expect(opts.connectorImages['constructor']).toBeUndefined()
    const none = resolveOptions(base)
    expect(Object.keys(none.chainImages)).toEqual([])
    expect(Object.keys(none.connectorImages)).toEqual([])
  })

  it('refuse what is not an image URL, naming the entry', () => {
    const bad: [unknown, string][] = [
      [{ 1: 'javascript:alert(1)' }, '`chainImages["1"]` is not an http(s), relative or data:image URL'],
      [{ 1: 'data:text/html,<b>' }, '`chainImages["1"]`'],
      [{ 1: '' }, '`chainImages["1"]`'],
      [{ 1: 42 }, '`chainImages["1"]`'],
      [{ 1: 'JavaScript:alert(1)' }, '`chainImages["1"]`'],
      [['https://a.test/x.png'], '`chainImages` must be an object'],
      ['https://a.test/x.png', '`chainImages` must be an object'],
    ]
    for (const [chainImages, message] of bad) {
      expect(() => resolveOptions({ ...base, chainImages: chainImages as never })).toThrow(LatchOptionsError)
      expect(() => resolveOptions({ ...base, chainImages: chainImages as never })).toThrow(message)
    }
    expect(() => resolveOptions({ ...base, connectorImages: { metamask: 'blob:https://a.test/1' } })).toThrow('`connectorImages["metamask"]`')
  })

  it("assetImageUrl gives the app's network icon, by chain id or CAIP-2 id, else latchd's route", () => {
    const latch = createLatch({ ...base, chainImages: { 1: 'https://cdn.example/eth.svg', 'eip155:31337': '/dev.svg', '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': '/sol.svg' } })
    expect(latch.assetImageUrl('eip155:1')).toBe('https://cdn.example/eth.svg')
    expect(latch.assetImageUrl('eip155:31337')).toBe('/dev.svg')
    expect(latch.assetImageUrl('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toBe('/sol.svg')
    expect(latch.assetImageUrl('eip155:10')).toMatch(/^http:\/\/127\.0\.0\.1:1\/public\/getAssetImage\/eip155%3A10\?projectId=a{32}/)
    latch.destroy()
  })

  it('updateOptions changes the icons in force', async () => {
    const latch = createLatch(base)
    expect(latch.assetImageUrl('eip155:1')).toContain('/public/getAssetImage/')
    await latch.updateOptions({ chainImages: { 1: '/eth.svg' }, connectorImages: { c1: '/c1.png' } })
    expect(latch.assetImageUrl('eip155:1')).toBe('/eth.svg')
    latch.destroy()
  })

  it("the wallet list shows the app's icon for a wallet by id", () => {
    const latch = createLatch({
      ...base,
      customWallets: [
        { id: 'c1', name: 'Custom One', image_url: 'https://c1.test/own.png' },
        { id: 'c2', name: 'Custom Two', image_url: 'https://c2.test/own.png' },
      ],
      connectorImages: { c1: '/icons/c1.png' },
    })
    const images = Object.fromEntries(latch.getState().wallets.map((w) => [w.id, w.imageUrl]))
    expect(images['c1']).toBe('/icons/c1.png')
    expect(images['c2']).toBe('https://c2.test/own.png')
    latch.destroy()
  })
})

describe('toLatchWallet', () => {
  const api = { walletImageUrl: (id: string) => `https://latchd.test/getWalletImage/${id}` }
  const wallet = { id: 'reg-1', name: 'MetaMask', kind: 'injected' as const, installed: true, connectorId: 'io.metamask.conn', rdns: 'io.metamask' }

  it("takes the app's image by wallet id, then connector id, then rdns, over the announced icon and latchd's", () => {
    const announced = { ...wallet, imageUrl: 'data:image/png;base64,announced' }
    const at = (images: Record<string, string>) => toLatchWallet(api, announced, images).imageUrl
    expect(at({ 'reg-1': '/by-id.png', 'io.metamask.conn': '/by-connector.png', 'io.metamask': '/by-rdns.png' })).toBe('/by-id.png')
    expect(at({ 'io.metamask.conn': '/by-connector.png', 'io.metamask': '/by-rdns.png' })).toBe('/by-connector.png')
    expect(at({ 'io.metamask': '/by-rdns.png' })).toBe('/by-rdns.png')
    expect(at({ other: '/other.png' })).toBe('data:image/png;base64,announced')
  })

  it("falls back to latchd's image route for a registry image id, and to none", () => {
    expect(toLatchWallet(api, { ...wallet, imageId: 'img-1' }, {}).imageUrl).toBe('https://latchd.test/getWalletImage/img-1')
    // An extension that announces no icon still gets its registry image.
    expect(toLatchWallet(api, { ...wallet, imageUrl: '', imageId: 'img-1' }, {}).imageUrl).toBe('https://latchd.test/getWalletImage/img-1')
    expect('imageUrl' in toLatchWallet(api, { id: 'x', name: 'X', kind: 'recommended', installed: false }, {})).toBe(false)
  })
})
