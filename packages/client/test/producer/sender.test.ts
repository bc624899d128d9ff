/**
 * The sender against an in-memory leader that follows the agreed idempotence rules (duplicates
 * answered with their original offset, gaps refused as out of order). This is in addition to the
 * tests against real peers; here failures can be injected exactly: a lost acknowledgement, a
 * NOT_LEADER answer, a batch too large.
 */
import {
  DuplicateSequenceError,
  decodeRecordBatch,
  NotLeaderOrFollowerError,
  OutOfOrderSequenceError,
  RecordTooLargeError,
  RequestTimedOutError,
} from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import type { Broker } from '../../src/broker.ts'
import type { Cluster } from '../../src/cluster/cluster.ts'
import { NumberOfRetriesExceededError } from '../../src/errors.ts'
import { Instrumentation } from '../../src/instrumentation.ts'
import { type BatchSpec, RecordAccumulator } from '../../src/producer/accumulator.ts'
import { PRODUCER_EVENTS, type ProducerEvents } from '../../src/producer/events.ts'
import { ProducerIdentity } from '../../src/producer/idempotence.ts'
import { normalizeMessage } from '../../src/producer/messages.ts'
import { Sender } from '../../src/producer/sender.ts'
import { createRetrier } from '../../src/retry.ts'

const spec: BatchSpec = { acks: -1, compression: 'none', timeoutMs: 1000 }

/** One partition's leader: appends batches, deduplicates by producer id and sequence. */
class FakeLeader {
  readonly log: Array<{ producerId: number; baseSequence: number; values: string[] }> = []
  readonly received: Uint8Array[] = []
  private readonly lastSequence = new Map<number, { last: number; baseOffset: number; base: number }>()
  /** Earlier batches per producer (base sequence → base offset), the last 5 as a real leader keeps. */
  private readonly recent = new Map<number, Map<number, number>>()
  private offset = 0
  /** Requests being answered now, and the most at once. */
  concurrent = 0
  maxConcurrent = 0
  /** Each answer waits this long (ms), so requests overlap. */
  answerDelayMs = 0
  /** Failures to inject, in order, before the leader looks at a request. */
  readonly before: Error[] = []
  /** Errors to answer after appending (the acknowledgement is lost). */
  readonly after: Error[] = []
  maxRecords = Number.POSITIVE_INFINITY

  async produce(request: {
    records: Uint8Array
  }): Promise<{ baseOffset: number; logAppendTime: number; logStartOffset: number }> {
    this.received.push(request.records)
    this.concurrent++
    this.maxConcurrent = Math.max(this.maxConcurrent, this.concurrent)
    try {
      return await this.answer(request)
    } finally {
      if (this.answerDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.answerDelayMs))
      this.concurrent--
    }
  }

  private async answer(request: {
    records: Uint8Array
  }): Promise<{ baseOffset: number; logAppendTime: number; logStartOffset: number }> {
    const injected = this.before.shift()
    if (injected !== undefined) throw injected
    const { header, records } = await decodeRecordBatch(request.records)
    if (records.length > this.maxRecords) throw new RecordTooLargeError('batch too large')
    const seen = this.lastSequence.get(header.producerId)
    let baseOffset: number
    const earlier = this.recent.get(header.producerId)?.get(header.baseSequence)
    if (earlier !== undefined) {
      baseOffset = earlier // a duplicate: the original offset
    } else {
      const expected = seen === undefined ? 0 : seen.last + 1
      if (header.baseSequence !== expected) {
        throw new OutOfOrderSequenceError(`sequence ${header.baseSequence}, expected ${expected}`)
      }
      baseOffset = this.offset
      this.offset += records.length
      this.log.push({
        producerId: header.producerId,
        baseSequence: header.baseSequence,
        values: records.map((r) => new TextDecoder().decode(r.value!)),
      })
      this.lastSequence.set(header.producerId, {
        last: header.baseSequence + records.length - 1,
        baseOffset,
        base: header.baseSequence,
      })
      const recent = this.recent.get(header.producerId) ?? new Map<number, number>()
      recent.set(header.baseSequence, baseOffset)
      if (recent.size > 5) recent.delete(recent.keys().next().value as number)
      this.recent.set(header.producerId, recent)
    }
    const lost = this.after.shift()
    if (lost !== undefined) throw lost
    return { baseOffset, logAppendTime: -1, logStartOffset: 0 }
  }
}

