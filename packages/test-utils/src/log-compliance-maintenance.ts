import type { LogConfig, Logger, PartitionLog } from '@tributary/log'
import { OffsetOutOfRangeError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { batchOf, batchOfAsync, FakeClock, numbered, readAll } from './log-helpers.js'

export interface ComplianceContext {
  /** A fresh log id. */
  id(): string
  /** Opens a log that the suite closes after the test. */
  open(
    logId: string,
    options?: { config?: Partial<LogConfig>; clock?: () => number; logger?: Logger },
  ): Promise<PartitionLog>
  /** Opens a log that the test closes itself (to reopen it). */
  openUnmanaged(logId: string, config: Partial<LogConfig>): Promise<PartitionLog>
}

/** Part of the log compliance suite: segments, retention, timestamps, compaction, reopen. */
export function describeMaintenanceCompliance({ id, open, openUnmanaged }: ComplianceContext): void {
  describe('segments, retention and deletion', () => {
    it('rolls segments by segment.bytes and reads across them', async () => {
      const log = await open(id(), { config: { segmentBytes: 1024 } })
      for (let i = 0; i < 40; i++) await log.appendAsLeader(batchOf(numbered(5, `b${i}-`)), 0)
      expect(log.segmentCount).toBeGreaterThan(5)
      const records = await readAll(log)
      expect(records.map((r) => r.offset)).toEqual(Array.from({ length: 200 }, (_, i) => i))
    })

    it('rolls segments by segment.ms', async () => {
      const clock = new FakeClock()
      const log = await open(id(), { config: { segmentMs: 1000 }, clock: clock.read })
      await log.appendAsLeader(batchOf(numbered(1)), 0)
      await log.appendAsLeader(batchOf(numbered(1)), 0)
      expect(log.segmentCount).toBe(1)
      clock.advance(1001)
      await log.appendAsLeader(batchOf(numbered(1)), 0)
      expect(log.segmentCount).toBe(2)
    })

    it('deletes records before an offset, never past the high watermark', async () => {
      const log = await open(id(), { config: { segmentBytes: 512 } })
      for (let i = 0; i < 20; i++) await log.appendAsLeader(batchOf(numbered(3)), 0)
      await expect(log.deleteRecordsBefore(10)).rejects.toBeInstanceOf(OffsetOutOfRangeError)
      log.setHighWatermark(60)
      const segments = log.segmentCount
      expect(await log.deleteRecordsBefore(31)).toBe(31)
      expect(log.logStartOffset).toBe(31)
      expect(log.segmentCount).toBeLessThan(segments)
      await expect(log.read(30)).rejects.toBeInstanceOf(OffsetOutOfRangeError)
      expect((await readAll(log)).map((r) => r.offset)[0]).toBe(31)
    })

    it('applies retention.ms to closed segments below the high watermark', async () => {
      const clock = new FakeClock()
      // segment.ms rolls when the clock moves, so old and new records never share a segment.
      const log = await open(id(), {
        config: { segmentBytes: 400, segmentMs: 15_000, retentionMs: 10_000 },
        clock: clock.read,
      })
      for (let i = 0; i < 6; i++) await log.appendAsLeader(batchOf(numbered(3), { timestamp: clock.now }), 0)
      clock.advance(20_000)
      for (let i = 0; i < 6; i++) await log.appendAsLeader(batchOf(numbered(3), { timestamp: clock.now }), 0)
      log.setHighWatermark(9)
      const early = await log.applyRetention()
      expect(log.logStartOffset).toBeLessThanOrEqual(9)
      expect(early.logStartOffset).toBe(log.logStartOffset)
      log.setHighWatermark(log.logEndOffset)
      const result = await log.applyRetention()
      expect(result.deletedSegments).toBeGreaterThan(0)
      expect(log.logStartOffset).toBe(18)
      expect((await readAll(log)).map((r) => r.offset)).toEqual(Array.from({ length: 18 }, (_, i) => i + 18))
      const nothing = await log.applyRetention()
      expect(nothing.deletedSegments).toBe(0)
    })

    it('applies retention.bytes, oldest segments first, keeping the active one', async () => {
      const log = await open(id(), { config: { segmentBytes: 600, retentionBytes: 1500, retentionMs: -1 } })
      for (let i = 0; i < 30; i++) await log.appendAsLeader(batchOf(numbered(3)), 0)
      log.setHighWatermark(log.logEndOffset)
      const before = log.sizeBytes
      const result = await log.applyRetention()
      expect(result.deletedSegments).toBeGreaterThan(0)
      expect(before - result.deletedBytes).toBe(log.sizeBytes)
      // Kafka's rule: a segment goes only if the log stays at least retention.bytes without it.
      expect(log.sizeBytes).toBeGreaterThanOrEqual(1500)
      expect(log.sizeBytes - 600).toBeLessThan(1500)
      const records = await readAll(log)
      expect(records.at(-1)!.offset).toBe(89)
      expect(records[0]!.offset).toBe(log.logStartOffset)
    })

    it('leaves everything in place under cleanup.policy=compact alone', async () => {
      const clock = new FakeClock()
      const log = await open(id(), {
        config: { segmentBytes: 400, retentionMs: 1, cleanupPolicy: 'compact' },
        clock: clock.read,
      })
      for (let i = 0; i < 10; i++) await log.appendAsLeader(batchOf(numbered(3), { timestamp: clock.now }), 0)
      clock.advance(1000)
      log.setHighWatermark(log.logEndOffset)
      expect((await log.applyRetention()).deletedSegments).toBe(0)
    })
  })

  describe('timestamps', () => {
    it('finds the first record at or after a timestamp, across segments', async () => {
      const log = await open(id(), { config: { segmentBytes: 300 } })
      for (let i = 0; i < 10; i++) {
        await log.appendAsLeader(
          batchOf([
            { key: 'a', value: 'x', timestamp: 1000 + i * 10 },
            { key: 'b', value: 'y', timestamp: 1005 + i * 10 },
          ]),
          0,
        )
      }
      expect(log.segmentCount).toBeGreaterThan(1)
      expect(await log.offsetForTimestamp(0)).toEqual({ offset: 0, timestamp: 1000 })
      expect(await log.offsetForTimestamp(1005)).toEqual({ offset: 1, timestamp: 1005 })
      expect(await log.offsetForTimestamp(1041)).toEqual({ offset: 9, timestamp: 1045 })
      expect(await log.offsetForTimestamp(1095)).toEqual({ offset: 19, timestamp: 1095 })
      expect(await log.offsetForTimestamp(1096)).toBeNull()
    })
  })

  describe('compaction', () => {
    it('keeps the newest record per key in closed segments, offsets preserved', async () => {
      const log = await open(id(), { config: { cleanupPolicy: 'compact', segmentBytes: 500 } })
      for (let round = 0; round < 10; round++) {
        await log.appendAsLeader(batchOf(['a', 'b', 'c'].map((k) => ({ key: k, value: `${k}${round}` }))), 0)
      }
      log.setHighWatermark(log.logEndOffset)
      const result = await log.compact()
      expect(result.recordsRemoved).toBeGreaterThan(0)
      const records = await readAll(log)
      // The active segment is never compacted, so the tail may still hold older values; each key's newest survives.
      for (const key of ['a', 'b', 'c']) expect(records.filter((r) => r.key === key).at(-1)!.value).toBe(`${key}9`)
      const offsets = records.map((r) => r.offset)
      expect(offsets).toEqual([...offsets].sort((x, y) => x - y))
      expect(offsets.at(-1)).toBe(29)
      const byKey = new Map<string, number>()
      for (const r of records) {
        const prev = byKey.get(r.key!)
        if (prev !== undefined) expect(r.offset).toBeGreaterThan(prev)
        byKey.set(r.key!, r.offset)
      }
      expect(records).toHaveLength(30 - result.recordsRemoved)
      // The active segment holds ≤ 500 bytes (≤ 5 of these ~90-byte batches), so offsets below 15 are in
      // closed segments, where each key survives at most once.
      const closed = records.filter((r) => r.offset < 15)
      expect(new Set(closed.map((r) => r.key)).size).toBe(closed.length)
      expect(log.logEndOffset).toBe(30)
      expect((await log.appendAsLeader(batchOf([{ key: 'a', value: 'next' }]), 0)).firstOffset).toBe(30)
    })

    it('removes tombstones only after delete.retention.ms', async () => {
      const clock = new FakeClock()
      const log = await open(id(), {
        config: { cleanupPolicy: 'compact', segmentBytes: 200, deleteRetentionMs: 60_000 },
        clock: clock.read,
      })
      await log.appendAsLeader(batchOf([{ key: 'gone', value: 'v', timestamp: clock.now }]), 0)
      await log.appendAsLeader(batchOf([{ key: 'kept', value: 'v', timestamp: clock.now }]), 0)
      await log.appendAsLeader(batchOf([{ key: 'gone', value: null, timestamp: clock.now }]), 0)
      for (let i = 0; i < 4; i++)
        await log.appendAsLeader(batchOf([{ key: `pad${i}`, value: 'p'.repeat(100), timestamp: clock.now }]), 0)
      log.setHighWatermark(log.logEndOffset)
      await log.compact()
      let records = await readAll(log)
      expect(records.filter((r) => r.key === 'gone').map((r) => r.value)).toEqual([null])
      clock.advance(60_001)
      await log.compact()
      records = await readAll(log)
      expect(records.filter((r) => r.key === 'gone')).toEqual([])
      expect(records.find((r) => r.key === 'kept')?.value).toBe('v')
      expect((await log.read(0, { maxOffset: log.logEndOffset })).batchCount).toBeGreaterThan(0)
    })

    it('compacts a log larger than its key map in several bounded passes', async () => {
      const log = await open(id(), {
        config: { cleanupPolicy: 'compact', segmentBytes: 2000, cleanerBufferBytes: 1024 },
      })
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 40; i++) await log.appendAsLeader(batchOf([{ key: `key-${i}`, value: `r${round}` }]), 0)
      }
      log.setHighWatermark(log.logEndOffset)
      let passes = 0
      let cleaned = -1
      while (passes < 50) {
        const result = await log.compact()
        passes++
        if (result.cleanedUpTo === cleaned) break
        cleaned = result.cleanedUpTo
      }
      expect(passes).toBeGreaterThan(2)
      const records = await readAll(log)
      const latest = new Map(records.map((r) => [r.key, r.value]))
      for (let i = 0; i < 40; i++) expect(latest.get(`key-${i}`)).toBe('r2')
      expect(records.length).toBeLessThan(120)
    })

    it('compacts gzip batches', async () => {
      const log = await open(id(), { config: { cleanupPolicy: 'compact', segmentBytes: 300 } })
      for (let round = 0; round < 6; round++) {
        await log.appendAsLeader(await batchOfAsync(numbered(5, 'g', 1000 + round), { compression: 'gzip' }), 0)
      }
      log.setHighWatermark(log.logEndOffset)
      expect((await log.compact()).recordsRemoved).toBeGreaterThan(0)
      const records = await readAll(log)
      for (let i = 0; i < 5; i++) expect(records.filter((r) => r.key === `g${i}`).at(-1)!.offset).toBe(25 + i)
    })
  })

  describe('reopen', () => {
    it('keeps data, offsets, epochs, high watermark and log start across close and open', async () => {
      const logId = id()
      const log = await openUnmanaged(logId, { segmentBytes: 500 })
      for (let i = 0; i < 12; i++) await log.appendAsLeader(batchOf(numbered(3)), i < 6 ? 1 : 2)
      log.setHighWatermark(30)
      await log.deleteRecordsBefore(20)
      const before = await readAll(log)
      await log.close()
      const again = await open(logId, { config: { segmentBytes: 500 } })
      expect([again.logStartOffset, again.logEndOffset, again.highWatermark]).toEqual([20, 36, 30])
      expect(again.epochEntries()).toEqual(log.epochEntries())
      expect(await readAll(again)).toEqual(before)
      expect((await again.appendAsLeader(batchOf(numbered(1)), 2)).firstOffset).toBe(36)
    })
  })
}
