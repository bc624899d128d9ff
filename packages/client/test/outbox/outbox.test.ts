/**
 * The outbox state machine against an in-memory store and a fake leader with the mesh's
 * idempotence rules: records queue durably while the mesh is out of reach, are sealed with
 * partition and sequence once the topic is known, and arrive exactly once and in order —
 * across lost answers, a producer closed mid-flight, a crash between ack and bookkeeping, and
 * a fresh producer on the same outbox.
 */
import { InvalidRecordError, NetworkError, OutOfOrderSequenceError, RecordTooLargeError } from '@tributary/wire'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ClientClosedError } from '../../src/errors.js'
import { OutboxFullError, OutboxInUseError } from '../../src/outbox/errors.js'
import { MemoryOutboxStore } from '../../src/outbox/memory-store.js'
import { type OutboxOptions, OutboxProducer } from '../../src/outbox/outbox-producer.js'
import type { OutboxChange } from '../../src/outbox/store.js'
import { murmur2, toPositive } from '../../src/partitioners/index.js'
import { FakeLeader } from './fake-leader.js'

const open: OutboxProducer[] = []

async function openOutbox(leader: FakeLeader, store: MemoryOutboxStore, options: OutboxOptions = {}) {
  const outbox = await OutboxProducer.open(leader, {
    store,
    retry: { initialRetryTime: 5, maxRetryTime: 20 },
    ...options,
  })
  open.push(outbox)
  return outbox
}

function values(leader: FakeLeader, topic: string, partition = 0): string[] {
  return leader.log(topic, partition).map((r) => r.value)
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `v${from + i}`)

afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()))
})

