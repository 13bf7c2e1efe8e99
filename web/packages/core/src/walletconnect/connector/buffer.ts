// A stand-in for Node's Buffer, for the WalletConnect SDK's one-click sign-in
// in the browser: sign-client 2.21.8 checks the wallet's CACAO (EIP-191 hash
// as hex) and reads its ReCap (base64 JSON) with the global Buffer, which
// browsers do not have. The stand-in covers what the SDK calls (from, alloc,
// allocUnsafe, isBuffer, concat, byteLength, toString with hex, base64,
// base64url, utf8) and is on globalThis only while the SDK runs the sign-in
// (withBuffer); a page that has its own Buffer keeps it.

type Encoding = 'hex' | 'base64' | 'base64url' | 'utf8' | 'utf-8'

function encodingOf(value: unknown): Encoding {
  const encoding = value === undefined ? 'utf8' : String(value).toLowerCase()
  if (encoding === 'hex' || encoding === 'base64' || encoding === 'base64url' || encoding === 'utf8' || encoding === 'utf-8') return encoding
  throw new Error(`Buffer stand-in: unsupported encoding ${String(value)}`)
}

function bytesOf(text: string, encoding: Encoding): Uint8Array {
  switch (encoding) {
    case 'hex': {
      if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) throw new Error('Buffer stand-in: invalid hex')
      const out = new Uint8Array(text.length / 2)
      for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16)
      return out
    }
    case 'base64':
    case 'base64url': {
      const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, ''))
      return Uint8Array.from(binary, (c) => c.charCodeAt(0))
    }
    default:
      return new TextEncoder().encode(text)
  }
}

function textOf(bytes: Uint8Array, encoding: Encoding): string {
  switch (encoding) {
    case 'hex':
      return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
    case 'base64':
    case 'base64url': {
      let binary = ''
      for (const b of bytes) binary += String.fromCharCode(b)
      const base64 = btoa(binary)
      return encoding === 'base64' ? base64 : base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    }
    default:
      return new TextDecoder().decode(bytes)
  }
}

/** The stand-in: a Uint8Array with Buffer's static constructors and toString(encoding). */
export class ByteBuffer extends Uint8Array {
  static override from(value: unknown, encodingOrOffset?: unknown, length?: number): ByteBuffer {
    if (typeof value === 'string') return new ByteBuffer(bytesOf(value, encodingOf(encodingOrOffset)))
    if (value instanceof ArrayBuffer) {
      const offset = typeof encodingOrOffset === 'number' ? encodingOrOffset : 0
      return new ByteBuffer(value, offset, length ?? value.byteLength - offset)
    }
    if (ArrayBuffer.isView(value)) return new ByteBuffer(new Uint8Array(value.buffer, value.byteOffset, value.byteLength))
    return new ByteBuffer(Array.from(value as ArrayLike<number>))
  }
  static alloc(size: number): ByteBuffer {
    return new ByteBuffer(size)
  }
  static allocUnsafe(size: number): ByteBuffer {
    return new ByteBuffer(size)
  }
  static isBuffer(value: unknown): boolean {
    return value instanceof ByteBuffer
  }
  static byteLength(value: string | ArrayBufferView, encoding?: string): number {
    return typeof value === 'string' ? bytesOf(value, encodingOf(encoding)).length : value.byteLength
  }
  static concat(list: readonly Uint8Array[], total?: number): ByteBuffer {
    const out = new ByteBuffer(total ?? list.reduce((n, part) => n + part.length, 0))
    let at = 0
    for (const part of list) {
      if (at >= out.length) break
      out.set(part.subarray(0, out.length - at), at)
      at += part.length
    }
    return out
  }
  override toString(encoding?: string): string {
    return textOf(this, encodingOf(encoding))
  }
}

/** withBuffer runs `run` with the stand-in as globalThis.Buffer when the page has none, and removes it after. */
export async function withBuffer<T>(run: () => Promise<T>): Promise<T> {
  const scope = globalThis as { Buffer?: unknown }
  if (scope.Buffer !== undefined) return run()
  scope.Buffer = ByteBuffer
  try {
    return await run()
  } finally {
    if (scope.Buffer === ByteBuffer) delete scope.Buffer
  }
}

/** withBufferSync is withBuffer for synchronous work. */
export function withBufferSync<T>(run: () => T): T {
  const scope = globalThis as { Buffer?: unknown }
  if (scope.Buffer !== undefined) return run()
  scope.Buffer = ByteBuffer
  try {
    return run()
  } finally {
    if (scope.Buffer === ByteBuffer) delete scope.Buffer
  }
}
