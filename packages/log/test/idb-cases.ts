/**
 * IndexedDB-specific behaviour beyond the compliance suite, shared by the Chromium run
 * (idb.browser.test.ts) and the fake-indexeddb run (idb-fake.test.ts).
 */
import { batchOf, concatBytes, numbered, readAll } from '@tributary/test-utils'
import { openDB } from 'idb'
import { afterEach, describe, expect, it } from 'vitest'
import { deleteIdbDatabase, IdbConnectionClosedError, IdbStore, openIdbLog } from '../src/idb/index.js'
import type { PartitionLog } from '../src/index.js'
import { openLog } from '../src/log.js'

let counter = 0
export const freshDbName = (): string => `tributary-test-${Date.now().toString(36)}-${counter++}`

export function describeIdbStore(env: string): void {
  describe(`log > idb > ${env}`, () => {
    const cleanups: Array<() => Promise<void>> = []
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
    })
    const track = (dbName: string, ...logs: PartitionLog[]): void => {
      cleanups.push(() => deleteIdbDatabase(dbName))
      for (const log of logs) cleanups.push(() => log.close())
    }

    it('keeps data, offsets and checkpoints across closing and reopening the database', async () => {
      const dbName = freshDbName()
      const log = await openIdbLog({ name: 'orders-0', dbName, config: { segmentBytes: 600 } })
      track(dbName, log)
      for (let i = 0; i < 10; i++) await log.appendAsLeader(batchOf(numbered(4, `r${i}-`)), i < 5 ? 1 : 2)
      log.setHighWatermark(25)
      const before = await readAll(log)
      const segments = log.segmentCount
      const size = log.sizeBytes
      await log.close()
      const again = await openIdbLog({ name: 'orders-0', dbName, config: { segmentBytes: 600 } })
      track(dbName, again)
      expect([again.logEndOffset, again.highWatermark, again.segmentCount, again.sizeBytes]).toEqual([
        40,
        25,
        segments,
        size,
      ])
      expect(again.epochEntries()).toEqual([
        { epoch: 1, startOffset: 0 },
        { epoch: 2, startOffset: 20 },
      ])
      expect(await readAll(again)).toEqual(before)
    })

    it('serves appended data after an unclean stop (no clean-shutdown marker)', async () => {
      const dbName = freshDbName()
      const store = new IdbStore({ partitionKey: 'p', dbName })
      const log = await openLog({ name: 'p', store })
      for (let i = 0; i < 5; i++) await log.appendAsLeader(batchOf(numbered(3)), 0)
      // A tab that dies runs no close(): only the store's connection goes.
      await store.close(false)
      const again = await openIdbLog({ name: 'p', dbName })
      track(dbName, again)
      expect(again.logEndOffset).toBe(15)
      expect((await readAll(again)).map((r) => r.offset)).toEqual(Array.from({ length: 15 }, (_, i) => i))
    })

    it('reports whether the last shutdown was clean', async () => {
      const dbName = freshDbName()
      cleanups.push(() => deleteIdbDatabase(dbName))
      const store = new IdbStore({ partitionKey: 'p', dbName })
      expect((await store.open(0)).cleanShutdown).toBe(false)
      await store.roll(0, 0)
      await store.close(true)
      expect((await store.open(0)).cleanShutdown).toBe(true)
      await store.close(false)
      expect((await store.open(0)).cleanShutdown).toBe(false)
      await store.close(true)
    })

    it('keeps partitions in one database independent', async () => {
      const dbName = freshDbName()
      // Keys are [partitionKey, offset] arrays: a name that prefixes another must not leak into it.
      const a = await openIdbLog({ name: 'orders-1', dbName, config: { segmentBytes: 400 } })
      const b = await openIdbLog({ name: 'orders-10', dbName, config: { segmentBytes: 400 } })
      track(dbName, a, b)
      for (let i = 0; i < 8; i++) {
        await a.appendAsLeader(batchOf([{ key: 'a', value: `a${i}` }]), 0)
        await b.appendAsLeader(
          batchOf([
            { key: 'b', value: `b${i}` },
            { key: 'b', value: `b${i}'` },
          ]),
          3,
        )
      }
      await a.truncateTo(3)
      expect(a.logEndOffset).toBe(3)
      expect(b.logEndOffset).toBe(16)
      expect((await readAll(b)).every((r) => r.key === 'b' && r.epoch === 3)).toBe(true)
      await b.destroy()
      expect((await readAll(a)).map((r) => r.value)).toEqual(['a0', 'a1', 'a2'])
      await a.close()
      const reopened = await openIdbLog({ name: 'orders-10', dbName })
      track(dbName, reopened)
      expect([reopened.logStartOffset, reopened.logEndOffset]).toEqual([0, 0])
      const aAgain = await openIdbLog({ name: 'orders-1', dbName })
      track(dbName, aAgain)
      expect(aAgain.logEndOffset).toBe(3)
    })

    it('rebuilds a segment info that does not match its batches at open', async () => {
      const dbName = freshDbName()
      const log = await openIdbLog({ name: 'p', dbName })
      for (let i = 0; i < 4; i++) await log.appendAsLeader(batchOf(numbered(5)), 0)
      const size = log.sizeBytes
      await log.close()
      // Tamper: a segment that claims more than it holds (what a bug or foreign code could leave).
      const raw = await openDB(dbName)
      const row = await raw.get('segments', ['p', 0])
      await raw.put('segments', { ...row, nextOffset: 99, sizeBytes: 1, maxTimestamp: 5 })
      raw.close()
      const again = await openIdbLog({ name: 'p', dbName })
      track(dbName, again)
      expect([again.logEndOffset, again.sizeBytes]).toEqual([20, size])
      expect((await again.appendAsLeader(batchOf(numbered(1)), 0)).firstOffset).toBe(20)
    })

    it('recomputes size and max timestamp when truncation cuts the newest batch', async () => {
      const dbName = freshDbName()
      cleanups.push(() => deleteIdbDatabase(dbName))
      const store = new IdbStore({ partitionKey: 'p', dbName })
      await store.open(0)
      await store.roll(0, 0)
      const stored = [100, 300, 200].map((ts, i) => ({
        bytes: batchOf(numbered(2), { timestamp: ts }),
        baseOffset: i * 2,
        lastOffset: i * 2 + 1,
        maxTimestamp: ts,
      }))
      const full = await store.append(stored)
      expect(full).toMatchObject({ nextOffset: 6, maxTimestamp: 300 })
      const cut = await store.truncate(0, 3)
      expect(cut).toMatchObject({ nextOffset: 2, maxTimestamp: 100, sizeBytes: stored[0]!.bytes.length })
      expect(await store.read(0, 0, 1 << 20)).toEqual(stored[0]!.bytes)
      await store.close(true)
    })

    it('keeps segment sizes exact through compaction and a reopen', async () => {
      const dbName = freshDbName()
      const config = { cleanupPolicy: 'compact' as const, segmentBytes: 700 }
      const log = await openIdbLog({ name: 'c', dbName, config })
      track(dbName, log)
      for (let round = 0; round < 12; round++) {
        await log.appendAsLeader(batchOf(['x', 'y', 'z'].map((k) => ({ key: k, value: `${k}${round}` }))), 0)
      }
      log.setHighWatermark(log.logEndOffset)
      const first = await log.compact()
      expect(first.recordsRemoved).toBeGreaterThan(0)
      expect(first.bytesAfter).toBeLessThan(first.bytesBefore)
      const compacted = await readAll(log)
      // A second run finds nothing more to drop and rewrites nothing.
      expect((await log.compact()).recordsRemoved).toBe(0)
      const size = log.sizeBytes
      await log.close()
      const again = await openIdbLog({ name: 'c', dbName, config })
      track(dbName, again)
      expect(again.sizeBytes).toBe(size)
      expect(await readAll(again)).toEqual(compacted)
    })

    it('serves valid data to reads that run while compaction rewrites a segment in place', async () => {
      const dbName = freshDbName()
      const log = await openIdbLog({ name: 'r', dbName, config: { cleanupPolicy: 'compact', segmentBytes: 2000 } })
      track(dbName, log)
      for (let round = 0; round < 8; round++) {
        for (let k = 0; k < 6; k++) await log.appendAsLeader(batchOf([{ key: `k${k}`, value: `${round}` }]), 0)
      }
      log.setHighWatermark(log.logEndOffset)
      let compacting = true
      const compaction = log.compact().finally(() => {
        compacting = false
      })
      let reads = 0
      while (compacting || reads === 0) {
        // Every read must verify (offsets contiguous, CRCs, epochs) and end with the newest values.
        const records = await readAll(log)
        const offsets = records.map((r) => r.offset)
        expect(offsets).toEqual([...offsets].sort((x, y) => x - y))
        expect(offsets.at(-1)).toBe(47)
        for (let k = 0; k < 6; k++) expect(records.filter((r) => r.key === `k${k}`).at(-1)?.value).toBe('7')
        reads++
      }
      expect((await compaction).recordsRemoved).toBeGreaterThan(0)
    })

    it('writes nothing when an append is aborted', async () => {
      const dbName = freshDbName()
      cleanups.push(() => deleteIdbDatabase(dbName))
      const store = new IdbStore({ partitionKey: 'a', dbName })
      await store.open(0)
      const empty = await store.roll(0, 0)
      const bytes = batchOf(numbered(3))
      const controller = new AbortController()
      const append = store.append([{ bytes, baseOffset: 0, lastOffset: 2, maxTimestamp: 1 }], {
        signal: controller.signal,
      })
      controller.abort(new Error('caller gave up'))
      await expect(append).rejects.toThrow('caller gave up')
      expect(await store.read(0, 0, 1 << 20)).toHaveLength(0)
      // The store goes on: the same offsets append cleanly afterwards.
      const info = await store.append([{ bytes, baseOffset: 0, lastOffset: 2, maxTimestamp: 1 }])
      expect(info).toMatchObject({ ...empty, nextOffset: 3, sizeBytes: bytes.length, maxTimestamp: 1 })
      await store.close(true)
    })

    it('closes on versionchange with a typed error, and reopens after', async () => {
      const dbName = freshDbName()
      const log = await openIdbLog({ name: 'v', dbName })
      cleanups.push(() => deleteIdbDatabase(dbName))
      await log.appendAsLeader(batchOf(numbered(2)), 0)
      // Deleting the database asks every connection to close (a versionchange).
      await deleteIdbDatabase(dbName)
      const err = await log.appendAsLeader(batchOf(numbered(1)), 0).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(IdbConnectionClosedError)
      expect((err as IdbConnectionClosedError).retriable).toBe(true)
      await log.close().catch(() => {})
      const again = await openIdbLog({ name: 'v', dbName })
      track(dbName, again)
      expect(again.logEndOffset).toBe(0)
      expect((await again.appendAsLeader(concatBytes(batchOf(numbered(1)), batchOf(numbered(2))), 0)).lastOffset).toBe(
        2,
      )
    })
  })
}
