// What the frame keeps in its origin's IndexedDB: this browser's device id,
// the session, and the device share. Secrets are stored encrypted
// (AES-256-GCM) by a WebCrypto key made non-extractable: IndexedDB keeps the
// CryptoKey object itself, so script can use the key but no script, not even
// the frame's, can read its bytes: an XSS in the frame origin could use the
// share but not carry it away. The browser keeps the key material in its
// profile, so a copy of the whole browser profile is a copy of the share.
//
// Records are per project (several dapps share the frame origin) and shares
// per user too (one browser may sign in as several users).
import { base64urlnopad } from '@scure/base'

const DB_NAME = 'latch-frame'
const DB_VERSION = 1
const STORE = 'records'

/** A secret at rest. */
interface Sealed {
  readonly key: CryptoKey
  readonly iv: Uint8Array
  readonly ciphertext: ArrayBuffer
}

/** The public side of a stored wallet. */
export interface StoredAddresses {
  readonly evm: string
  readonly solana: string
}

/** DeviceStore is the frame's storage in this browser. */
export interface DeviceStore {
  /** deviceId returns this browser's device id for a project, made on first use (16 random bytes, base64url). */
  deviceId(projectId: string): Promise<string>
  /** putShare stores the device share of a user and the wallet's addresses, replacing any earlier ones. */
  putShare(projectId: string, userId: string, share: Uint8Array, addresses: StoredAddresses): Promise<void>
  /** getShare returns the device share of a user, or undefined when this browser has none. */
  getShare(projectId: string, userId: string): Promise<Uint8Array | undefined>
  /** addresses returns the addresses stored with the user's device share. */
  addresses(projectId: string, userId: string): Promise<StoredAddresses | undefined>
  /** deleteShare forgets the device share of a user. */
  deleteShare(projectId: string, userId: string): Promise<void>
  /** putSecret stores a JSON value encrypted under name (the session). */
  putSecret(projectId: string, name: string, value: unknown): Promise<void>
  /** getSecret returns the value stored under name, or undefined. */
  getSecret(projectId: string, name: string): Promise<unknown>
  /** deleteSecret forgets the value stored under name. */
  deleteSecret(projectId: string, name: string): Promise<void>
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result)
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'))
  })
}

function openDB(factory: IDBFactory): Promise<IDBDatabase> {
  const r = factory.open(DB_NAME, DB_VERSION)
  r.onupgradeneeded = () => {
    if (!r.result.objectStoreNames.contains(STORE)) r.result.createObjectStore(STORE)
  }
  return request(r)
}

// The record's place is authenticated with it: a record copied to another
// project's or user's slot does not decrypt.
const aad = (slot: string) => new TextEncoder().encode(`latch frame v1 ${slot}`)

async function seal(slot: string, plaintext: Uint8Array): Promise<Sealed> {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const copy = new Uint8Array(plaintext)
  try {
    const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad(slot) }, key, copy)
    return { key, iv, ciphertext }
  } finally {
    copy.fill(0)
  }
}

async function unseal(slot: string, s: Sealed): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: s.iv as Uint8Array<ArrayBuffer>, additionalData: aad(slot) }, s.key, s.ciphertext))
}

/** openDeviceStore opens the store in factory (the frame's indexedDB by default). */
export function openDeviceStore(factory: IDBFactory = globalThis.indexedDB): DeviceStore {
  let db: Promise<IDBDatabase> | undefined
  const store = async (mode: IDBTransactionMode): Promise<IDBObjectStore> => {
    db ??= openDB(factory)
    return (await db).transaction(STORE, mode).objectStore(STORE)
  }
  const get = async <T>(key: string): Promise<T | undefined> => (await request((await store('readonly')).get(key))) as T | undefined
  const put = async (key: string, value: unknown): Promise<void> => void (await request((await store('readwrite')).put(value, key)))
  const del = async (key: string): Promise<void> => void (await request((await store('readwrite')).delete(key)))
  const shareSlot = (projectId: string, userId: string) => `share:${projectId}:${userId}`
  const secretSlot = (projectId: string, name: string) => `secret:${projectId}:${name}`

  return {
    async deviceId(projectId) {
      const slot = `device:${projectId}`
      const found = await get<string>(slot)
      if (found) return found
      const id = base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(16)))
      await put(slot, id)
      return id
    },
    async putShare(projectId, userId, share, addresses) {
      const slot = shareSlot(projectId, userId)
      await put(slot, { sealed: await seal(slot, share), addresses: { evm: addresses.evm, solana: addresses.solana } })
    },
    async getShare(projectId, userId) {
      const slot = shareSlot(projectId, userId)
      const rec = await get<{ sealed: Sealed }>(slot)
      return rec ? unseal(slot, rec.sealed) : undefined
    },
    async addresses(projectId, userId) {
      return (await get<{ addresses: StoredAddresses }>(shareSlot(projectId, userId)))?.addresses
    },
    deleteShare: (projectId, userId) => del(shareSlot(projectId, userId)),
    async putSecret(projectId, name, value) {
      const slot = secretSlot(projectId, name)
      await put(slot, await seal(slot, new TextEncoder().encode(JSON.stringify(value))))
    },
    async getSecret(projectId, name) {
      const slot = secretSlot(projectId, name)
      const rec = await get<Sealed>(slot)
      return rec ? JSON.parse(new TextDecoder().decode(await unseal(slot, rec))) : undefined
    },
    deleteSecret: (projectId, name) => del(secretSlot(projectId, name)),
  }
}
