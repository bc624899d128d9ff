import { type LogConfig, type LogStore, openLog, type PartitionLog } from '@tributary/log'
import {
  DuplicateSequenceError,
  InvalidProducerEpochError,
  InvalidRecordError,
  OutOfOrderSequenceError,
} from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import type { ComplianceContext } from './log-compliance-maintenance.js'
import { batchOf, concatBytes, numbered, readAll } from './log-helpers.js'

export interface IdempotenceContext extends ComplianceContext {
  /** A store over the data of `logId`, for a test that stops a log without closing it (a crash). */
  store(logId: string): LogStore | Promise<LogStore>
}

const PID = 4_503_599_627_370_495 // 2^52 - 1: producer ids are any integer in [1, 2^53)

/** An idempotent batch of `count` records from producer `pid`, starting at sequence `seq`. */
function idem(seq: number, count = 2, options: { pid?: number; epoch?: number; tag?: string } = {}): Uint8Array {
  return batchOf(numbered(count, `${options.tag ?? 's'}${seq}-`), {
    producerId: options.pid ?? PID,
    producerEpoch: options.epoch ?? 0,
    baseSequence: seq,
  })
}

/** Part of the log compliance suite: idempotent producers (Kafka's producer state) on every backend. */
export function describeIdempotenceCompliance({ id, open, openUnmanaged, store }: IdempotenceContext): void {
  describe('idempotent producers', () => {
    it('answers a retried batch with its original offsets and appends it once', async () => {
      const log = await open(id())
      const first = await log.appendAsLeader(idem(0, 3), 0)
      const second = await log.appendAsLeader(idem(3, 2), 0)
      expect(first).toMatchObject({ firstOffset: 0, lastOffset: 2 })
      expect(first.duplicate).toBeUndefined()
      // The acknowledgement of `second` was lost: the producer sends the same batch again.
      const retry = await log.appendAsLeader(idem(3, 2), 0)
      expect(retry).toMatchObject({ firstOffset: 3, lastOffset: 4, duplicate: true, bytes: 0, recordCount: 2 })
      const older = await log.appendAsLeader(idem(0, 3), 0)
      expect(older).toMatchObject({ firstOffset: 0, lastOffset: 2, duplicate: true })
      expect(log.logEndOffset).toBe(5)
      expect((await readAll(log)).map((r) => r.key)).toEqual(['s0-0', 's0-1', 's0-2', 's3-0', 's3-1'])
      expect(second.duplicate).toBeUndefined()
    })

    it('refuses a sequence gap with OutOfOrderSequenceError and appends nothing', async () => {
      const log = await open(id())
      await log.appendAsLeader(idem(0, 2), 0)
      const err = await log.appendAsLeader(idem(5, 1), 0).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(OutOfOrderSequenceError)
      expect((err as OutOfOrderSequenceError).retriable).toBe(false)
      expect((err as Error).message).toMatch(/expected 2/)
      expect(log.logEndOffset).toBe(2)
      expect((await log.appendAsLeader(idem(2, 1), 0)).firstOffset).toBe(2)
    })

    it('answers a retry of a batch older than the retained five as appended before, and appends nothing', async () => {
      const log = await open(id())
      for (let seq = 0; seq < 14; seq += 2) await log.appendAsLeader(idem(seq, 2), 0)
      // An outbox replays its first batch after a reload: appended long ago, offsets no longer known.
      const err = await log.appendAsLeader(idem(0, 2), 0).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(DuplicateSequenceError)
      expect((err as Error).message).toMatch(/appended before/)
      expect(log.logEndOffset).toBe(14)
      expect((await log.appendAsLeader(idem(14, 1), 0)).firstOffset).toBe(14)
    })

    it('fences an older producer epoch and lets a newer one start its own sequence', async () => {
      const log = await open(id())
      await log.appendAsLeader(idem(0, 2, { epoch: 3 }), 0)
      await expect(log.appendAsLeader(idem(2, 1, { epoch: 2 }), 0)).rejects.toBeInstanceOf(InvalidProducerEpochError)
      const bumped = await log.appendAsLeader(idem(40, 1, { epoch: 4 }), 0)
      expect(bumped.firstOffset).toBe(2)
      // The old epoch's batches are no longer answered as duplicates: its producer is fenced.
      await expect(log.appendAsLeader(idem(0, 2, { epoch: 3 }), 0)).rejects.toBeInstanceOf(InvalidProducerEpochError)
      expect(log.logEndOffset).toBe(3)
    })

    it('never checks batches without a producer id', async () => {
      const log = await open(id())
      await log.appendAsLeader(batchOf(numbered(2)), 0)
      const again = await log.appendAsLeader(batchOf(numbered(2)), 0)
      expect(again).toMatchObject({ firstOffset: 2 })
      expect(again.duplicate).toBeUndefined()
      expect(log.describeProducers()).toEqual([])
    })

    it('refuses inconsistent idempotence fields and requests mixing retries with new batches', async () => {
      const log = await open(id())
      const noSequence = batchOf(numbered(1), { producerId: 7, producerEpoch: 0, baseSequence: -1 })
      await expect(log.appendAsLeader(noSequence, 0)).rejects.toBeInstanceOf(InvalidRecordError)
      await log.appendAsLeader(idem(0, 1), 0)
      await expect(log.appendAsLeader(concatBytes(idem(0, 1), idem(1, 1)), 0)).rejects.toBeInstanceOf(
        DuplicateSequenceError,
      )
      expect(log.logEndOffset).toBe(1)
      // Several in-sequence batches in one request are checked in order and appended together.
      const both = await log.appendAsLeader(concatBytes(idem(1, 1), idem(2, 3)), 0)
      expect(both).toMatchObject({ firstOffset: 1, lastOffset: 4, batchCount: 2 })
      const retried = await log.appendAsLeader(concatBytes(idem(1, 1), idem(2, 3)), 0)
      expect(retried).toMatchObject({ firstOffset: 1, lastOffset: 4, duplicate: true })
    })

    it('appends two racing sends of one batch once', async () => {
      const log = await open(id())
      await log.appendAsLeader(idem(0, 1), 0)
      const bytes = idem(1, 3)
      const [a, b, c] = await Promise.all([
        log.appendAsLeader(bytes, 0),
        log.appendAsLeader(bytes.slice(), 0),
        log.appendAsLeader(bytes, 0), // the very same buffer: a retry's bytes must not be restamped
      ])
      expect([a, b, c].map((r) => [r.firstOffset, r.lastOffset])).toEqual([
        [1, 3],
        [1, 3],
        [1, 3],
      ])
      expect([a, b, c].filter((r) => r.duplicate === true)).toHaveLength(2)
      expect(log.logEndOffset).toBe(4)
      expect((await readAll(log)).map((r) => r.offset)).toEqual([0, 1, 2, 3])
    })

    it('learns producers from replicated batches, so a follower that takes over answers retries', async () => {
      const leader = await open(id())
      const follower = await open(id())
      await leader.appendAsLeader(idem(0, 2), 1)
      await leader.appendAsLeader(idem(2, 2, { pid: 9 }), 1)
      await follower.appendAsFollower((await leader.read(0, { maxOffset: leader.logEndOffset })).records)
      const withoutTime = (log: PartitionLog) => log.describeProducers().map(({ lastUpdateMs: _, ...p }) => p)
      expect(withoutTime(follower)).toEqual(withoutTime(leader))
      expect(withoutTime(follower)).toHaveLength(2)
      // The follower is elected (epoch 2); the producer retries what the old leader acknowledged.
      expect(await follower.appendAsLeader(idem(2, 2, { pid: 9 }), 2)).toMatchObject({
        firstOffset: 2,
        duplicate: true,
      })
      expect(await follower.appendAsLeader(idem(2, 1), 2)).toMatchObject({ firstOffset: 4 })
      expect(follower.logEndOffset).toBe(5)
    })

    it('keeps producer state across a clean close and reopen', async () => {
      const logId = id()
      const log = await openUnmanaged(logId, { segmentBytes: 600 })
      for (let seq = 0; seq < 20; seq += 2) await log.appendAsLeader(idem(seq, 2), 0)
      await log.close()
      const again = await open(logId, { config: { segmentBytes: 600 } })
      expect(again.describeProducers()).toMatchObject([{ producerId: PID, lastSequence: 19, firstOffset: 18 }])
      expect(await again.appendAsLeader(idem(18, 2), 0)).toMatchObject({ firstOffset: 18, duplicate: true })
      await expect(again.appendAsLeader(idem(21, 1), 0)).rejects.toBeInstanceOf(OutOfOrderSequenceError)
      expect((await again.appendAsLeader(idem(20, 1), 0)).firstOffset).toBe(20)
    })

    it('rebuilds producer state after a crash (no clean close) from its snapshot and the log after it', async () => {
      const logId = id()
      const config: Partial<LogConfig> = { segmentBytes: 700 }
      const crashedStore = await store(logId)
      const crashed = await openLog({ name: logId, store: crashedStore, config })
      for (let seq = 0; seq < 30; seq += 3) {
        await crashed.appendAsLeader(idem(seq, 3), 0)
        await crashed.appendAsLeader(idem(seq / 3, 1, { pid: 77, tag: 'o' }), 0)
      }
      // The log is never closed: only its store goes, as when a process is killed or a tab dies.
      await crashedStore.close(false)
      const again = await open(logId, { config })
      expect(again.logEndOffset).toBe(40)
      const producers = Object.fromEntries(again.describeProducers().map((p) => [p.producerId, p.lastSequence]))
      expect(producers).toEqual({ [PID]: 29, 77: 9 })
      expect(await again.appendAsLeader(idem(27, 3), 0)).toMatchObject({ firstOffset: 36, duplicate: true })
      expect(await again.appendAsLeader(idem(9, 1, { pid: 77, tag: 'o' }), 0)).toMatchObject({
        firstOffset: 39,
        duplicate: true,
      })
      expect((await again.appendAsLeader(idem(30, 1), 0)).firstOffset).toBe(40)
    })

    it('forgets what truncation removed: a cut batch appends again, a kept one is still a duplicate', async () => {
      const log = await open(id())
      await log.appendAsLeader(idem(0, 2), 0)
      await log.appendAsLeader(idem(2, 2), 0)
      await log.appendAsLeader(idem(4, 2), 1)
      await log.truncateTo(4)
      expect(log.describeProducers()).toMatchObject([{ lastSequence: 3, lastOffset: 3 }])
      expect(await log.appendAsLeader(idem(2, 2), 2)).toMatchObject({ firstOffset: 2, duplicate: true })
      const reappended = await log.appendAsLeader(idem(4, 2), 2)
      expect(reappended).toMatchObject({ firstOffset: 4 })
      expect(reappended.duplicate).toBeUndefined()
      await log.truncateFullyAndStartAt(50)
      expect(log.describeProducers()).toEqual([])
      expect((await log.appendAsLeader(idem(100, 1), 3)).firstOffset).toBe(50)
    })

    it('replaces the producer snapshot when truncation cuts below it, so a crash after does not resurrect cut batches', async () => {
      const logId = id()
      const config: Partial<LogConfig> = { segmentBytes: 400 }
      const log = await openUnmanaged(logId, config)
      for (let seq = 0; seq < 12; seq += 2) await log.appendAsLeader(idem(seq, 2), 0)
      await log.close() // snapshots the producer state at offset 12
      const reopenedStore = await store(logId)
      const reopened = await openLog({ name: logId, store: reopenedStore, config })
      await reopened.truncateTo(6)
      await reopened.appendAsLeader(idem(6, 1, { tag: 'new' }), 1)
      await reopenedStore.close(false)
      const again = await open(logId, { config: { segmentBytes: 400 } })
      expect(again.describeProducers()).toMatchObject([{ lastSequence: 6, firstOffset: 6, lastOffset: 6 }])
      expect(await again.appendAsLeader(idem(6, 1, { tag: 'new' }), 1)).toMatchObject({ duplicate: true })
      expect((await readAll(again)).map((r) => r.key).at(-1)).toBe('new6-0')
    })
  })
}
