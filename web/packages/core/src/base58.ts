// Base58 (Bitcoin's alphabet), the text form of Solana addresses, keys and signatures.

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** Bitcoin's base58 (Solana's addresses and signatures): leading zero bytes are leading '1's. */
export const base58 = {
  encode(bytes: Uint8Array): string {
    let n = 0n
    for (const b of bytes) n = (n << 8n) | BigInt(b)
    let out = ''
    for (; n > 0n; n /= 58n) out = ALPHABET[Number(n % 58n)]! + out
    for (const b of bytes) {
      if (b !== 0) break
      out = '1' + out
    }
    return out
  },
  decode(text: string): Uint8Array {
    let n = 0n
    for (const c of text) {
      const digit = ALPHABET.indexOf(c)
      if (digit < 0) throw new Error(`Invalid base58 character ${JSON.stringify(c)}`)
      n = n * 58n + BigInt(digit)
    }
    const body: number[] = []
    for (; n > 0n; n >>= 8n) body.unshift(Number(n & 0xffn))
    const zeros = /^1*/.exec(text)![0].length
    return Uint8Array.from([...new Array<number>(zeros).fill(0), ...body])
  },
}