describe('outbox > delivery', () => {
  it('queues while the mesh is unreachable and delivers everything once, in order, when it is back', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    leader.reachable = false
    const outbox = await openOutbox(leader, new MemoryOutboxStore())
    const states: string[] = []
    outbox.on('outbox.offline', () => states.push('offline'))
    outbox.on('outbox.online', () => states.push('online'))
    for (let i = 0; i < 100; i += 10) {
      const { recordIds } = await outbox.enqueue({ topic: 't', messages: range(i, i + 10).map((value) => ({ value })) })
      expect(recordIds).toHaveLength(10)
    }
    expect(await outbox.pending()).toBe(100)
    await vi.waitFor(() => expect(states).toContain('offline'), { timeout: 5_000 })
    expect(leader.log('t', 0)).toEqual([])

    leader.reachable = true
    await outbox.flush({ timeout: 10_000 })
    expect(values(leader, 't')).toEqual(range(0, 100))
    expect(await outbox.pending()).toBe(0)
    expect(states.at(-1)).toBe('online')
    // Sequences are contiguous from 0 under one producer id and epoch 0.
    const log = leader.log('t', 0)
    expect(new Set(log.map((r) => r.producerId)).size).toBe(1)
    expect(log.map((r) => r.sequence)).toEqual(log.map((_, i) => i))
    expect(log.every((r) => r.epoch === 0)).toBe(true)
  })

  it('hands the store copies of keys and values, not views into the caller’s buffers', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    leader.reachable = false
    // IndexedDB clones a view with its whole underlying buffer (a pooled Node Buffer, a slice of
    // a big one): what reaches the store must own exactly its bytes.
    const given: Uint8Array[] = []
    const store = new MemoryOutboxStore()
    const append = store.append.bind(store)
    store.append = (records, ...rest) => {
      for (const r of records) for (const b of [r.key, r.value]) if (b !== null) given.push(b)
      return append(records, ...rest)
    }
    const outbox = await openOutbox(leader, store)
    const pool = new TextEncoder().encode('....key-1....value-1....')
    await outbox.enqueue({ topic: 't', messages: [{ key: pool.subarray(4, 9), value: pool.subarray(13, 20) }] })
    expect(given.map((b) => [b.byteLength, b.buffer.byteLength])).toEqual([
      [5, 5],
      [7, 7],
    ])
    leader.reachable = true
    await outbox.flush({ timeout: 10_000 })
    expect(values(leader, 't')).toEqual(['value-1'])
  })

  it('send resolves with the offsets the leader gave, per partition', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    const outbox = await openOutbox(leader, new MemoryOutboxStore())
    const delivered: Array<{ baseOffset: string; recordIds: number[] }> = []
    outbox.on('outbox.delivered', ({ payload }) => delivered.push(payload))
    const first = await outbox.send({ topic: 't', messages: [{ value: 'a' }, { value: 'b' }] })
    expect(first).toEqual([expect.objectContaining({ topicName: 't', partition: 0, baseOffset: '0', recordCount: 2 })])
    const second = await outbox.send({ topic: 't', messages: [{ value: 'c' }] })
    expect(second).toEqual([expect.objectContaining({ partition: 0, baseOffset: '2', recordCount: 1 })])
    expect(delivered.flatMap((d) => d.recordIds)).toEqual([1, 2, 3])
    expect(values(leader, 't')).toEqual(['a', 'b', 'c'])
  })

  it('keeps keyed records of an unknown topic unpartitioned until the topic exists, then uses its real partition count', async () => {
    const leader = new FakeLeader()
    const outbox = await openOutbox(leader, new MemoryOutboxStore())
    const retries: string[] = []
    outbox.on('outbox.retry', ({ payload }) => retries.push(payload.error.name))
    const keys = Array.from({ length: 40 }, (_, i) => `user-${i % 8}`)
    await outbox.enqueue({ topic: 'later', messages: keys.map((key, i) => ({ key, value: `v${i}` })) })
    await vi.waitFor(() => expect(retries).toContain('UnknownTopicOrPartitionError'), { timeout: 5_000 })
    expect(await outbox.pending()).toBe(40)

    leader.createTopic('later', 5)
    await outbox.flush({ timeout: 10_000 })
    const enc = new TextEncoder()
    for (let p = 0; p < 5; p++) {
      const log = leader.log('later', p)
      for (const r of log) expect(toPositive(murmur2(enc.encode(r.key!))) % 5).toBe(p)
      // Per partition, enqueue order.
      const expected = keys.map((key, i) => ({ key, value: `v${i}` })).filter((m) => log.some((r) => r.key === m.key))
      expect(log.map((r) => r.value)).toEqual(expected.map((m) => m.value))
    }
    expect([0, 1, 2, 3, 4].reduce((n, p) => n + leader.log('later', p).length, 0)).toBe(40)
  })

  it('does not hold back records of a known topic behind those of a topic that does not exist yet', async () => {
    const leader = new FakeLeader()
    leader.createTopic('known', 1)
    // A backoff longer than the test: only new records may start the next round.
    const outbox = await openOutbox(leader, new MemoryOutboxStore(), {
      retry: { initialRetryTime: 120_000, maxRetryTime: 120_000 },
    })
    const retried = new Promise<void>((resolve) => outbox.on('outbox.retry', () => resolve()))
    await outbox.enqueue({ topic: 'missing', messages: [{ value: 'later' }] })
    await retried
    await outbox.send({ topic: 'known', messages: [{ value: 'now' }] })
    expect(values(leader, 'known')).toEqual(['now'])
    expect(await outbox.pending()).toBe(1)
  })

  it('delivers a batch whose answer was lost exactly once (the resend is answered as a duplicate)', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    leader.loseAnswers = 2
    const outbox = await openOutbox(leader, new MemoryOutboxStore())
    const [meta] = await outbox.send({ topic: 't', messages: range(0, 5).map((value) => ({ value })) })
    expect(meta?.baseOffset).toBe('0')
    expect(leader.duplicates).toBe(2)
    expect(values(leader, 't')).toEqual(range(0, 5))
  })

  it('a fresh producer on the same outbox continues its producer id and sequences', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    const store = new MemoryOutboxStore()
    const a = await openOutbox(leader, store)
    await a.send({ topic: 't', messages: range(0, 3).map((value) => ({ value })) })
    leader.reachable = false
    await a.enqueue({ topic: 't', messages: range(3, 6).map((value) => ({ value })) })
    await a.close()
    await expect(a.enqueue({ topic: 't', messages: [{ value: 'x' }] })).rejects.toBeInstanceOf(ClientClosedError)

    const b = await openOutbox(leader, store)
    await b.enqueue({ topic: 't', messages: range(6, 9).map((value) => ({ value })) })
    expect(await b.pending()).toBe(6)
    leader.reachable = true
    await b.flush({ timeout: 10_000 })
    const log = leader.log('t', 0)
    expect(log.map((r) => r.value)).toEqual(range(0, 9))
    expect(new Set(log.map((r) => r.producerId)).size).toBe(1)
    expect(log.map((r) => r.sequence)).toEqual(range(0, 9).map((_, i) => i))
  })

  it('a producer closed mid-flight leaves the batch queued; the next one re-sends it with the same sequences and it is appended once', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    leader.hangAfterAppend = 1
    const store = new MemoryOutboxStore()
    const a = await openOutbox(leader, store)
    const requested: number[] = []
    a.on('outbox.request', ({ payload }) => requested.push(payload.baseSequence))
    const sending = a.send({ topic: 't', messages: range(0, 10).map((value) => ({ value })) })
    await vi.waitFor(() => expect(leader.log('t', 0)).toHaveLength(10), { timeout: 5_000 })
    await a.close()
    await expect(sending).rejects.toBeInstanceOf(ClientClosedError)
    expect(await store.meta()).toMatchObject({ records: 10 })

    const b = await openOutbox(leader, store)
    b.on('outbox.request', ({ payload }) => requested.push(payload.baseSequence))
    const delivered: string[] = []
    b.on('outbox.delivered', ({ payload }) => delivered.push(payload.baseOffset))
    await b.flush({ timeout: 10_000 })
    expect(requested).toEqual([0, 0])
    expect(delivered).toEqual(['0'])
    expect(leader.duplicates).toBe(1)
    expect(values(leader, 't')).toEqual(range(0, 10))
  })

  it('a crash between the acknowledgement and removing the batch re-sends it, deduplicated', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    const store = new MemoryOutboxStore()
    // The first removal of a delivered batch, and every write after it, never reaches the store (the tab died).
    let crashed = false
    const commit = store.commit.bind(store)
    const crashing = async (change: OutboxChange) => {
      if (crashed || (change.deleteBatchIds !== undefined && change.released !== undefined)) {
        crashed = true
        throw new Error('crash (test)')
      }
      return commit(change)
    }
    store.commit = crashing
    const a = await openOutbox(leader, store)
    await a.enqueue({ topic: 't', messages: range(0, 4).map((value) => ({ value })) })
    await vi.waitFor(() => expect(crashed).toBe(true), { timeout: 5_000 })
    await a.close()
    store.commit = commit
    const b = await openOutbox(leader, store)
    await b.flush({ timeout: 10_000 })
    expect(values(leader, 't')).toEqual(range(0, 4))
    expect(leader.duplicates).toBeGreaterThanOrEqual(1)
  })
})

