import {
  CorruptRecordError,
  DuplicateSequenceError,
  ErrorCode,
  errorFromCode,
  InvalidProducerEpochError,
  OutOfOrderSequenceError,
} from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { decodeProducerSnapshot, encodeProducerSnapshot } from '../src/producer-snapshot.js'
import {
  addSequence,
  type ProducerBatch,
  ProducerStateManager,
  RETAINED_BATCHES_PER_PRODUCER,
} from '../src/producer-state.js'

const DAY = 24 * 60 * 60 * 1000
const MAX_SEQ = 2 ** 31 - 1

function batch(producerId: number, firstSequence: number, records = 1, producerEpoch = 0): ProducerBatch {
  return {
    producerId,
    producerEpoch,
    firstSequence,
    lastSequence: addSequence(firstSequence, records - 1),
    recordCount: records,
    maxTimestamp: 1000 + firstSequence,
  }
}

function thrown(f: () => unknown): unknown {
  try {
    f()
  } catch (e) {
    return e
  }
  return undefined
}

/** A leader append as the log does it: check one request, and if new, record it at `offset` and apply it. */
function append(state: ProducerStateManager, b: ProducerBatch, offset: number, now = 0) {
  const check = state.beginCheck(now)
  const duplicate = check.check([b])
  if (duplicate === undefined) state.apply(b, offset, offset + b.recordCount - 1, now)
  return duplicate
}

const manager = (limits: Partial<{ expirationMs: number; maxProducers: number }> = {}) =>
  new ProducerStateManager('t-0', { expirationMs: 7 * DAY, maxProducers: 1000, ...limits })

