/**
 * The IndexedDB store in real Chromium: the compliance suite, the idb-specific cases, and what
 * only a browser has — a real quota and Web Locks across contexts.
 */
import { concatBytes, describeLogCompliance, readAll } from '@tributary/test-utils'
import { encodeRecordBatchSync, KafkaStorageError, StorageQuotaError } from '@tributary/wire'
import { afterEach, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { deleteIdbDatabase, IdbStore, openIdbLog } from '../src/idb/index.js'
import type { PartitionLog } from '../src/index.js'
import { describeIdbStore, freshDbName } from './idb-cases.js'

declare module 'vitest/browser' {
  interface BrowserCommands {
    setStorageQuota(quotaBytes: number | null): Promise<void>
  }
}

describeLogCompliance('idb (chromium)', () => {
  const dbName = freshDbName()
  return {
    open: (id, options) => openIdbLog({ name: id, dbName, ...options }),
    store: (id) => new IdbStore({ partitionKey: id, dbName }),
    cleanup: () => deleteIdbDatabase(dbName),
  }
})

describeIdbStore('chromium')

describe('log > idb > chromium only', () => {
  const opened: PartitionLog[] = []
  const databases: string[] = []
  afterEach(async () => {
    for (const log of opened.splice(0)) await log.close().catch(() => {})
    for (const name of databases.splice(0)) await deleteIdbDatabase(name)
  })
  const open = async (options: Parameters<typeof openIdbLog>[0]): Promise<PartitionLog> => {
    const log = await openIdbLog(options)
    opened.push(log)
    return log
  }

  /**
   * ~32 KiB of random bytes: Chromium keeps values under 64 KiB inline, where its quota
   * override applies, and counts usage after compression, which random bytes defeat.
   */
  const bigBatch = (tag: string): Uint8Array =>
    encodeRecordBatchSync({
      records: Array.from({ length: 32 }, (_, i) => ({
        key: new TextEncoder().encode(`${tag}-${i}`),
        value: crypto.getRandomValues(new Uint8Array(1000)),
      })),
    })

  it('turns a full quota into StorageQuotaError with nothing written, and goes on with more room', async () => {
    const dbName = freshDbName()
    databases.push(dbName)
    const config = { segmentBytes: 256 * 1024 }
    const log = await open({ name: 'q', dbName, config })
    for (let i = 0; i < 16; i++) await log.appendAsLeader(bigBatch(`warm${i}`), 0)
    const { usage = 0 } = await navigator.storage.estimate()
    await commands.setStorageQuota(usage + 1024 * 1024)
    try {
      // Chromium's IndexedDB keeps approving writes from the quota it last fetched for up to
      // 30 s (kBucketSpaceCacheTimeLimit), so the override bites at its next fetch: keep
      // appending, paced to write a few MiB a second, until it does.
      let failure: unknown
      let appended = 0
      const deadline = Date.now() + 45_000
      while (failure === undefined && Date.now() < deadline) {
        const before = log.logEndOffset
        // Two batches per call: all or nothing.
        await log
          .appendAsLeader(concatBytes(bigBatch(`a${appended}`), bigBatch(`b${appended}`)), 0)
          .then(() => {
            appended++
          })
          .catch((err: unknown) => {
            failure = err
            expect(log.logEndOffset).toBe(before)
          })
        await new Promise((resolve) => setTimeout(resolve, 40))
      }
      expect(failure).toBeInstanceOf(StorageQuotaError)
      const quotaError = failure as StorageQuotaError
      expect(quotaError.retriable).toBe(false)
      expect(quotaError.message).toMatch(/quota/)
      expect(quotaError.message).toMatch(/nothing was written/)
      expect(quotaError.message).toMatch(/retention\.bytes/)

      const leo = log.logEndOffset
      expect(leo).toBe(16 * 32 + appended * 64)
      // Reads need no room, so they go on while the quota is full.
      const records = await readAll(log)
      expect(records.map((r) => r.offset)).toEqual(Array.from({ length: leo }, (_, i) => i))

      // Room comes back (Chromium counts usage on disk, which deleting rows shrinks only after
      // a compaction, so lifting the quota is the deterministic way here).
      await commands.setStorageQuota(null)
      // What reached IndexedDB is exactly what the log reports: reopen and compare.
      await log.close()
      const again = await open({ name: 'q', dbName, config })
      expect(again.logEndOffset).toBe(leo)
      expect(await readAll(again)).toEqual(records)
      const next = await again.appendAsLeader(bigBatch('after'), 0)
      expect(next.firstOffset).toBe(leo)
      again.setHighWatermark(again.logEndOffset)
      await again.deleteRecordsBefore(leo)
      expect((await readAll(again)).map((r) => r.offset)).toEqual(Array.from({ length: 32 }, (_, i) => leo + i))
    } finally {
      await commands.setStorageQuota(null)
    }
  }, 90_000)

  it('lets one writer at a time open a partition', async () => {
    const dbName = freshDbName()
    databases.push(dbName)
    const first = await open({ name: 'w', dbName })
    await expect(openIdbLog({ name: 'w', dbName })).rejects.toBeInstanceOf(KafkaStorageError)
    await expect(openIdbLog({ name: 'w', dbName })).rejects.toThrow(/open in another tab or log/)
    await first.close()
    const second = await open({ name: 'w', dbName })
    expect(second.logEndOffset).toBe(0)
  })
})