describe('outbox > recording acknowledgements', () => {
  it('sends the next batch while the last acknowledged one is being removed, and records every one', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    leader.reachable = false
    const store = new GatedStore()
    const outbox = await openOutbox(leader, store, { maxBatchRecords: 1 })
    const delivered: number[][] = []
    outbox.on('outbox.delivered', ({ payload }) => delivered.push(payload.recordIds))
    const { recordIds } = await outbox.enqueue({ topic: 't', messages: range(0, 3).map((value) => ({ value })) })
    store.holds = (change) => (change.deleteBatchIds?.length ?? 0) > 0
    store.hold = true
    leader.reachable = true
    try {
      // The first batch's removal is held; the next requests go out meanwhile.
      await vi.waitFor(() => expect(values(leader, 't')).toEqual(range(0, 3)), { timeout: 5_000 })
      expect(store.held).toBe(true)
      expect(delivered).toEqual([])
    } finally {
      store.release()
    }
    await outbox.flush({ timeout: 10_000 })
    expect(values(leader, 't')).toEqual(range(0, 3))
    expect(delivered).toEqual(recordIds.map((id) => [id]))
    expect(await store.batches(10)).toEqual([])
  })
})

/**
 * A memory store that can lose the removals of acknowledged batches (a tab that died before they
 * were written: its next producer finds the batches still there), or hold them (a store slower
 * than the leader) until released.
 */
