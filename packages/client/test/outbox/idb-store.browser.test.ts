/**
 * The IndexedDB outbox store in real Chromium: the store contract, its rows and the move from
 * schema version 1 (idb-cases.ts), and a full quota — a real
 * QuotaExceededError under a DevTools quota override — is StorageQuotaError with nothing of
 * the refused append written.
 */
import { StorageQuotaError } from '@tributary/wire'
import { afterAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { IdbOutboxStore, outboxDatabaseName } from '../../src/outbox/idb-store.js'
import { describeIdbOutboxCases } from './idb-cases.js'
import { describeOutboxStore, record } from './store-contract.js'

declare module 'vitest/browser' {
  interface BrowserCommands {
    setStorageQuota(quotaBytes: number | null): Promise<void>
  }
}

const names: string[] = []
let next = 0

function fresh(): IdbOutboxStore {
  const name = `contract-${Date.now().toString(36)}-${next++}`
  names.push(name)
  return new IdbOutboxStore(name)
}

afterAll(() => {
  for (const name of names) indexedDB.deleteDatabase(outboxDatabaseName(name))
})

describeOutboxStore('indexeddb', { create: fresh, reopen: (previous) => new IdbOutboxStore(previous.name) })
describeIdbOutboxCases('indexeddb')

describe('outbox store > indexeddb > opening', () => {
  it('gives up opening when its signal aborts, with a typed error', async () => {
    const store = fresh()
    await expect(store.open(() => 1, AbortSignal.abort(new Error('test: abort')))).rejects.toThrow('test: abort')
    const opened = await store.open(() => 3, AbortSignal.timeout(10_000))
    expect(opened.meta.producerId).toBe(3)
    store.close()
  })
})

describe('outbox store > indexeddb > quota', () => {
  it('turns a full quota into StorageQuotaError with nothing of that append written', async () => {
    const store = fresh()
    await store.open(() => 1)
    const limits = { maxRecords: 1_000_000, maxBytes: 1024 * 1024 * 1024 }
    // ~32 KiB of random bytes per record: Chromium keeps values under 64 KiB inline, where the
    // quota override applies, and random bytes defeat its compression.
    const big = (tag: string) => ({ ...record(tag, 32_024), value: crypto.getRandomValues(new Uint8Array(32_000)) })
    await store.append([big('warm-0'), big('warm-1')], limits)
    const { usage = 0 } = await navigator.storage.estimate()
    await commands.setStorageQuota(usage + 1024 * 1024)
    try {
      // Chromium approves writes from the quota it last fetched for up to 30 s, so keep
      // appending, paced, until the override bites (as the log's IndexedDB quota test does).
      let failure: unknown
      let appended = 2
      const deadline = Date.now() + 45_000
      while (failure === undefined && Date.now() < deadline) {
        const before = await store.meta()
        await store.append([big(`a${appended}`), big(`b${appended}`)], limits).then(
          () => {
            appended += 2
          },
          async (err: unknown) => {
            failure = err
            expect(await store.meta()).toEqual(before)
          },
        )
        await new Promise((resolve) => setTimeout(resolve, 40))
      }
      expect(failure).toBeInstanceOf(StorageQuotaError)
      expect((failure as StorageQuotaError).retriable).toBe(false)
      expect((failure as Error).message).toMatch(/quota.*nothing was written/)
      // What the store holds is exactly the appends that succeeded.
      const held = await store.unsealed(1_000_000, Number.MAX_SAFE_INTEGER)
      expect(held).toHaveLength(appended)
      expect((await store.meta()).records).toBe(appended)
    } finally {
      await commands.setStorageQuota(null)
      store.close()
    }
  }, 90_000)
})
