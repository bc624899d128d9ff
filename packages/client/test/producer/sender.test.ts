/**
 * The sender against an in-memory leader that follows the agreed idempotence rules (duplicates
 * answered with their original offset, gaps refused as out of order). This is in addition to the
 * tests against real peers; here failures can be injected exactly: a lost acknowledgement, a
 * NOT_LEADER answer, a batch too large.
 */
import {
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
  private offset = 0
  /** Failures to inject, in order, before the leader looks at a request. */
  readonly before: Error[] = []
  /** Errors to answer after appending (the acknowledgement is lost). */
  readonly after: Error[] = []
  maxRecords = Number.POSITIVE_INFINITY

  async produce(request: {
    records: Uint8Array
  }): Promise<{ baseOffset: number; logAppendTime: number; logStartOffset: number }> {
    this.received.push(request.records)
    const injected = this.before.shift()
    if (injected !== undefined) throw injected
    const { header, records } = await decodeRecordBatch(request.records)
    if (records.length > this.maxRecords) throw new RecordTooLargeError('batch too large')
    const seen = this.lastSequence.get(header.producerId)
    let baseOffset: number
    if (seen !== undefined && seen.base === header.baseSequence) {
      baseOffset = seen.baseOffset // a duplicate: the original offset
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
    }
    const lost = this.after.shift()
    if (lost !== undefined) throw lost
    return { baseOffset, logAppendTime: -1, logStartOffset: 0 }
  }
}

function setup(leaders: Record<string, FakeLeader>, options: { retries?: number; identity?: ProducerIdentity } = {}) {
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
    maxInFlight: 1,
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

  it('reports an out-of-order answer as OutOfOrderSequenceError without retrying', async () => {
    const leader = new FakeLeader()
    const { send } = setup({ a: leader })
    leader.before.push(new OutOfOrderSequenceError('t-0: sequence 0, expected 9'))
    await expect(send(['x'])).rejects.toBeInstanceOf(OutOfOrderSequenceError)
    expect(leader.received).toHaveLength(1)
  })
})
