/**
 * Producer state inside the log engine, beyond the compliance suite: what only an in-memory
 * store lets a test arrange (a torn tail past the snapshot, a damaged snapshot, a failing
 * write), expiry and the producer cap through topic configs, and how retention and
 * compaction leave producer state intact across a crash.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Log, type LogConfig, openLog } from '@tributary/log'
import { openFsLog } from '@tributary/log/fs'
import { emptyPartitionData, type MemoryPartitionData, MemoryStore } from '@tributary/log/memory'
import { batchOf, FakeClock, numbered, readAll, recordingLogger } from '@tributary/test-utils'
import { KafkaStorageError, OutOfOrderSequenceError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { decodeProducerSnapshot } from '../src/producer-snapshot.js'
import { META_PRODUCERS } from '../src/producer-state-loader.js'

const P = 1234

function idem(seq: number, count = 1, options: { pid?: number; epoch?: number; key?: string; ts?: number } = {}) {
  const records = numbered(count, `${options.key ?? 's'}${seq}-`, options.ts)
  if (options.key !== undefined) for (const r of records) r.key = options.key
  return batchOf(records, { producerId: options.pid ?? P, producerEpoch: options.epoch ?? 0, baseSequence: seq })
}

/** Opens a memory log over `data` whose store the test can crash (`store.close(false)`). */
async function openOver(data: MemoryPartitionData, config: Partial<LogConfig> = {}, extra = {}) {
  const store = new MemoryStore(data)
  const log = await openLog({ name: 'p-0', store, config, ...extra })
  return { log, store }
}

