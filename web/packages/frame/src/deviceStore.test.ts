import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { openDeviceStore } from './deviceStore'

const addrs = { evm: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', solana: 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk' }
const share = new Uint8Array(33).map((_, i) => 200 - i)

// Reads a raw record, as a script (or a copy of the database) could.
async function raw(factory: IDBFactory, key: string): Promise<unknown> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const r = factory.open('latch-frame')
    r.onsuccess = () => resolve(r.result)
    r.onerror = () => reject(r.error)
  })
  return new Promise((resolve, reject) => {
    const r = db.transaction('records').objectStore('records').get(key)
    r.onsuccess = () => resolve(r.result)
    r.onerror = () => reject(r.error)
  })
}

describe('device store', () => {
  it('keeps the device share wrapped by a non-extractable AES-GCM key and gives it back', async () => {
    const factory = new IDBFactory()
    const store = openDeviceStore(factory)
    await store.putShare('p1', 'u1', share, addrs)
    expect(await store.getShare('p1', 'u1')).toEqual(share)
    expect(await store.addresses('p1', 'u1')).toEqual(addrs)

    const rec = (await raw(factory, 'share:p1:u1')) as { sealed: { key: CryptoKey; ciphertext: ArrayBuffer } }
    expect(rec.sealed.key).toBeInstanceOf(CryptoKey)
    expect(rec.sealed.key.extractable).toBe(false)
    expect(rec.sealed.key.algorithm.name).toBe('AES-GCM')
    await expect(crypto.subtle.exportKey('raw', rec.sealed.key)).rejects.toThrow()
    // The stored bytes are not the share.
    const stored = new Uint8Array(rec.sealed.ciphertext)
    expect(Buffer.from(stored).includes(Buffer.from(share.subarray(0, 16)))).toBe(false)
  })

  it('keeps users and projects apart, and a record moved to another slot does not open', async () => {
    const factory = new IDBFactory()
    const store = openDeviceStore(factory)
    await store.putShare('p1', 'u1', share, addrs)
    expect(await store.getShare('p1', 'u2')).toBeUndefined()
    expect(await store.getShare('p2', 'u1')).toBeUndefined()

    const rec = await raw(factory, 'share:p1:u1')
    const db = await new Promise<IDBDatabase>((resolve) => {
      const r = factory.open('latch-frame')
      r.onsuccess = () => resolve(r.result)
    })
    await new Promise((resolve) => {
      const r = db.transaction('records', 'readwrite').objectStore('records').put(rec, 'share:p1:u2')
      r.onsuccess = resolve
    })
    await expect(store.getShare('p1', 'u2')).rejects.toThrow()
  })

  it('forgets a share, and replaces it', async () => {
    const store = openDeviceStore(new IDBFactory())
    await store.putShare('p1', 'u1', share, addrs)
    const other = new Uint8Array(33).fill(7)
    await store.putShare('p1', 'u1', other, addrs)
    expect(await store.getShare('p1', 'u1')).toEqual(other)
    await store.deleteShare('p1', 'u1')
    expect(await store.getShare('p1', 'u1')).toBeUndefined()
  })

  it('makes one device id per project, kept across openings', async () => {
    const factory = new IDBFactory()
    const id = await openDeviceStore(factory).deviceId('p1')
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(await openDeviceStore(factory).deviceId('p1')).toBe(id)
    expect(await openDeviceStore(factory).deviceId('p2')).not.toBe(id)
  })

  it('keeps secrets (the session) sealed', async () => {
    const factory = new IDBFactory()
    const store = openDeviceStore(factory)
    await store.putSecret('p1', 'session', { refreshToken: 'r-123' })
    expect(await store.getSecret('p1', 'session')).toEqual({ refreshToken: 'r-123' })
    expect(JSON.stringify(await raw(factory, 'secret:p1:session'))).not.toContain('r-123')
    await store.deleteSecret('p1', 'session')
    expect(await store.getSecret('p1', 'session')).toBeUndefined()
  })
})