class RemovalStore extends MemoryOutboxStore {
  lose = false
  hold = false
  /** Removals lost or held so far. */
  removals = 0
  private readonly held: Array<() => void> = []

  override async commit(change: OutboxChange): Promise<void> {
    const removal = change.deleteBatchIds !== undefined && change.released !== undefined && !change.putSequences
    if (removal && this.lose) {
      this.removals++
      // Later, as a store's write would be: the rounds that find the batch again do not spin.
      await new Promise((resolve) => setTimeout(resolve, 1))
      return
    }
    if (removal && this.hold) {
      this.removals++
      await new Promise<void>((resolve) => this.held.push(resolve))
      // Released after the producer closed: the tab is gone, nothing more is written.
      if (this.lose) return
    }
    return super.commit(change)
  }

  releaseHeld(): void {
    for (const release of this.held.splice(0)) release()
  }
}

describe('outbox > acknowledgements not recorded before a reload', () => {
  /** Outbox `a` (its first batch acknowledged once), with `n` batches of one record queued behind on `store`. */
  async function queued(leader: FakeLeader, store: RemovalStore, n: number) {
    leader.createTopic('t', 1)
    const a = await openOutbox(leader, store, { maxBatchRecords: 1 })
    await a.send({ topic: 't', messages: [{ value: 'first' }] })
    leader.reachable = false
    await a.enqueue({ topic: 't', messages: range(0, n).map((value) => ({ value })) })
    return a
  }

  /** The next producer on `store` (the reloaded page) drains it; the baseOffset of each delivery, in order. */
  async function drainAgain(leader: FakeLeader, store: RemovalStore): Promise<string[]> {
    const b = await openOutbox(leader, store, { maxBatchRecords: 1 })
    const delivered: string[] = []
    b.on('outbox.delivered', ({ payload }) => delivered.push(payload.baseOffset))
    await b.flush({ timeout: 10_000 })
    expect(await b.pending()).toBe(0)
    return delivered
  }

  it('keeps requests out plus removals pending within the 5 batches a leader retains, so a reload resends only retained ones', async () => {
    const leader = new FakeLeader()
    const store = new RemovalStore()
    const a = await queued(leader, store, 12)
    const before = leader.requests
    store.hold = true
    leader.reachable = true
    // Every removal is held: the leader acknowledges 5 batches, then nothing more is sent.
    await vi.waitFor(() => expect(store.removals).toBe(5), { timeout: 5_000 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(leader.requests - before).toBe(5)
    expect(values(leader, 't')).toEqual(['first', ...range(0, 5)])
    // The tab dies with those 5 removals unwritten; the reloaded page sends them again.
    const closing = a.close()
    store.lose = true
    store.releaseHeld()
    await closing
    store.lose = false
    store.hold = false
    const delivered = await drainAgain(leader, store)
    expect(values(leader, 't')).toEqual(['first', ...range(0, 12)])
    expect(leader.duplicates).toBe(5)
    expect(leader.olderDuplicates).toBe(0)
    expect(delivered.slice(0, 5)).toEqual(['1', '2', '3', '4', '5'])
  })

  it('takes a resent batch the leader found appended before the retained ones as delivered, offsets unknown', async () => {
    const leader = new FakeLeader()
    const store = new RemovalStore()
    const a = await queued(leader, store, 8)
    // Removals lost (a store that acknowledged writes it had not made durable, then crashed).
    store.lose = true
    leader.reachable = true
    await vi.waitFor(() => expect(values(leader, 't')).toEqual(['first', ...range(0, 8)]), { timeout: 5_000 })
    await a.close()
    store.lose = false
    leader.duplicates = 0
    leader.olderDuplicates = 0
    // The next producer finds all 8 batches queued and sends them again.
    const delivered = await drainAgain(leader, store)
    expect(values(leader, 't')).toEqual(['first', ...range(0, 8)])
    // The first 3 are older than the 5 the leader retains (at offsets 4…8).
    expect(leader.olderDuplicates).toBe(3)
    expect(leader.duplicates).toBe(5)
    expect(delivered).toEqual(['-1', '-1', '-1', '4', '5', '6', '7', '8'])
  })

  it('never resends a batch acknowledged under an epoch the partition has since left', async () => {
    const leader = new FakeLeader()
    const store = new RemovalStore()
    const a = await queued(leader, store, 3)
    // The removal of v0 (sequence 1) is lost; the leader then refuses v1's sequence (as if it
    // lost our producer state), so the partition moves to epoch 1 from v1 on.
    store.lose = true
    const requested = a.on('outbox.request', ({ payload }) => {
      if (payload.baseSequence !== 2) return
      requested()
      store.lose = false
      leader.refusals.push(new OutOfOrderSequenceError('test: the leader lost this producer'))
    })
    const delivered: Array<[number[], string]> = []
    a.on('outbox.delivered', ({ payload }) => delivered.push([payload.recordIds, payload.baseOffset]))
    leader.reachable = true
    await a.flush({ timeout: 10_000 })
    // v0, still queued, was not sent again under epoch 0 (it would be fenced, then resent as new).
    expect(leader.log('t', 0).map((r) => [r.value, r.epoch])).toEqual([
      ['first', 0],
      ['v0', 0],
      ['v1', 1],
      ['v2', 1],
    ])
    expect(leader.requests).toBe(6) // first, v0, v1 refused, v2 sent behind it, v1 and v2 again
    expect(delivered.filter(([ids]) => ids[0] === 2)).toEqual([
      [[2], '1'],
      [[2], '-1'],
    ])
    expect(await a.pending()).toBe(0)
  })
})

describe('outbox > pipelining', () => {
  /** An outbox whose partition the leader has acknowledged once, with `n` batches of one record queued behind. */
  async function established(leader: FakeLeader, n: number) {
    leader.createTopic('t', 1)
    const outbox = await openOutbox(leader, new MemoryOutboxStore(), { maxBatchRecords: 1 })
    await outbox.send({ topic: 't', messages: [{ value: 'first' }] })
    leader.reachable = false
    await outbox.enqueue({ topic: 't', messages: range(0, n).map((value) => ({ value })) })
    return outbox
  }

  it('has up to 3 requests of a partition out at once, once the leader knows its sequence, and they land in order', async () => {
    const leader = new FakeLeader()
    const outbox = await established(leader, 6)
    const requestsBefore = leader.requests
    leader.holdAnswers = true
    leader.reachable = true
    try {
      // The first batch of a round goes alone (the leader's knowledge is re-established), then 3 at once.
      await vi.waitFor(() => expect(leader.heldAnswers).toBe(1), { timeout: 5_000 })
      leader.releaseAnswers()
      leader.holdAnswers = true
      await vi.waitFor(() => expect(leader.heldAnswers).toBe(4), { timeout: 5_000 })
      expect(leader.requests - requestsBefore).toBe(4)
    } finally {
      leader.releaseAnswers()
    }
    await outbox.flush({ timeout: 10_000 })
    expect(values(leader, 't')).toEqual(['first', ...range(0, 6)])
    expect(leader.log('t', 0).map((r) => r.sequence)).toEqual(range(0, 7).map((_, i) => i))
  })

  it('resends from a pipelined batch whose answer was lost, and every record lands once, in order', async () => {
    const leader = new FakeLeader()
    const outbox = await established(leader, 8)
    leader.reachable = true
    // The second batch's answer is lost while the ones behind it are out.
    const lose = outbox.on('outbox.delivered', () => {
      lose()
      leader.loseAnswers = 1
    })
    await outbox.flush({ timeout: 10_000 })
    expect(values(leader, 't')).toEqual(['first', ...range(0, 8)])
    expect(leader.duplicates).toBeGreaterThanOrEqual(1)
    expect(await outbox.pending()).toBe(0)
  })

  it('fails a pipelined batch refused for good; the ones sent behind it land once, in order, under a new epoch', async () => {
    const leader = new FakeLeader()
    const outbox = await established(leader, 6)
    const failed: number[][] = []
    outbox.on('outbox.failed', ({ payload }) => failed.push(payload.recordIds))
    leader.reachable = true
    const refuse = outbox.on('outbox.delivered', () => {
      refuse()
      leader.refusals.push(new InvalidRecordError('test: refused'))
    })
    await outbox.flush({ timeout: 10_000 })
    expect(failed).toHaveLength(1)
    const refused = range(0, 6)[failed[0]![0]! - 2]!
    expect(values(leader, 't')).toEqual(['first', ...range(0, 6).filter((v) => v !== refused)])
    expect(new Set(leader.log('t', 0).map((r) => r.value)).size).toBe(6)
  })
})

describe('outbox > browser network state', () => {
  afterEach(async () => {
    vi.useRealTimers()
    // Closed while the stubbed `window` is still there to remove their listeners from.
    await Promise.all(open.splice(0).map((o) => o.close()))
    vi.unstubAllGlobals()
  })

  it('tries nothing while navigator.onLine is false, and delivers once it is true again', async () => {
    vi.stubGlobal('navigator', { onLine: false })
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    const outbox = await openOutbox(leader, new MemoryOutboxStore())
    // The loop looked at navigator.onLine as it started, before any listener could be added.
    await vi.waitFor(() => expect(outbox.isOnline).toBe(false), { timeout: 5_000 })
    await outbox.enqueue({ topic: 't', messages: [{ value: 'a' }] })
    expect(await outbox.pending()).toBe(1)
    expect(leader.requests).toBe(0)
    vi.stubGlobal('navigator', { onLine: true })
    await outbox.flush({ timeout: 10_000 })
    expect(values(leader, 't')).toEqual(['a'])
  })

  it('keeps an online event that comes while an offline seal is being written, and sends at once', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    const gate = new GatedStore()
    const outbox = await openOutbox(leader, gate)
    await outbox.send({ topic: 't', messages: [{ value: 'first' }] })
    const window = new EventTarget()
    vi.stubGlobal('addEventListener', window.addEventListener.bind(window))
    vi.stubGlobal('removeEventListener', window.removeEventListener.bind(window))
    // A producer opened now listens to this `window`; the first one is closed so only it delivers.
    await outbox.close()
    vi.stubGlobal('navigator', { onLine: false })
    const reopened = await openOutbox(leader, gate)
    await vi.waitFor(() => expect(reopened.isOnline).toBe(false), { timeout: 5_000 })
    // From here the loop's timers never fire: only the online event can start the next round.
    // (vi.waitFor would advance fake timers, hence `until`.)
    const realSetTimeout = globalThis.setTimeout
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const until = async (done: () => boolean, what: string): Promise<void> => {
      for (let waited = 0; !done(); waited += 10) {
        if (waited >= 5_000) throw new Error(`not in 5 s: ${what}`)
        await new Promise((resolve) => realSetTimeout(resolve, 10))
      }
    }
    gate.hold = true
    await reopened.enqueue({ topic: 't', messages: [{ value: 'a' }, { value: 'b' }] })
    await until(() => gate.held, 'the offline seal commit')
    vi.stubGlobal('navigator', { onLine: true })
    window.dispatchEvent(new Event('online'))
    gate.release()
    await until(() => values(leader, 't').length === 3, 'delivery after the online event')
    expect(values(leader, 't')).toEqual(['first', 'a', 'b'])
  })
})

/** A memory store whose next commit can be held (an offline seal that takes a while), to fire events meanwhile. */
class GatedStore extends MemoryOutboxStore {
  hold = false
  held = false
  /** Which commit to hold (default: the next). */
  holds: (change: OutboxChange) => boolean = () => true
  private releaseHeld: () => void = () => {}

  override async commit(change: OutboxChange): Promise<void> {
    if (this.hold && this.holds(change)) {
      this.hold = false
      this.held = true
      await new Promise<void>((resolve) => {
        this.releaseHeld = resolve
      })
    }
    return super.commit(change)
  }

  release(): void {
    this.releaseHeld()
  }
}

describe('outbox > sealing while out of reach', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  const keys = Array.from({ length: 30 }, (_, i) => `k${i}`)
  const kafkaPartition = (key: string, count: number) => toPositive(murmur2(new TextEncoder().encode(key))) % count

  /** An outbox that has delivered once to a 3-partition topic, so it knows the count. */
  async function knowingOutbox(leader: FakeLeader, store: MemoryOutboxStore) {
    leader.createTopic('t', 3)
    const outbox = await openOutbox(leader, store)
    await outbox.send({ topic: 't', messages: [{ key: 'first', value: 'first' }] })
    return outbox
  }

  it('seals by the partition count learned earlier while the browser is offline, then only sends', async () => {
    const leader = new FakeLeader()
    const store = new MemoryOutboxStore()
    const outbox = await knowingOutbox(leader, store)
    vi.stubGlobal('navigator', { onLine: false })
    await outbox.enqueue({ topic: 't', messages: keys.map((key) => ({ key, value: key })) })
    const requestsBefore = leader.requests
    // Sealed where Kafka's partitioner puts each key, without asking the mesh anything.
    await vi.waitFor(async () => expect(await store.unsealed(100, 1 << 20)).toEqual([]), { timeout: 5_000 })
    const sealed = await store.batches(100)
    for (const batch of sealed) {
      for (const r of batch.records)
        expect(kafkaPartition(String(r.key && new TextDecoder().decode(r.key)), 3)).toBe(batch.partition)
    }
    expect(leader.requests).toBe(requestsBefore)
    vi.stubGlobal('navigator', { onLine: true })
    await outbox.flush({ timeout: 10_000 })
    for (const p of [0, 1, 2]) {
      expect(values(leader, 't', p)).toEqual(['first', ...keys].filter((k) => kafkaPartition(k, 3) === p))
    }
  })

  it('grows one batch from records queued one by one while offline, so the drain is one request', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    const store = new MemoryOutboxStore()
    const outbox = await openOutbox(leader, store)
    await outbox.send({ topic: 't', messages: [{ value: 'first' }] })
    vi.stubGlobal('navigator', { onLine: false })
    const queued = range(0, 20)
    for (const value of queued) {
      await outbox.enqueue({ topic: 't', messages: [{ value }] })
      // Each record sealed by its own offline pass before the next is queued.
      await vi.waitFor(async () => expect(await store.unsealed(10, 1 << 20)).toEqual([]), { timeout: 5_000 })
    }
    expect((await store.batches(100)).map((b) => b.records.length)).toEqual([20])
    const requestsBefore = leader.requests
    vi.stubGlobal('navigator', { onLine: true })
    await outbox.flush({ timeout: 10_000 })
    expect(values(leader, 't')).toEqual(['first', ...queued])
    expect(leader.requests - requestsBefore).toBe(1)
    expect(leader.log('t', 0).map((r) => r.sequence)).toEqual(range(0, 21).map((_, i) => i))
  })

  it('seals by the known count when the mesh does not answer, and delivers exactly once when it does', async () => {
    const leader = new FakeLeader()
    const store = new MemoryOutboxStore()
    const outbox = await knowingOutbox(leader, store)
    leader.reachable = false
    await outbox.enqueue({ topic: 't', messages: keys.map((key) => ({ key, value: key })) })
    await vi.waitFor(async () => expect(await store.unsealed(100, 1 << 20)).toEqual([]), { timeout: 10_000 })
    leader.reachable = true
    await outbox.flush({ timeout: 10_000 })
    const delivered = [0, 1, 2].flatMap((p) => values(leader, 't', p))
    expect(delivered.sort()).toEqual(['first', ...keys].sort())
  })
})

