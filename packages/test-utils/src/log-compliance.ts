import type { LogConfig, Logger, PartitionLog } from '@tributary/log'
import {
  CorruptRecordError,
  encodeRecordBatchSync,
  FencedLeaderEpochError,
  InvalidRecordError,
  iterateBatches,
  OffsetOutOfRangeError,
  RecordTooLargeError,
} from '@tributary/wire'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { batchOf, batchOfAsync, concatBytes, decodeAll, FakeClock, numbered, readAll } from './log-helpers.js'

export interface LogFactory {
  /** Opens (or, with an id used before and after close(), reopens) a log with that id's data. */
  open(
    id: string,
    options?: { config?: Partial<LogConfig>; clock?: () => number; logger?: Logger },
  ): Promise<PartitionLog>
  /** Optional cleanup after the suite. */
  cleanup?(): Promise<void>
}

/**
 * The partition-log contract as executable specification. Every backend (memory, fs, idb —
 * the last in real Chromium) runs exactly this suite.
 */
export function describeLogCompliance(backend: string, makeFactory: () => LogFactory | Promise<LogFactory>): void {
  describe(`log > ${backend} > compliance`, () => {
    let factory: LogFactory | undefined
    let counter = 0
    const opened: PartitionLog[] = []
    const id = (): string => `p${Date.now().toString(36)}-${counter++}`
    const open = async (logId: string, options?: Parameters<LogFactory['open']>[1]): Promise<PartitionLog> => {
      factory ??= await makeFactory()
      const log = await factory.open(logId, options)
      opened.push(log)
      return log
    }
    afterEach(async () => {
      for (const log of opened.splice(0)) await log.close()
    })
    afterAll(async () => {
      await factory?.cleanup?.()
    })

    describe('append and read', () => {
      it('starts empty', async () => {
        const log = await open(id())
        expect([log.logStartOffset, log.logEndOffset, log.highWatermark]).toEqual([0, 0, 0])
        const result = await log.read(0)
        expect(result.batchCount).toBe(0)
        expect(result.records.length).toBe(0)
        expect(result.nextOffset).toBe(0)
      })

      it('assigns offsets and stamps the leader epoch, keeping keys, values and headers exactly', async () => {
        const log = await open(id())
        const a = await log.appendAsLeader(
          batchOf([
            { key: 'a', value: '1', headers: { h: 'x' } },
            { key: null, value: '' },
            { key: '', value: null },
          ]),
          3,
        )
        expect(a).toMatchObject({ firstOffset: 0, lastOffset: 2, batchCount: 1, recordCount: 3 })
        const b = await log.appendAsLeader(batchOf(numbered(2)), 3)
        expect(b).toMatchObject({ firstOffset: 3, lastOffset: 4 })
        expect(log.logEndOffset).toBe(5)
        const records = await readAll(log)
        expect(records.map((r) => [r.offset, r.key, r.value, r.epoch])).toEqual([
          [0, 'a', '1', 3],
          [1, null, '', 3],
          [2, '', null, 3],
          [3, 'k0', 'v0', 3],
          [4, 'k1', 'v1', 3],
        ])
        expect(records[0]!.headers).toEqual({ h: 'x' })
      })

      it('appends several concatenated batches at once, all or nothing', async () => {
        const log = await open(id())
        const result = await log.appendAsLeader(concatBytes(batchOf(numbered(2)), batchOf(numbered(3))), 0)
        expect(result).toMatchObject({ firstOffset: 0, lastOffset: 4, batchCount: 2, recordCount: 5 })
        const bad = batchOf(numbered(1))
        bad[bad.length - 1]! ^= 0xff
        await expect(log.appendAsLeader(concatBytes(batchOf(numbered(2)), bad), 0)).rejects.toBeInstanceOf(
          CorruptRecordError,
        )
        expect(log.logEndOffset).toBe(5)
      })

      it('serves only offsets below the high watermark unless asked otherwise', async () => {
        const log = await open(id())
        await log.appendAsLeader(batchOf(numbered(2)), 0)
        await log.appendAsLeader(batchOf(numbered(2)), 0)
        expect((await log.read(0)).batchCount).toBe(0)
        log.setHighWatermark(2)
        const first = await log.read(0)
        expect(first.batchCount).toBe(1)
        expect(first.nextOffset).toBe(2)
        expect(first.highWatermark).toBe(2)
        expect((await log.read(2)).batchCount).toBe(0)
        expect((await log.read(2, { maxOffset: log.logEndOffset })).batchCount).toBe(1)
        log.setHighWatermark(1000)
        expect(log.highWatermark).toBe(4)
      })

      it('returns whole batches within maxBytes, but always at least one', async () => {
        const log = await open(id())
        for (let i = 0; i < 5; i++) await log.appendAsLeader(batchOf(numbered(10)), 0)
        log.setHighWatermark(log.logEndOffset)
        const one = await log.read(0, { maxBytes: 1 })
        expect(one.batchCount).toBe(1)
        const size = one.records.length
        const two = await log.read(0, { maxBytes: size * 2 + 1 })
        expect(two.batchCount).toBe(2)
        expect(two.records.length).toBe(size * 2)
        expect([...iterateBatches(two.records)].map((b) => b.header.baseOffset)).toEqual([0, 10])
      })

      it('reading from inside a batch returns the batch holding that offset', async () => {
        const log = await open(id())
        await log.appendAsLeader(batchOf(numbered(10)), 0)
        log.setHighWatermark(10)
        const result = await log.read(7)
        expect(result.batchCount).toBe(1)
        expect((await decodeAll(result.records)).map((r) => r.offset)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
      })

      it('rejects reads outside [log start, log end] with OffsetOutOfRangeError', async () => {
        const log = await open(id())
        await log.appendAsLeader(batchOf(numbered(3)), 0)
        await expect(log.read(4)).rejects.toBeInstanceOf(OffsetOutOfRangeError)
        await expect(log.read(-1)).rejects.toBeInstanceOf(OffsetOutOfRangeError)
        expect((await log.read(3, { maxOffset: 3 })).batchCount).toBe(0)
      })

      it('serialises concurrent appends without losing or reordering any', async () => {
        const log = await open(id())
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => log.appendAsLeader(batchOf([{ key: 'k', value: String(i) }]), 0)),
        )
        expect(results.map((r) => r.firstOffset)).toEqual(Array.from({ length: 20 }, (_, i) => i))
        expect((await readAll(log)).map((r) => r.value)).toEqual(Array.from({ length: 20 }, (_, i) => String(i)))
      })

      it('reads gzip batches back as stored', async () => {
        const log = await open(id())
        await log.appendAsLeader(await batchOfAsync(numbered(50), { compression: 'gzip' }), 0)
        const records = await readAll(log)
        expect(records).toHaveLength(50)
        expect(records[49]).toMatchObject({ offset: 49, key: 'k49', value: 'v49' })
      })

      it('stamps LogAppendTime when the topic asks for it', async () => {
        const clock = new FakeClock(1_800_000_000_000)
        const log = await open(id(), { config: { messageTimestampType: 'LogAppendTime' }, clock: clock.read })
        const result = await log.appendAsLeader(batchOf(numbered(2), { timestamp: 5 }), 0)
        expect(result.logAppendTime).toBe(clock.now)
        expect((await readAll(log)).map((r) => r.timestamp)).toEqual([clock.now, clock.now])
      })
    })

    describe('bad input', () => {
      it('rejects a batch with a wrong CRC and appends nothing', async () => {
        const log = await open(id())
        const bytes = batchOf(numbered(3))
        bytes[70]! ^= 0x01
        await expect(log.appendAsLeader(bytes, 0)).rejects.toBeInstanceOf(CorruptRecordError)
        expect(log.logEndOffset).toBe(0)
      })

      it('rejects a batch larger than max.message.bytes', async () => {
        const log = await open(id(), { config: { maxMessageBytes: 200 } })
        const err = await log
          .appendAsLeader(batchOf([{ key: 'k', value: 'x'.repeat(500) }]), 0)
          .catch((e: unknown) => e)
        expect(err).toBeInstanceOf(RecordTooLargeError)
        expect((err as Error).message).toMatch(/max\.message\.bytes/)
        expect(log.logEndOffset).toBe(0)
      })

      it('rejects truncated bytes, garbage and empty input', async () => {
        const log = await open(id())
        const bytes = batchOf(numbered(3))
        await expect(log.appendAsLeader(bytes.subarray(0, bytes.length - 5), 0)).rejects.toBeInstanceOf(
          CorruptRecordError,
        )
        await expect(log.appendAsLeader(new Uint8Array(100).fill(7), 0)).rejects.toBeInstanceOf(CorruptRecordError)
        await expect(log.appendAsLeader(new Uint8Array(0), 0)).rejects.toBeInstanceOf(InvalidRecordError)
        expect(log.logEndOffset).toBe(0)
      })

      it('rejects a producer batch whose record offsets are not 0, 1, 2, …', async () => {
        const log = await open(id())
        const v = new TextEncoder().encode('v')
        const gappy = encodeRecordBatchSync({
          records: [
            { key: v, value: v, offsetDelta: 0 },
            { key: v, value: v, offsetDelta: 2 },
          ],
        })
        await expect(log.appendAsLeader(gappy, 0)).rejects.toBeInstanceOf(InvalidRecordError)
        expect(log.logEndOffset).toBe(0)
      })

      it('rejects null keys on compacted logs', async () => {
        const log = await open(id(), { config: { cleanupPolicy: 'compact' } })
        await expect(log.appendAsLeader(batchOf([{ key: null, value: 'v' }]), 0)).rejects.toBeInstanceOf(
          InvalidRecordError,
        )
        expect(log.logEndOffset).toBe(0)
      })

      it('fences appends from an older leader epoch', async () => {
        const log = await open(id())
        await log.appendAsLeader(batchOf(numbered(1)), 5)
        await expect(log.appendAsLeader(batchOf(numbered(1)), 4)).rejects.toBeInstanceOf(FencedLeaderEpochError)
        expect(log.logEndOffset).toBe(1)
      })

      it('rejects follower batches that do not continue the log', async () => {
        const log = await open(id())
        const source = await open(id())
        await source.appendAsLeader(batchOf(numbered(2)), 1)
        await source.appendAsLeader(batchOf(numbered(2)), 1)
        const second = (await source.read(2, { maxOffset: 4 })).records
        await expect(log.appendAsFollower(second)).rejects.toBeInstanceOf(InvalidRecordError)
        expect(log.logEndOffset).toBe(0)
      })
    })

    describe('leader epochs and followers', () => {
      it('keeps the leader-epoch cache and answers end offsets per epoch', async () => {
        const log = await open(id())
        await log.appendAsLeader(batchOf(numbered(2)), 0)
        await log.appendAsLeader(batchOf(numbered(3)), 2)
        await log.appendAsLeader(batchOf(numbered(1)), 2)
        await log.appendAsLeader(batchOf(numbered(4)), 5)
        expect(log.epochEntries()).toEqual([
          { epoch: 0, startOffset: 0 },
          { epoch: 2, startOffset: 2 },
          { epoch: 5, startOffset: 6 },
        ])
        expect(log.latestEpoch()).toBe(5)
        expect(log.endOffsetForEpoch(0)).toEqual({ epoch: 0, endOffset: 2 })
        expect(log.endOffsetForEpoch(1)).toEqual({ epoch: 0, endOffset: 2 })
        expect(log.endOffsetForEpoch(3)).toEqual({ epoch: 2, endOffset: 6 })
        expect(log.endOffsetForEpoch(9)).toEqual({ epoch: 5, endOffset: 10 })
      })

      it('replicates a leader byte for byte with appendAsFollower', async () => {
        const leader = await open(id())
        const follower = await open(id())
        await leader.appendAsLeader(batchOf(numbered(3)), 1)
        await leader.appendAsLeader(batchOf(numbered(2)), 4)
        const fetched = await leader.read(0, { maxOffset: leader.logEndOffset })
        const result = await follower.appendAsFollower(fetched.records)
        expect(result).toMatchObject({ firstOffset: 0, lastOffset: 4, batchCount: 2 })
        expect(follower.epochEntries()).toEqual(leader.epochEntries())
        const again = await follower.read(0, { maxOffset: follower.logEndOffset })
        expect(again.records).toEqual(fetched.records)
      })

      it('truncates to an offset, dropping a batch that holds it, and appends on', async () => {
        const log = await open(id())
        await log.appendAsLeader(batchOf(numbered(3)), 0)
        await log.appendAsLeader(batchOf(numbered(3)), 1)
        await log.appendAsLeader(batchOf(numbered(3)), 2)
        log.setHighWatermark(9)
        await log.truncateTo(4)
        expect(log.logEndOffset).toBe(3)
        expect(log.highWatermark).toBe(3)
        expect(log.epochEntries()).toEqual([{ epoch: 0, startOffset: 0 }])
        expect((await log.appendAsLeader(batchOf(numbered(1)), 3)).firstOffset).toBe(3)
        expect((await readAll(log)).map((r) => [r.offset, r.epoch])).toEqual([
          [0, 0],
          [1, 0],
          [2, 0],
          [3, 3],
        ])
      })

      it('restarts an emptied log at a given offset', async () => {
        const log = await open(id())
        await log.appendAsLeader(batchOf(numbered(3)), 0)
        await log.truncateFullyAndStartAt(100)
        expect([log.logStartOffset, log.logEndOffset, log.highWatermark]).toEqual([100, 100, 100])
        expect((await log.appendAsLeader(batchOf(numbered(2)), 1)).firstOffset).toBe(100)
        expect((await readAll(log)).map((r) => r.offset)).toEqual([100, 101])
      })
    })

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
        const log = await factoryOpenOnce(logId, { segmentBytes: 500 })
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

      async function factoryOpenOnce(logId: string, config: Partial<LogConfig>): Promise<PartitionLog> {
        factory ??= await makeFactory()
        return factory.open(logId, { config })
      }
    })
  })
}