describe('log > producer state in the engine', () => {
  it('expires producers by producer.id.expiration.ms and bounds them by producer.id.max.count', async () => {
    const clock = new FakeClock()
    const log = await openLog({
      name: 'p-0',
      store: new MemoryStore(),
      topicConfig: { 'producer.id.expiration.ms': '60000', 'producer.id.max.count': 2 },
      clock: clock.read,
    })
    await log.appendAsLeader(idem(0, 1, { pid: 1 }), 0)
    clock.advance(30_000)
    await log.appendAsLeader(idem(0, 1, { pid: 2 }), 0)
    await expect(log.appendAsLeader(idem(5, 1, { pid: 1 }), 0)).rejects.toBeInstanceOf(OutOfOrderSequenceError)
    clock.advance(30_000)
    // Producer 1 has been silent for a minute: forgotten, so a late outbox may start anywhere.
    expect(log.describeProducers().map((p) => p.producerId)).toEqual([2])
    expect((await log.appendAsLeader(idem(5, 1, { pid: 1 }), 0)).duplicate).toBeUndefined()
    await log.appendAsLeader(idem(0, 1, { pid: 3 }), 0)
    expect(log.describeProducers().map((p) => p.producerId)).toEqual([1, 3])
    log.updateConfig({ maxProducerIds: 1 })
    expect(log.describeProducers().map((p) => p.producerId)).toEqual([3])
    await log.close()
  })

  it('cuts a snapshot that counts batches a torn tail lost, and stores the corrected one', async () => {
    const data = emptyPartitionData()
    const { log } = await openOver(data)
    for (let seq = 0; seq < 8; seq += 2) await log.appendAsLeader(idem(seq, 2), 0)
    await log.close() // the snapshot counts all four batches (offset 8)
    // The last batch never reached the disk.
    const active = data.segments.at(-1)!
    const lost = active.batches.pop()!
    active.info.nextOffset = lost.baseOffset
    active.info.sizeBytes -= lost.bytes.length
    data.cleanShutdown = false

    const logger = recordingLogger()
    const first = await openOver(data, {}, { logger })
    expect(first.log.logEndOffset).toBe(6)
    expect(first.log.describeProducers()).toMatchObject([{ lastSequence: 5, lastOffset: 5 }])
    expect(logger.lines.some((l) => l.msg === 'producer state cut back to the log end')).toBe(true)
    expect(JSON.parse(data.meta[META_PRODUCERS]!).offset).toBe(6)
    // The lost batch is not a duplicate: its retry appends.
    const retried = await first.log.appendAsLeader(idem(6, 2, { key: 'again' }), 1)
    expect(retried).toMatchObject({ firstOffset: 6 })
    expect(retried.duplicate).toBeUndefined()
    await first.store.close(false)
    const second = await openOver(data)
    expect(second.log.describeProducers()).toMatchObject([{ lastSequence: 7, firstOffset: 6 }])
    expect(await second.log.appendAsLeader(idem(6, 2), 1)).toMatchObject({ firstOffset: 6, duplicate: true })
    await second.log.close()
  })

  it('rebuilds from the log when the snapshot is damaged', async () => {
    const data = emptyPartitionData()
    const { log } = await openOver(data)
    for (let seq = 0; seq < 3; seq++) await log.appendAsLeader(idem(seq), 0)
    await log.close()
    data.meta[META_PRODUCERS] = '{"v":1,"offset":3,"producers":[[1,'
    const logger = recordingLogger()
    const { log: again } = await openOver(data, {}, { logger })
    expect(logger.lines.some((l) => l.level === 'warn' && /unreadable/.test(l.msg ?? ''))).toBe(true)
    expect(await again.appendAsLeader(idem(2), 0)).toMatchObject({ firstOffset: 2, duplicate: true })
    await again.close()
  })

  it('replays only the batches after the last snapshot on open', async () => {
    const data = emptyPartitionData()
    const { log, store } = await openOver(data, { segmentBytes: 2000 })
    // Seven producers, taking turns.
    for (let i = 0; i < 100; i++) await log.appendAsLeader(idem(Math.floor(i / 7), 1, { pid: 1 + (i % 7) }), 0)
    await store.close(false)
    const snapshotOffset = JSON.parse(data.meta[META_PRODUCERS]!).offset as number
    expect(snapshotOffset).toBeGreaterThan(50)
    const logger = recordingLogger()
    const { log: again } = await openOver(data, { segmentBytes: 2000 }, { logger })
    const loaded = logger.lines.find((l) => l.msg === 'producer state loaded')!.obj as { replayed: number }
    expect(loaded.replayed).toBe(100 - snapshotOffset)
    expect(again.describeProducers()).toHaveLength(7)
    expect(await again.appendAsLeader(idem(14, 1, { pid: 1 + (99 % 7) }), 0)).toMatchObject({
      firstOffset: 99,
      duplicate: true,
    })
    await again.close()
  })

  it('rejects a retry waiting on a failed group write together with its original, and then appends once', async () => {
    class FailingStore extends MemoryStore {
      failures = 0
      override async append(...args: Parameters<MemoryStore['append']>) {
        if (this.failures > 0) {
          this.failures--
          throw new KafkaStorageError('disk went away')
        }
        return super.append(...args)
      }
    }
    const store = new FailingStore()
    const log = await openLog({ name: 'p-0', store })
    await log.appendAsLeader(idem(0), 0)
    store.failures = 1
    const bytes = idem(1, 3)
    // Called together, the two sends form one group: the second is a retry of the first.
    const outcomes = await Promise.allSettled([log.appendAsLeader(bytes, 0), log.appendAsLeader(bytes.slice(), 0)])
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    expect(log.describeProducers()).toMatchObject([{ producerId: P, lastSequence: 0 }])
    const retried = await log.appendAsLeader(bytes.slice(), 0)
    expect(retried).toMatchObject({ firstOffset: 1, lastOffset: 3 })
    expect(retried.duplicate).toBeUndefined()
    expect((await readAll(log)).map((r) => r.key)).toEqual(['s0-0', 's1-0', 's1-1', 's1-2'])
    await log.close()
  })

  it('keeps producers whose batches retention deleted, across a crash', async () => {
    const clock = new FakeClock()
    const data = emptyPartitionData()
    const config = { segmentMs: 1000, retentionBytes: 1 }
    const { log, store } = await openOver(data, config, { clock: clock.read })
    await log.appendAsLeader(idem(0, 2), 0)
    for (let i = 0; i < 3; i++) {
      clock.advance(1001)
      await log.appendAsLeader(batchOf(numbered(2, `plain${i}-`)), 0)
    }
    log.setHighWatermark(log.logEndOffset)
    expect((await log.applyRetention()).logStartOffset).toBeGreaterThan(2)
    await store.close(false)
    const { log: again } = await openOver(data, config, { clock: clock.read })
    expect(again.logStartOffset).toBeGreaterThan(2)
    expect(again.describeProducers()).toMatchObject([{ producerId: P, lastSequence: 1 }])
    await expect(again.appendAsLeader(idem(5), 0)).rejects.toBeInstanceOf(OutOfOrderSequenceError)
    expect((await again.appendAsLeader(idem(2), 0)).duplicate).toBeUndefined()
    await again.close()
  })

  it('keeps producers whose batches compaction removed, across a crash', async () => {
    const clock = new FakeClock()
    const data = emptyPartitionData()
    const config: Partial<LogConfig> = { segmentMs: 1000, cleanupPolicy: 'compact' }
    const { log, store } = await openOver(data, config, { clock: clock.read })
    await log.appendAsLeader(idem(0, 1, { key: 'a' }), 0)
    for (let i = 0; i < 3; i++) {
      clock.advance(1001)
      await log.appendAsLeader(batchOf([{ key: 'a', value: `newer${i}` }]), 0)
    }
    log.setHighWatermark(log.logEndOffset)
    expect((await log.compact()).recordsRemoved).toBeGreaterThan(0)
    expect((await readAll(log)).map((r) => r.offset)).not.toContain(0)
    await store.close(false)
    const { log: again } = await openOver(data, config, { clock: clock.read })
    expect(again.describeProducers()).toMatchObject([{ producerId: P, lastSequence: 0, firstOffset: 0 }])
    await expect(again.appendAsLeader(idem(5, 1, { key: 'a' }), 0)).rejects.toBeInstanceOf(OutOfOrderSequenceError)
    expect(await again.appendAsLeader(idem(0, 1, { key: 'a' }), 0)).toMatchObject({ firstOffset: 0, duplicate: true })
    await again.close()
  })
})