describe('outbox > refusals', () => {
  it('fails a batch the leader refuses for good, with its typed error, and delivers the rest under a new epoch', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    leader.reachable = false
    const outbox = await openOutbox(leader, new MemoryOutboxStore(), { maxBatchRecords: 2 })
    const failed: Array<{ recordIds: number[]; error: Error }> = []
    outbox.on('outbox.failed', ({ payload }) => failed.push(payload))
    const sends = [
      outbox.send({ topic: 't', messages: [{ value: 'a' }, { value: 'b' }] }),
      outbox.send({ topic: 't', messages: [{ value: 'c' }, { value: 'd' }] }),
    ]
    for (const s of sends) s.catch(() => {})
    leader.refusals.push(new InvalidRecordError('test: refused'))
    leader.reachable = true
    await expect(sends[0]).rejects.toBeInstanceOf(InvalidRecordError)
    await expect(sends[1]).resolves.toEqual([expect.objectContaining({ baseOffset: '0', recordCount: 2 })])
    expect(failed.map((f) => f.recordIds)).toEqual([[1, 2]])
    expect(failed[0]?.error.message).toContain('t-0')
    expect(leader.log('t', 0).map((r) => [r.value, r.epoch, r.sequence])).toEqual([
      ['c', 1, 2],
      ['d', 1, 3],
    ])
    expect(await outbox.pending()).toBe(0)
  })

  it('moves a partition to a new epoch when the leader refuses its sequence, and appends the batch once', async () => {
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    const outbox = await openOutbox(leader, new MemoryOutboxStore())
    leader.refusals.push(new OutOfOrderSequenceError('test: the leader lost this producer'))
    await outbox.send({ topic: 't', messages: [{ value: 'a' }] })
    await outbox.send({ topic: 't', messages: [{ value: 'b' }] })
    expect(leader.log('t', 0).map((r) => [r.value, r.epoch])).toEqual([
      ['a', 1],
      ['b', 1],
    ])
  })

  it('refuses an enqueue that would overflow the outbox, storing none of it', async () => {
    const leader = new FakeLeader()
    leader.reachable = false
    const store = new MemoryOutboxStore()
    const outbox = await openOutbox(leader, store, { maxRecords: 5, maxBytes: 10_000, batchSize: 16_384 })
    await outbox.enqueue({ topic: 't', messages: range(0, 4).map((value) => ({ value })) })
    await expect(outbox.enqueue({ topic: 't', messages: range(4, 6).map((value) => ({ value })) })).rejects.toSatisfy(
      (err) => err instanceof OutboxFullError && err.retriable,
    )
    expect(await outbox.pending()).toBe(4)
    await expect(outbox.enqueue({ topic: 't', messages: [{ value: 'x'.repeat(20_000) }] })).rejects.toBeInstanceOf(
      RecordTooLargeError,
    )
    await expect(outbox.enqueue({ topic: 't', messages: [{ value: 'x'.repeat(9_950) }] })).rejects.toBeInstanceOf(
      OutboxFullError,
    )
    expect(await outbox.pending()).toBe(4)
  })

  it('allows one producer per outbox at a time', async () => {
    const leader = new FakeLeader()
    const store = new MemoryOutboxStore('one-at-a-time')
    const a = await openOutbox(leader, store)
    await expect(openOutbox(leader, store)).rejects.toBeInstanceOf(OutboxInUseError)
    await a.close()
    await openOutbox(leader, store)
  })

  it('rejects bad input with typed errors before queueing anything', async () => {
    const leader = new FakeLeader()
    const outbox = await openOutbox(leader, new MemoryOutboxStore())
    await expect(outbox.enqueue({ topic: '', messages: [{ value: 'x' }] })).rejects.toThrow(/topic/)
    await expect(outbox.enqueue({ topic: 't', messages: [] })).rejects.toThrow(/non-empty/)
    await expect(outbox.enqueue({ topic: 't', messages: [{ value: 3 as never }] })).rejects.toThrow(/value/)
    expect(await outbox.pending()).toBe(0)
    const aborted = AbortSignal.abort(new NetworkError('test: aborted'))
    await expect(outbox.enqueue({ topic: 't', messages: [{ value: 'x' }], signal: aborted })).rejects.toBeInstanceOf(
      NetworkError,
    )
    expect(await outbox.pending()).toBe(0)
  })
})
