import { mnemonicToEntropy, mnemonicToSeed } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { HDKey as Ed25519HDKey } from 'micro-key-producer/slip10.js'
import { describe, expect, it } from 'vitest'
import { evmAddress, evmKey } from './evm'
import { addressesOf, ENTROPY_BYTES, newEntropy, seedFromEntropy, withKeys } from './keys'
import { solanaAddress, solanaKey } from './solana'
import { wordlist as frontCoded } from './wordlist'

const TEST_JUNK = 'test test test test test test test test test test test junk'
const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'

describe('BIP-39 seed', () => {
  it('matches the published seed of the all-zero entropy (no passphrase)', async () => {
    const seed = await seedFromEntropy(new Uint8Array(16))
    expect(bytesToHex(seed)).toBe(
      '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4',
    )
  })

  it('gives the same seed from the entropy as from its mnemonic', async () => {
    const entropy = mnemonicToEntropy(TEST_JUNK, wordlist)
    expect(await seedFromEntropy(entropy)).toEqual(await mnemonicToSeed(TEST_JUNK))
  })

  it("decodes its front-coded wordlist to @scure/bip39's English list, word for word", () => {
    expect(frontCoded).toHaveLength(2048)
    expect(frontCoded).toEqual(wordlist)
  })

  it('makes 32 fresh random bytes per wallet', () => {
    const a = newEntropy()
    expect(a).toHaveLength(ENTROPY_BYTES)
    expect(a).not.toEqual(newEntropy())
  })
})

describe('key derivation', () => {
  it("derives the well-known EVM account of the test mnemonic at m/44'/60'/0'/0/0", async () => {
    const key = evmKey(await mnemonicToSeed(TEST_JUNK))
    expect(bytesToHex(key)).toBe('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
    expect(evmAddress(key)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  })

  it("derives the published EVM and Solana (m/44'/501'/0'/0') addresses of the abandon…about mnemonic", async () => {
    const seed = await mnemonicToSeed(ABANDON)
    expect(evmAddress(evmKey(seed))).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94')
    expect(solanaAddress(solanaKey(seed))).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk')
    expect(await addressesOf(mnemonicToEntropy(ABANDON, wordlist))).toEqual({ evm: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94', solana: 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk' })
  })

  it('uses SLIP-0010 ed25519 derivation as its test vector 1 gives it', () => {
    // SLIP-0010, "Test vector 1 for ed25519".
    const master = Ed25519HDKey.fromMasterSeed(hexToBytes('000102030405060708090a0b0c0d0e0f'))
    expect(bytesToHex(master.privateKey)).toBe('2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7')
    const child = master.derive("m/0'/1'/2'")
    expect(bytesToHex(child.privateKey)).toBe('92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9')
    expect(bytesToHex(child.publicKeyRaw)).toBe('ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1')
  })
})

describe('withKeys', () => {
  it('zeroes the keys when fn returns and when it throws', async () => {
    const entropy = mnemonicToEntropy(TEST_JUNK, wordlist)
    let seen: Uint8Array | undefined
    const addr = await withKeys(entropy, (k) => {
      seen = k.evm
      return evmAddress(k.evm)
    })
    expect(addr).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(seen?.every((b) => b === 0)).toBe(true)
    await expect(
      withKeys(entropy, (k) => {
        seen = k.solana
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(seen?.every((b) => b === 0)).toBe(true)
  })

  it('derives only the keys of the chains it is asked for', async () => {
    const entropy = mnemonicToEntropy(TEST_JUNK, wordlist)
    const evm = await withKeys(entropy, (k, a) => ({ evm: k.evm.length, solana: k.solana.length, a: { ...a } }), ['evm'])
    expect(evm).toEqual({ evm: 32, solana: 0, a: { evm: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' } })
    const sol = await withKeys(entropy, (k, a) => ({ evm: k.evm.length, solana: k.solana.length, a: { ...a } }), ['solana'])
    expect(sol.evm).toBe(0)
    expect(sol.solana).toBe(32)
    expect(Object.keys(sol.a)).toEqual(['solana'])
    expect(sol.a.solana).toBe((await addressesOf(entropy)).solana)
  })
})