describe('log > fs > producer-state snapshot file', () => {
  it('lives in its own checkpoint file, which high-watermark flushes do not rewrite', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tributary-producers-'))
    try {
      const log = await openFsLog({ dir, name: 'p-0', config: { segmentBytes: 600 } })
      for (let seq = 0; seq < 40; seq += 2) await log.appendAsLeader(idem(seq, 2), 0)
      await log.flush() // the last interval's snapshot may still be being stored
      const snapshot = await readFile(join(dir, META_PRODUCERS), 'utf8')
      log.setHighWatermark(10)
      await log.flush()
      expect(await readFile(join(dir, META_PRODUCERS), 'utf8')).toBe(snapshot)
      expect(await readFile(join(dir, 'meta.checkpoint'), 'utf8')).not.toContain('producers')
      await log.close()
      expect(await readdir(dir)).toContain(META_PRODUCERS)
      const again = await openFsLog({ dir, name: 'p-0', config: { segmentBytes: 600 } })
      expect(again.describeProducers()).toMatchObject([{ lastSequence: 39 }])
      await again.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

/**
 * A memory store that can sync its appended data alongside appends, as FsStore does, with that
 * sync held until the test releases it (or failing, when told to).
 */
class SlowSyncStore extends MemoryStore {
  syncs = 0
  failNext = false
  truncations = 0
  private gate = Promise.withResolvers<void>()

  async syncAppended(): Promise<void> {
    this.syncs++
    if (this.failNext) {
      this.failNext = false
      throw new KafkaStorageError('disk went away')
    }
    await this.gate.promise
  }

  release(): void {
    this.gate.resolve()
  }

  override async truncate(...args: Parameters<MemoryStore['truncate']>) {
    this.truncations++
    return super.truncate(...args)
  }
}

/** The offset of the producer-state snapshot `data` holds, or undefined. */
function storedSnapshotOffset(data: MemoryPartitionData): number | undefined {
  const body = data.meta[META_PRODUCERS]
  return body === undefined ? undefined : decodeProducerSnapshot(body).offset
}

/** Appends 2-record batches from `seq` until `done()` holds; bounded. Returns the next sequence. */
async function appendUntil(log: Log, seq: number, done: () => boolean): Promise<number> {
  for (let i = 0; i < 100 && !done(); i++, seq += 2) await log.appendAsLeader(idem(seq, 2), 0)
  expect(done()).toBe(true)
  return seq
}

describe('log > producer-state snapshot off the append path', () => {
  it('lets appends go on while its data syncs, then stores the state as of when it was taken', async () => {
    const data = emptyPartitionData()
    const store = new SlowSyncStore(data)
    const log = await openLog({ name: 'p-0', store, config: { segmentBytes: 600 } })
    const before = storedSnapshotOffset(data)
    let seq = await appendUntil(log, 0, () => store.syncs === 1)
    const takenAt = log.logEndOffset
    // The sync is held: these appends would never finish if they waited for it.
    seq = await appendUntil(log, seq, () => log.logEndOffset >= takenAt + 20)
    expect(store.syncs).toBe(1) // one snapshot at a time
    expect(storedSnapshotOffset(data)).toBe(before)
    store.release()
    await log.flush() // waits for the snapshot under way
    expect(storedSnapshotOffset(data)).toBe(takenAt)
    // The next interval starts another.
    await appendUntil(log, seq, () => store.syncs === 2)
    await log.close()
    expect(storedSnapshotOffset(data)).toBe(log.logEndOffset)
  })

  it('holds a truncation until the snapshot under way is stored, so it never lands after the cut', async () => {
    const data = emptyPartitionData()
    const store = new SlowSyncStore(data)
    const log = await openLog({ name: 'p-0', store, config: { segmentBytes: 600 } })
    await appendUntil(log, 0, () => store.syncs === 1)
    const takenAt = log.logEndOffset
    const cut = takenAt - 4
    const truncation = log.truncateTo(cut)
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
    expect(store.truncations).toBe(0)
    store.release()
    await truncation
    expect(store.truncations).toBe(1)
    // The late snapshot (at takenAt) was stored first; the truncation then replaced it.
    expect(storedSnapshotOffset(data)).toBe(cut)
    expect(log.describeProducers()).toMatchObject([{ producerId: P, lastSequence: cut - 1 }])
    await log.close()
  })

  it('logs a failed sync and retries with the next append', async () => {
    const data = emptyPartitionData()
    const store = new SlowSyncStore(data)
    store.release()
    store.failNext = true
    const logger = recordingLogger()
    const log = await openLog({ name: 'p-0', store, logger, config: { segmentBytes: 600 } })
    const before = storedSnapshotOffset(data)
    let seq = await appendUntil(log, 0, () => store.syncs === 1)
    await log.flush()
    expect(storedSnapshotOffset(data)).toBe(before)
    expect(logger.lines.filter((l) => l.msg === 'producer-state snapshot failed; will retry')).toHaveLength(1)
    seq = await appendUntil(log, seq, () => store.syncs === 2)
    expect(store.syncs).toBe(2) // the very next append
    await log.flush()
    expect(storedSnapshotOffset(data)).toBe(log.logEndOffset)
    await log.close()
  })
})
