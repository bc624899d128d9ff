import { CorruptRecordError } from '@tributary/wire'
import { type ProducerEntry, RETAINED_BATCHES_PER_PRODUCER, type RetainedBatch } from './producer-state.js'

/** A producer-state snapshot: the state after every batch below `offset` (Kafka's `.snapshot` file). */
export interface ProducerSnapshot {
  offset: number
  producers: ProducerEntry[]
}

const VERSION = 1
const BATCH_FIELDS = 6
const INT32_MAX = 2 ** 31 - 1

/**
 * Compact JSON: `{"v":1,"offset":N,"producers":[[id, epoch, lastUpdateMs, [epoch, firstSeq,
 * lastSeq, firstOffset, lastOffset, maxTimestamp, …]], …]}` — about 150 bytes per producer.
 */
export function encodeProducerSnapshot(offset: number, producers: Iterable<ProducerEntry>): string {
  const rows: unknown[] = []
  for (const p of producers) {
    const batches: number[] = []
    for (const b of p.batches) {
      batches.push(b.producerEpoch, b.firstSequence, b.lastSequence, b.firstOffset, b.lastOffset, b.maxTimestamp)
    }
    rows.push([p.producerId, p.producerEpoch, p.lastUpdateMs, batches])
  }
  return JSON.stringify({ v: VERSION, offset, producers: rows })
}

/** Parses and checks a snapshot; anything malformed is a `CorruptRecordError` (the caller rebuilds from the log). */
export function decodeProducerSnapshot(text: string): ProducerSnapshot {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (err) {
    throw new CorruptRecordError('producer-state snapshot is not valid JSON', { cause: err })
  }
  const { v, offset, producers } = (parsed ?? {}) as { v?: unknown; offset?: unknown; producers?: unknown }
  if (v !== VERSION) throw new CorruptRecordError(`producer-state snapshot has unknown version ${String(v)}`)
  if (!isInt(offset, 0, Number.MAX_SAFE_INTEGER) || !Array.isArray(producers)) {
    throw new CorruptRecordError('producer-state snapshot lacks an offset or a producer list')
  }
  const seen = new Set<number>()
  const entries = producers.map((row: unknown): ProducerEntry => {
    if (!Array.isArray(row) || row.length !== 4) throw bad('a producer row is malformed')
    const [producerId, producerEpoch, lastUpdateMs, flat] = row as unknown[]
    if (!isInt(producerId, 0, Number.MAX_SAFE_INTEGER) || seen.has(producerId)) throw bad('a producer id is invalid')
    seen.add(producerId)
    if (!isInt(producerEpoch, 0, 32767) || !isInt(lastUpdateMs, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)) {
      throw bad(`producer ${producerId} has an invalid epoch or update time`)
    }
    if (
      !Array.isArray(flat) ||
      flat.length === 0 ||
      flat.length % BATCH_FIELDS !== 0 ||
      flat.length > BATCH_FIELDS * RETAINED_BATCHES_PER_PRODUCER
    ) {
      throw bad(`producer ${producerId} has a malformed batch list`)
    }
    const batches: RetainedBatch[] = []
    for (let i = 0; i < flat.length; i += BATCH_FIELDS) {
      const [epoch, firstSequence, lastSequence, firstOffset, lastOffset, maxTimestamp] = flat.slice(
        i,
        i + BATCH_FIELDS,
      )
      const valid =
        epoch === producerEpoch &&
        isInt(firstSequence, 0, INT32_MAX) &&
        isInt(lastSequence, 0, INT32_MAX) &&
        isInt(firstOffset, 0, offset) &&
        isInt(lastOffset, firstOffset, offset - 1) &&
        isInt(maxTimestamp, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) &&
        (batches.length === 0 || firstOffset > batches.at(-1)!.lastOffset)
      if (!valid) throw bad(`producer ${producerId} has an invalid batch`)
      batches.push({ producerEpoch: epoch, firstSequence, lastSequence, firstOffset, lastOffset, maxTimestamp })
    }
    return { producerId, producerEpoch, batches, lastUpdateMs }
  })
  return { offset, producers: entries }
}

function bad(what: string): CorruptRecordError {
  return new CorruptRecordError(`producer-state snapshot: ${what}`)
}

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
}