function setup(
  leaders: Record<string, FakeLeader>,
  options: { retries?: number; identity?: ProducerIdentity; maxInFlight?: number } = {},
) {
  let current = Object.keys(leaders)[0]!
  const partitionErrors: unknown[] = []
  const cluster = {
    leader: async () => ({ broker: leaders[current] as unknown as Broker, leader: current }),
    onPartitionError: (_t: string, _p: number, err: unknown) => {
      partitionErrors.push(err)
      const hint = (err as { leaderHint?: string }).leaderHint
      if (hint !== undefined) current = hint
    },
  } as unknown as Cluster
  const identity = options.identity ?? new ProducerIdentity()
  const lifetime = new AbortController()
  let sender: Sender | undefined
  const accumulator = new RecordAccumulator({
    batchSize: 1 << 20,
    lingerMs: 0,
    maxBufferedBytes: 1 << 24,
    onReady: (topic, partition) => sender!.drain(topic, partition),
  })
  sender = new Sender({
    cluster,
    accumulator,
    identity,
    retrier: createRetrier({ retries: options.retries ?? 3, initialRetryTime: 1, maxRetryTime: 5 }),
    maxInFlight: options.maxInFlight ?? 1,
    instrumentation: new Instrumentation<ProducerEvents>(PRODUCER_EVENTS),
    signal: lifetime.signal,
  })
  const send = (values: string[]) => {
    const placed = values.map((v, i) => {
      const batch = accumulator.append('t', 0, normalizeMessage({ value: v }, i, 't'), spec)
      return { batch, index: batch.records.length - 1 }
    })
    return Promise.all(placed.map(async ({ batch, index }) => (await batch.promise).offsetOf(index)))
  }
  return { send, identity, partitionErrors, accumulator }
}