describe('log > producer state', () => {
  it('accepts any first sequence from a producer it does not know', () => {
    const state = manager()
    expect(append(state, batch(1, 0), 0)).toBeUndefined()
    expect(append(state, batch(2, 12_345, 3), 1)).toBeUndefined()
    expect(state.describe(0).map((p) => [p.producerId, p.lastSequence])).toEqual([
      [1, 0],
      [2, 12_347],
    ])
  })

  it('answers a retained batch with its original offsets, and only the last five are retained', () => {
    const state = manager()
    for (let i = 0; i < 7; i++) append(state, batch(1, i * 2, 2), i * 10)
    // Batches 2..6 are retained (sequences 4..13 at offsets 20..61).
    expect(append(state, batch(1, 12, 2), 999)).toEqual({ firstOffset: 60, lastOffset: 61, pending: false })
    expect(append(state, batch(1, 4, 2), 999)).toEqual({ firstOffset: 20, lastOffset: 21, pending: false })
    expect(RETAINED_BATCHES_PER_PRODUCER).toBe(5)
  })

  it('refuses a batch older than the retained ones as appended before (DuplicateSequenceError, code 46), appending nothing', () => {
    const state = manager()
    for (let i = 0; i < 7; i++) append(state, batch(1, i * 2, 2), i * 10)
    // Sequences 0..3 were appended (offsets 0..11) but are no longer retained: offsets unknown.
    for (const older of [batch(1, 2, 2), batch(1, 0, 2), batch(1, 0, 4), batch(1, 3)]) {
      const err = thrown(() => append(state, older, 999))
      expect(err).toBeInstanceOf(DuplicateSequenceError)
      expect((err as DuplicateSequenceError).code).toBe(ErrorCode.DUPLICATE_SEQUENCE_NUMBER)
      expect((err as Error).message).toMatch(
        /t-0: producer 1 \(epoch 0\) sent sequences \d+…\d+, appended before \(its last is 13\)/,
      )
    }
    // A retained one re-batched (same first sequence, another length) was appended too, just not as such.
    expect(() => append(state, batch(1, 12, 1), 999)).toThrow(DuplicateSequenceError)
    // Reaching past the last sequence is a gap, however it starts.
    expect(() => append(state, batch(1, 12, 3), 999)).toThrow(OutOfOrderSequenceError)
    expect(state.describe(0)).toMatchObject([{ lastSequence: 13, lastOffset: 61 }])
  })

  it('tells appended-before from a gap across the sequence wrap', () => {
    const state = manager()
    const top = 2 ** 31 - 1
    append(state, batch(1, top - 3, 2), 0) // top-3, top-2
    append(state, batch(1, top - 1, 4), 2) // top-1, top, 0, 1
    for (let i = 0; i < 5; i++) append(state, batch(1, 2 + i, 1), 6 + i) // 2..6: the first two batches are no longer retained
    expect(() => append(state, batch(1, top - 3, 2), 99)).toThrow(DuplicateSequenceError)
    expect(() => append(state, batch(1, top - 1, 4), 99)).toThrow(DuplicateSequenceError)
    expect(() => append(state, batch(1, 8), 99)).toThrow(OutOfOrderSequenceError)
    expect(append(state, batch(1, 7), 11)).toBeUndefined()
  })

  it('refuses sequence gaps with OutOfOrderSequenceError (code 45, not retriable)', () => {
    const state = manager()
    append(state, batch(1, 0, 2), 0)
    const err = thrown(() => append(state, batch(1, 3), 2)) as OutOfOrderSequenceError
    expect(err).toBeInstanceOf(OutOfOrderSequenceError)
    expect(err.code).toBe(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER)
    expect(err.retriable).toBe(false)
    expect(err.message).toMatch(/t-0: producer 1 .*sequence 3, expected 2/)
    expect(errorFromCode(err.code, err.message)).toBeInstanceOf(OutOfOrderSequenceError)
    expect(append(state, batch(1, 2), 2)).toBeUndefined()
  })

  it('fences an older epoch and lets a newer epoch start anywhere, dropping the old batches', () => {
    const state = manager()
    append(state, batch(1, 0, 2, 5), 0)
    expect(() => append(state, batch(1, 2, 1, 4), 2)).toThrow(InvalidProducerEpochError)
    // The duplicate of an old-epoch batch is fenced too: a duplicate must carry the current epoch.
    expect(() => append(state, batch(1, 0, 2, 4), 2)).toThrow(InvalidProducerEpochError)
    expect(append(state, batch(1, 777, 1, 6), 2)).toBeUndefined()
    expect(state.describe(0)).toMatchObject([{ producerEpoch: 6, lastSequence: 777 }])
    expect(() => append(state, batch(1, 0, 2, 5), 3)).toThrow(InvalidProducerEpochError)
    expect(append(state, batch(1, 778, 1, 6), 3)).toBeUndefined()
  })

  it('wraps sequences from 2^31 - 1 to 0', () => {
    const state = manager()
    append(state, batch(1, MAX_SEQ - 2, 3), 0) // MAX-2 .. MAX
    expect(state.describe(0)[0]!.lastSequence).toBe(MAX_SEQ)
    expect(append(state, batch(1, 0, 2), 3)).toBeUndefined()
    // A batch may straddle the wrap: MAX-1, MAX, 0.
    const other = batch(2, MAX_SEQ - 1, 3)
    expect(other.lastSequence).toBe(0)
    append(state, other, 5)
    expect(append(state, batch(2, MAX_SEQ - 1, 3), 99)).toMatchObject({ firstOffset: 5, lastOffset: 7 })
    expect(append(state, batch(2, 1), 8)).toBeUndefined()
  })

  it('forgets a producer silent for producer.id.expiration.ms, then takes any sequence from it', () => {
    const state = manager({ expirationMs: DAY })
    append(state, batch(1, 0, 5), 0, 0)
    append(state, batch(2, 0, 1), 5, DAY / 2)
    expect(state.describe(DAY - 1)).toHaveLength(2)
    expect(state.describe(DAY).map((p) => p.producerId)).toEqual([2])
    expect(append(state, batch(1, 900), 6, DAY)).toBeUndefined()
    expect(state.removeExpired(2 * DAY - 1)).toBe(1) // producer 2; producer 1 was renewed at DAY
    expect(state.describe(2 * DAY - 1).map((p) => p.producerId)).toEqual([1])
  })

  it('bounds the producers tracked, forgetting the least recently active first', () => {
    const state = manager({ maxProducers: 3 })
    for (const id of [1, 2, 3]) append(state, batch(id, 0), id)
    append(state, batch(1, 1), 10) // producer 1 is now the most recent
    append(state, batch(4, 0), 11)
    expect(state.size).toBe(3)
    expect(state.describe(0).map((p) => p.producerId)).toEqual([3, 1, 4])
    // Producer 2 is unknown again: any sequence.
    expect(append(state, batch(2, 50), 12)).toBeUndefined()
    expect(state.describe(0).map((p) => p.producerId)).toEqual([1, 4, 2])
    state.setLimits({ expirationMs: DAY, maxProducers: 1 }, 0)
    expect(state.describe(0).map((p) => p.producerId)).toEqual([2])
  })

  describe('one group of appends', () => {
    it('finds a retry of an earlier append in the same group, marked pending on that write', () => {
      const state = manager()
      append(state, batch(1, 0), 0)
      const check = state.beginCheck(0)
      expect(check.check([batch(1, 1, 2)])).toBeUndefined()
      check.record([batch(1, 1, 2)], [{ baseOffset: 1, lastOffset: 2 }])
      expect(check.check([batch(1, 1, 2)])).toEqual({ firstOffset: 1, lastOffset: 2, pending: true })
      // Already-stored batches are not pending.
      expect(check.check([batch(1, 0)])).toEqual({ firstOffset: 0, lastOffset: 0, pending: false })
      // The next sequence follows the recorded request, not the stored state.
      expect(() => check.check([batch(1, 4)])).toThrow(OutOfOrderSequenceError)
      // A batch behind the recorded request alone is not proven appended (that write may fail).
      expect(() => check.check([batch(1, 2)])).toThrow(OutOfOrderSequenceError)
      expect(check.check([batch(1, 3)])).toBeUndefined()
      // Checking changed nothing: the manager learns of batches once they are written.
      expect(state.describe(0)).toMatchObject([{ lastSequence: 0 }])
    })

    it('checks several batches of one request in order', () => {
      const state = manager()
      const check = state.beginCheck(0)
      expect(check.check([batch(1, 0), batch(1, 1, 3), batch(2, 9)])).toBeUndefined()
      expect(() => check.check([batch(3, 0), batch(3, 2)])).toThrow(OutOfOrderSequenceError)
    })

    it('refuses a request mixing retried and new batches', () => {
      const state = manager()
      append(state, batch(1, 0), 0)
      const check = state.beginCheck(0)
      expect(() => check.check([batch(1, 0), batch(1, 1)])).toThrow(DuplicateSequenceError)
      expect(() => check.check([batch(1, 0), undefined])).toThrow(DuplicateSequenceError)
    })
  })

  describe('truncation', () => {
    it('keeps the batches below the cut and forgets producers left with none', () => {
      const state = manager()
      append(state, batch(1, 0, 2), 0) // offsets 0-1
      append(state, batch(2, 0, 1), 2)
      append(state, batch(1, 2, 2), 3) // 3-4
      append(state, batch(3, 0, 1), 5)
      append(state, batch(4, 0, 1), 6)
      append(state, batch(4, 0, 1, 1), 7) // a new epoch drops epoch 0's batches, as in Kafka
      expect(state.truncateFrom(3)).toBe(2) // producer 3 had only offset 5, producer 4 only offset 7
      expect(state.describe(0).map((p) => [p.producerId, p.lastSequence, p.lastOffset])).toEqual([
        [2, 0, 2],
        [1, 1, 1],
      ])
      expect(append(state, batch(1, 2, 2), 3)).toBeUndefined()
      expect(append(state, batch(1, 0, 2), 9)).toMatchObject({ firstOffset: 0 })
      // Forgotten producers may start anywhere again.
      expect(append(state, batch(4, 70, 1, 0), 5)).toBeUndefined()
    })
  })

  describe('snapshots', () => {
    it('round-trips through its JSON form', () => {
      const state = manager()
      append(state, batch(1, 0, 2, 3), 0, 500)
      append(state, batch(2 ** 53 - 1, MAX_SEQ, 2), 2, 600)
      append(state, batch(1, 2, 1, 3), 4, 700)
      const text = encodeProducerSnapshot(5, state.entries())
      const decoded = decodeProducerSnapshot(text)
      expect(decoded.offset).toBe(5)
      const again = manager()
      again.load(decoded.producers)
      expect(again.describe(0)).toEqual(state.describe(0))
      expect(append(again, batch(1, 0, 2, 3), 99)).toEqual({ firstOffset: 0, lastOffset: 1, pending: false })
    })

    it('refuses malformed snapshots with CorruptRecordError', () => {
      const good = JSON.parse(
        encodeProducerSnapshot(10, [
          {
            producerId: 1,
            producerEpoch: 0,
            lastUpdateMs: 0,
            batches: [
              { producerEpoch: 0, firstSequence: 0, lastSequence: 1, firstOffset: 0, lastOffset: 1, maxTimestamp: 5 },
            ],
          },
        ]),
      )
      expect(decodeProducerSnapshot(JSON.stringify(good)).producers).toHaveLength(1)
      const variants: unknown[] = [
        { ...good, v: 2 },
        { ...good, offset: -1 },
        { ...good, producers: [[1, 0, 0, [0, 0, 1, 0, 11, 5]]] }, // a batch past the snapshot offset
        { ...good, producers: [[1, 0, 0, []]] },
        { ...good, producers: [[1, 0, 0, [1, 0, 1, 0, 1, 5]]] }, // batch epoch ≠ producer epoch
        { ...good, producers: [good.producers[0], good.producers[0]] },
        { ...good, producers: [[-1, 0, 0, [0, 0, 1, 0, 1, 5]]] },
      ]
      for (const variant of variants) {
        expect(() => decodeProducerSnapshot(JSON.stringify(variant))).toThrow(CorruptRecordError)
      }
      expect(() => decodeProducerSnapshot('{not json')).toThrow(CorruptRecordError)
    })
  })
})
