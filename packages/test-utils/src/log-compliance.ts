import type { LogConfig, Logger, LogStore, PartitionLog } from '@tributary/log'
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
import { describeIdempotenceCompliance } from './log-compliance-idempotence.js'
import { describeMaintenanceCompliance } from './log-compliance-maintenance.js'
import { batchOf, batchOfAsync, concatBytes, decodeAll, FakeClock, numbered, readAll } from './log-helpers.js'

export interface LogFactory {
  /** Opens (or, with an id used before and after close(), reopens) a log with that id's data. */
  open(
    id: string,
    options?: { config?: Partial<LogConfig>; clock?: () => number; logger?: Logger },
  ): Promise<PartitionLog>
  /**
   * A store over the data of `id` (what `open` would use), for tests that stop a log without
   * closing it: `store.close(false)` is a crash — the process killed, the tab gone.
   */
  store(id: string): LogStore | Promise<LogStore>
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
    /** Opens a log the suite does not close after the test (the test closes it itself). */
    const openUnmanaged = async (logId: string, config: Partial<LogConfig>): Promise<PartitionLog> => {
      factory ??= await makeFactory()
      return factory.open(logId, { config })
    }

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

    describeMaintenanceCompliance({ id, open, openUnmanaged })
    describeIdempotenceCompliance({
      id,
      open,
      openUnmanaged,
      store: async (logId) => {
        factory ??= await makeFactory()
        return factory.store(logId)
      },
    })
  })
}