describe('client > producer > sender', () => {
  it('resends the same bytes after a lost acknowledgement, and the leader appends once', async () => {
    const leader = new FakeLeader()
    leader.after.push(new RequestTimedOutError('the acknowledgement was lost'))
    const { send, identity } = setup({ a: leader })
    expect(await send(['x', 'y'])).toEqual([0, 1])
    expect(leader.received).toHaveLength(2)
    expect(leader.received[1]).toEqual(leader.received[0])
    expect(leader.log).toEqual([{ producerId: identity.producerId, baseSequence: 0, values: ['x', 'y'] }])
    expect(await send(['z'])).toEqual([2])
    expect(leader.log[1]).toMatchObject({ baseSequence: 2, values: ['z'] })
  })

  it('follows a NOT_LEADER hint to the new leader with the same batch', async () => {
    const a = new FakeLeader()
    const b = new FakeLeader()
    const moved = Object.assign(new NotLeaderOrFollowerError('t-0 is led by b'), { leaderHint: 'b' })
    a.before.push(moved)
    const { send, partitionErrors } = setup({ a, b })
    expect(await send(['x'])).toEqual([0])
    expect(partitionErrors).toEqual([moved])
    expect(b.log.map((e) => e.values)).toEqual([['x']])
    expect(b.received[0]).toEqual(a.received[0])
  })

  it('splits a batch the leader refuses as too large, keeping sequences contiguous', async () => {
    const leader = new FakeLeader()
    leader.maxRecords = 2
    const { send } = setup({ a: leader })
    const values = ['a', 'b', 'c', 'd', 'e']
    expect(await send(values)).toEqual([0, 1, 2, 3, 4])
    expect(leader.log.flatMap((e) => e.values)).toEqual(values)
    expect(leader.log.map((e) => e.baseSequence)).toEqual([0, 2, 3])
  })

  it('fails a single record too large with RecordTooLargeError and gives its sequence back', async () => {
    const leader = new FakeLeader()
    const { send } = setup({ a: leader })
    leader.before.push(new RecordTooLargeError('t-0: batch exceeds max.message.bytes'))
    await expect(send(['big'])).rejects.toBeInstanceOf(RecordTooLargeError)
    expect(await send(['next'])).toEqual([0])
    expect(leader.log).toMatchObject([{ baseSequence: 0, values: ['next'] }])
  })

  it('continues under a new producer id after an ambiguous failure, so later batches are not out of order', async () => {
    const leader = new FakeLeader()
    const identity = new ProducerIdentity()
    const { send } = setup({ a: leader }, { retries: 1, identity })
    // Appended, but both acknowledgements lost: the send fails, not knowing it was written.
    leader.after.push(new RequestTimedOutError('lost'), new RequestTimedOutError('lost'))
    await expect(send(['maybe'])).rejects.toBeInstanceOf(NumberOfRetriesExceededError)
    expect(await send(['after'])).toEqual([1])
    expect(leader.log.map((e) => e.values)).toEqual([['maybe'], ['after']])
    expect(leader.log[1]!.producerId).not.toBe(identity.producerId)
    expect(leader.log[1]!.baseSequence).toBe(0)
  })

  it('takes DUPLICATE_SEQUENCE (held from before the batches the leader retains) as delivered, offsets unknown', async () => {
    const leader = new FakeLeader()
    const identity = new ProducerIdentity()
    const { send } = setup({ a: leader }, { identity })
    // The first answer is lost; the leader answers the resend as appended before.
    leader.after.push(new RequestTimedOutError('lost'))
    const produce = leader.produce.bind(leader)
    leader.produce = async (request) => {
      if (leader.received.length === 1) {
        leader.received.push(request.records)
        throw new DuplicateSequenceError('t-0: sequences 0…1 appended before')
      }
      return produce(request)
    }
    expect(await send(['x', 'y'])).toEqual([-1, -1])
    expect(leader.received).toHaveLength(2)
    expect(leader.log.map((e) => e.values)).toEqual([['x', 'y']])
    // Still the same producer, in sequence.
    expect(await send(['z'])).toEqual([2])
    expect(leader.log[1]).toMatchObject({ producerId: identity.producerId, baseSequence: 2 })
  })

  it('reports an out-of-order answer as OutOfOrderSequenceError without retrying', async () => {
    const leader = new FakeLeader()
    const { send } = setup({ a: leader })
    leader.before.push(new OutOfOrderSequenceError('t-0: sequence 0, expected 9'))
    await expect(send(['x'])).rejects.toBeInstanceOf(OutOfOrderSequenceError)
    expect(leader.received).toHaveLength(1)
  })

  describe('pipelined (idempotent, up to 5 batches in flight)', () => {
    /** Sends each value as its own batch (a tick apart), returning their offsets. */
    async function sendEach(send: (values: string[]) => Promise<number[]>, values: string[]): Promise<number[]> {
      const pending: Array<Promise<number[]>> = []
      for (const value of values) {
        pending.push(send([value]))
        await Promise.resolve()
      }
      return (await Promise.all(pending)).flat()
    }

    it('sends a partition’s first batch alone, then keeps up to maxInFlight batches in flight', async () => {
      const leader = new FakeLeader()
      leader.answerDelayMs = 5
      const { send } = setup({ a: leader }, { maxInFlight: 5 })
      expect(await sendEach(send, ['first', 'second'])).toEqual([0, 1])
      expect(leader.maxConcurrent).toBe(1) // nothing acknowledged yet under this producer id: one at a time
      const values = Array.from({ length: 12 }, (_, i) => `v${i}`)
      expect(await sendEach(send, values)).toEqual(values.map((_, i) => i + 2))
      expect(leader.maxConcurrent).toBe(5)
      expect(leader.log.flatMap((e) => e.values)).toEqual(['first', 'second', ...values])
    })

    it('retries the batches sent behind a failed one in order, each appended once', async () => {
      const leader = new FakeLeader()
      const { send } = setup({ a: leader }, { maxInFlight: 5 })
      expect(await send(['warm-up'])).toEqual([0])
      // The next batch is refused before the leader looks at it; those behind it find a gap.
      leader.before.push(new NotLeaderOrFollowerError('t-0 is changing leaders'))
      expect(await sendEach(send, ['a', 'b', 'c', 'd'])).toEqual([1, 2, 3, 4])
      expect(leader.log.flatMap((e) => e.values)).toEqual(['warm-up', 'a', 'b', 'c', 'd'])
      expect(leader.log.map((e) => e.baseSequence)).toEqual([0, 1, 2, 3, 4])
      // Each retry waited for the batches before it to settle, so each was sent exactly twice.
      expect(leader.received).toHaveLength(1 + 4 + 4)
    })

    it('resends a batch whose acknowledgement was lost while later ones went through, appending it once', async () => {
      const leader = new FakeLeader()
      const { send } = setup({ a: leader }, { maxInFlight: 5 })
      expect(await send(['warm-up'])).toEqual([0])
      leader.after.push(new RequestTimedOutError('the acknowledgement was lost'))
      expect(await sendEach(send, ['a', 'b', 'c'])).toEqual([1, 2, 3])
      expect(leader.log.flatMap((e) => e.values)).toEqual(['warm-up', 'a', 'b', 'c'])
    })

    it('sends nothing more while a batch whose acknowledgement was lost waits, so its retry is among the leader’s last 5', async () => {
      const leader = new FakeLeader()
      const { send } = setup({ a: leader }, { maxInFlight: 5 })
      expect(await send(['warm-up'])).toEqual([0])
      leader.after.push(new RequestTimedOutError('the acknowledgement was lost'))
      const values = Array.from({ length: 12 }, (_, i) => `v${i}`)
      // The batches behind the lost one are acknowledged at once; sending on past the window would
      // let them push the lost one out of the leader's memory before its retry.
      expect(await sendEach(send, values)).toEqual(values.map((_, i) => i + 1))
      expect(leader.log.flatMap((e) => e.values)).toEqual(['warm-up', ...values])
    })

    it('fails the batches behind one that failed for good, then continues under a new producer id', async () => {
      const leader = new FakeLeader()
      let ids = 0
      const identity = new ProducerIdentity(() => ++ids)
      const { send } = setup({ a: leader }, { maxInFlight: 5, identity })
      expect(await send(['warm-up'])).toEqual([0])
      leader.before.push(new RecordTooLargeError('t-0: batch exceeds max.message.bytes'))
      const sends: Array<Promise<number[]>> = []
      for (const value of ['too-big', 'behind-1', 'behind-2']) {
        sends.push(send([value]))
        await Promise.resolve() // one batch each
      }
      const results = await Promise.allSettled(sends)
      expect(results[0]).toMatchObject({ status: 'rejected', reason: expect.any(RecordTooLargeError) })
      // The leader found a gap where the refused batch should be: the ones behind it fail too.
      expect(results[1]).toMatchObject({ status: 'rejected', reason: expect.any(OutOfOrderSequenceError) })
      expect(results[2]).toMatchObject({ status: 'rejected', reason: expect.any(OutOfOrderSequenceError) })
      expect(leader.log.flatMap((e) => e.values)).not.toContain('too-big')
      expect(await send(['after'])).toEqual([leader.log.length - 1])
      expect(leader.log.at(-1)).toMatchObject({ baseSequence: 0, values: ['after'] })
      expect(leader.log.at(-1)!.producerId).not.toBe(identity.producerId)
      // One new id for the one failure: the batches failed behind it do not reset the partition again.
      expect(leader.log.at(-1)!.producerId).toBe(2)
    })
  })
})
