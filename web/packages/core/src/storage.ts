// Browser storage behind a small interface, SSR-safe: where localStorage does
// not exist (Node, SSR) or throws (sandboxed iframes, disabled storage), an
// in-memory store stands in so callers never need to check.

/** The subset of the Web Storage API Latch uses (localStorage fits). */
export interface KeyValueStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** Every key Latch stores starts with this prefix. */
export const STORAGE_PREFIX = 'latch:'

/** createMemoryStorage makes a KeyValueStorage held in memory. */
export function createMemoryStorage(): KeyValueStorage {
  const items = new Map<string, string>()
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
}

/** browserStorage returns localStorage when it is usable, else an in-memory storage. */
export function browserStorage(): KeyValueStorage {
  try {
    const storage = globalThis.localStorage
    if (storage && typeof storage.getItem === 'function') {
      // Reading can throw (SecurityError) even when the property exists.
      storage.getItem(`${STORAGE_PREFIX}probe`)
      return storage
    }
  } catch {
    // fall through
  }
  return createMemoryStorage()
}
