import { LeaderEpochCache, openLog, resolveLogConfig } from '@tributary/log'
import { MemoryStore } from '@tributary/log/memory'
import { batchOf, FakeClock, numbered } from '@tributary/test-utils'
import { CorruptRecordError, InvalidConfigError, RecordTooLargeError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'

/** A memory store that counts flushes, to observe the flush policy. */
class CountingStore extends MemoryStore {
  flushes = 0
  override async flush(): Promise<void> {
    this.flushes++
  }
}

describe('log > flush policy', () => {
  it('flushes after flush.messages records', async () => {
    const store = new CountingStore()
    const log = await openLog({ name: 't-0', store, config: { flushMessages: 10 } })
    for (let i = 0; i < 5; i++) await log.appendAsLeader(batchOf(numbered(5)), 0)
    expect(store.flushes).toBe(2)
    await log.close()
  })

  it('flushes when the last flush is older than flush.ms', async () => {
    const clock = new FakeClock()
    const store = new CountingStore()
    const log = await openLog({ name: 't-0', store, config: { flushMs: 1000 }, clock: clock.read })
    await log.appendAsLeader(batchOf(numbered(1)), 0)
    expect(store.flushes).toBe(0)
    clock.advance(1000)
    await log.appendAsLeader(batchOf(numbered(1)), 0)
    expect(store.flushes).toBe(1)
    await log.close()
  })

  it('leaves flushing to explicit calls by default', async () => {
    const store = new CountingStore()
    const log = await openLog({ name: 't-0', store })
    for (let i = 0; i < 50; i++) await log.appendAsLeader(batchOf(numbered(5)), 0)
    expect(store.flushes).toBe(0)
    await log.flush()
    expect(store.flushes).toBe(1)
    await log.close()
  })
})

describe('log > config', () => {
  it('accepts Kafka-named settings and rejects bad ones with InvalidConfigError', () => {
    const config = resolveLogConfig(
      {},
      { 'retention.ms': '60000', 'cleanup.policy': 'compact', 'segment.bytes': 1 << 20 },
    )
    expect(config).toMatchObject({ retentionMs: 60_000, cleanupPolicy: 'compact', segmentBytes: 1 << 20 })
    expect(() => resolveLogConfig({}, { 'retention.mss': '1' })).toThrow(InvalidConfigError)
    expect(() => resolveLogConfig({}, { 'segment.bytes': 'lots' })).toThrow(InvalidConfigError)
    expect(() => resolveLogConfig({ segmentBytes: 10 })).toThrow(InvalidConfigError)
    expect(() => resolveLogConfig({}, { 'cleanup.policy': 'shred' })).toThrow(InvalidConfigError)
  })

  it('applies a config change to an open log', async () => {
    const log = await openLog({ name: 't-0', store: new MemoryStore() })
    log.updateConfig({ maxMessageBytes: 100 })
    await expect(log.appendAsLeader(batchOf([{ key: 'k', value: 'x'.repeat(200) }]), 0)).rejects.toThrow(
      /max\.message\.bytes/,
    )
    expect(() => log.updateConfig({ segmentBytes: -1 })).toThrow(InvalidConfigError)
    await log.close()
  })
})

describe('log > leader-epoch cache', () => {
  it('answers end offsets, truncates from both ends and round-trips through its checkpoint', () => {
    const cache = new LeaderEpochCache()
    cache.assign(1, 0)
    cache.assign(3, 10)
    cache.assign(3, 15) // same epoch: no new entry
    cache.assign(4, 20)
    expect(cache.list()).toEqual([
      { epoch: 1, startOffset: 0 },
      { epoch: 3, startOffset: 10 },
      { epoch: 4, startOffset: 20 },
    ])
    expect(cache.endOffsetFor(0, 30)).toEqual({ epoch: -1, endOffset: -1 })
    expect(cache.endOffsetFor(2, 30)).toEqual({ epoch: 1, endOffset: 10 })
    expect(cache.endOffsetFor(4, 30)).toEqual({ epoch: 4, endOffset: 30 })
    expect(cache.epochForOffset(12)).toBe(3)
    expect(LeaderEpochCache.fromJson(cache.toJson()).list()).toEqual(cache.list())
    cache.truncateFromStart(12)
    expect(cache.list()[0]).toEqual({ epoch: 3, startOffset: 12 })
    cache.truncateFromEnd(20)
    expect(cache.latestEpoch()).toBe(3)
  })

  it('rejects a damaged checkpoint', () => {
    expect(() => LeaderEpochCache.fromJson('{')).toThrow(CorruptRecordError)
    expect(() => LeaderEpochCache.fromJson('[{"epoch":2,"startOffset":5},{"epoch":1,"startOffset":9}]')).toThrow(
      CorruptRecordError,
    )
  })
})

describe('log > concurrency', () => {
  it('reads run beside appends and truncation never exposes a partial state', async () => {
    const log = await openLog({ name: 't-0', store: new MemoryStore(), config: { segmentBytes: 1024 } })
    const appends = Array.from({ length: 40 }, () => log.appendAsLeader(batchOf(numbered(4)), 0))
    const reads = Array.from({ length: 40 }, (_, i) =>
      log.read(Math.min(i, log.logEndOffset), { maxOffset: Number.MAX_SAFE_INTEGER }).then((r) => r.nextOffset),
    )
    await Promise.all([...appends, ...reads])
    await log.truncateTo(50)
    expect(log.logEndOffset).toBe(48)
    await log.close()
  })
})

/** A memory store whose operations can be made to fail, like a full disk. */
class FailingStore extends MemoryStore {
  failAppends = false
  failFlushes = false
  closedWith: boolean | undefined
  override async append(...args: Parameters<MemoryStore['append']>) {
    if (this.failAppends) throw new Error('disk full')
    return super.append(...args)
  }
  override async flush(): Promise<void> {
    if (this.failFlushes) throw new Error('disk full')
  }
  override async close(clean: boolean): Promise<void> {
    this.closedWith = clean
    return super.close(clean)
  }
}

describe('log > storage failures', () => {
  it('forgets a new epoch whose first append failed, so a retry is not fenced', async () => {
    const store = new FailingStore()
    const log = await openLog({ name: 't-0', store })
    await log.appendAsLeader(batchOf(numbered(1)), 1)
    store.failAppends = true
    await expect(log.appendAsLeader(batchOf(numbered(1)), 2)).rejects.toThrow(/disk full/)
    expect(log.epochEntries()).toEqual([{ epoch: 1, startOffset: 0 }])
    store.failAppends = false
    expect((await log.appendAsLeader(batchOf(numbered(1)), 2)).firstOffset).toBe(1)
    expect(log.latestEpoch()).toBe(2)
    await log.close()
  })

  it('reports a successful append even when the flush policy then fails to flush', async () => {
    const store = new FailingStore()
    const log = await openLog({ name: 't-0', store, config: { flushMessages: 1 } })
    store.failFlushes = true
    expect((await log.appendAsLeader(batchOf(numbered(2)), 0)).lastOffset).toBe(1)
    expect(log.logEndOffset).toBe(2)
    await expect(log.flush()).rejects.toThrow(/disk full/)
    store.failFlushes = false
    await log.close()
  })

  it('releases the store on close even when the final flush fails, without claiming a clean shutdown', async () => {
    const store = new FailingStore()
    const log = await openLog({ name: 't-0', store })
    await log.appendAsLeader(batchOf(numbered(2)), 0)
    store.failFlushes = true
    await expect(log.close()).rejects.toThrow(/disk full/)
    expect(store.closedWith).toBe(false)
  })
})

describe('log > control batches', () => {
  it('refuses control batches from producers but takes them from the replication layer', async () => {
    const { encodeRecordBatchSync } = await import('@tributary/wire')
    const marker = () =>
      encodeRecordBatchSync({
        control: true,
        records: [{ key: new Uint8Array([0, 0, 0, 2]), value: new Uint8Array([1]) }],
      })
    const log = await openLog({ name: 't-0', store: new MemoryStore(), config: { cleanupPolicy: 'compact' } })
    await expect(log.appendAsLeader(marker(), 0)).rejects.toThrow(/control batches/)
    expect((await log.appendAsLeader(marker(), 3, { allowControl: true })).firstOffset).toBe(0)
    expect(log.latestEpoch()).toBe(3)
    await log.close()
  })
})

/** Counts store appends, to observe group commit. */
class AppendCountingStore extends MemoryStore {
  appends = 0
  override async append(...args: Parameters<MemoryStore['append']>) {
    this.appends++
    return super.append(...args)
  }
}

describe('log > group commit', () => {
  it('writes appends that queue up together, each with its own offsets and outcome', async () => {
    const store = new AppendCountingStore()
    const log = await openLog({ name: 't-0', store })
    const bad = batchOf(numbered(2))
    bad[bad.length - 1]! ^= 0xff
    const outcomes = await Promise.allSettled([
      log.appendAsLeader(batchOf(numbered(3)), 0),
      log.appendAsLeader(batchOf(numbered(2)), 0),
      log.appendAsLeader(bad, 0),
      log.appendAsLeader(batchOf(numbered(1)), 0),
      log.appendAsLeader(batchOf(numbered(1)), 0),
    ])
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.firstOffset : 'rejected'))).toEqual([
      0,
      3,
      'rejected',
      5,
      6,
    ])
    expect(outcomes[2]).toMatchObject({ status: 'rejected', reason: expect.any(CorruptRecordError) })
    expect(store.appends).toBeLessThan(4)
    expect(log.logEndOffset).toBe(7)
    await log.close()
  })

  it('fences an older epoch inside a group without failing the rest', async () => {
    const log = await openLog({ name: 't-0', store: new MemoryStore() })
    const outcomes = await Promise.allSettled([
      log.appendAsLeader(batchOf(numbered(1)), 2),
      log.appendAsLeader(batchOf(numbered(1)), 1),
      log.appendAsLeader(batchOf(numbered(1)), 3),
    ])
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(log.epochEntries()).toEqual([
      { epoch: 2, startOffset: 0 },
      { epoch: 3, startOffset: 1 },
    ])
    await log.close()
  })

  it('judges an append by the config in force when its group is written, not when it was called', async () => {
    const log = await openLog({ name: 't-0', store: new MemoryStore() })
    const small = batchOf(numbered(1))
    const large = batchOf(numbered(50))
    // Both are checked on arrival against the default limit and pass; the limit drops before their
    // group is written (the writer's turn comes on a later microtask), so the large one must fail.
    const calls = [log.appendAsLeader(small, 0), log.appendAsLeader(large, 0)]
    log.updateConfig({ maxMessageBytes: large.length - 1 })
    const outcomes = await Promise.allSettled(calls)
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { firstOffset: 0 } })
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: expect.any(RecordTooLargeError) })
    expect(log.logEndOffset).toBe(1)
    await log.close()
  })

  it('never moves an append ahead of a change requested before it', async () => {
    const log = await openLog({ name: 't-0', store: new MemoryStore() })
    await log.appendAsLeader(batchOf(numbered(5)), 0)
    const before = log.appendAsLeader(batchOf(numbered(1)), 0)
    // Called after the truncation: it must land after it (at 5 again), not be grouped before it (at 6).
    const truncated = log.truncateTo(5)
    const after = log.appendAsLeader(batchOf(numbered(1)), 0)
    expect((await before).firstOffset).toBe(5)
    await truncated
    expect((await after).firstOffset).toBe(5)
    expect(log.logEndOffset).toBe(6)
    await log.close()
  })
})
