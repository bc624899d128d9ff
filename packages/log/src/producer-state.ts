import {
  DuplicateSequenceError,
  InvalidProducerEpochError,
  InvalidRecordError,
  OutOfOrderSequenceError,
  type RecordBatchHeader,
  readBatchHeader,
} from '@tributary/wire'

/**
 * Batches remembered per producer. A retry of any of them is answered as a duplicate; Kafka
 * keeps the same five, matching its producers' limit of five requests in flight.
 */
export const RETAINED_BATCHES_PER_PRODUCER = 5
/** The RecordBatch default producer id: a producer without idempotence, never checked. */
export const NO_PRODUCER_ID = -1
/** Sequences are non-negative int32s and wrap from 2^31 - 1 to 0, as in Kafka. */
const SEQUENCE_MODULUS = 2 ** 31

/** The idempotence fields of one producer batch (from its 61-byte header; records are never decoded). */
export interface ProducerBatch {
  producerId: number
  producerEpoch: number
  firstSequence: number
  /** firstSequence + lastOffsetDelta, wrapped at 2^31. */
  lastSequence: number
  recordCount: number
  maxTimestamp: number
}

/** A batch the log holds, as a producer's entry remembers it (Kafka's BatchMetadata). */
export interface RetainedBatch {
  producerEpoch: number
  firstSequence: number
  lastSequence: number
  firstOffset: number
  lastOffset: number
  maxTimestamp: number
}

/** What the log knows of one producer (Kafka's ProducerStateEntry). */
export interface ProducerEntry {
  producerId: number
  producerEpoch: number
  /** Oldest first; at most RETAINED_BATCHES_PER_PRODUCER, all of `producerEpoch`. */
  batches: RetainedBatch[]
  /** The log's clock when this producer last appended, for `producer.id.expiration.ms`. */
  lastUpdateMs: number
}

/** One producer as `describeProducers()` reports it (the fields of Kafka's DescribeProducers). */
export interface ProducerDescription {
  producerId: number
  producerEpoch: number
  lastSequence: number
  /** Max timestamp of its last batch. */
  lastTimestamp: number
  /** Offsets of its last batch. */
  firstOffset: number
  lastOffset: number
  lastUpdateMs: number
}

/** The answer to a retried request: the offsets its batches received the first time. */
export interface DuplicateAppend {
  firstOffset: number
  lastOffset: number
  /** The original is in the same group commit as the retry, so the answer holds only if that write succeeds. */
  pending: boolean
}

export interface ProducerStateLimits {
  /** A producer silent for this long is forgotten (`producer.id.expiration.ms`). */
  expirationMs: number
  /** Producers tracked at most; beyond it the least recently active is forgotten (`producer.id.max.count`). */
  maxProducers: number
}

/** `first + delta` in sequence space. */
export function addSequence(first: number, delta: number): number {
  return (first + delta) % SEQUENCE_MODULUS
}

/** Idempotence fields of a stored or replicated batch; undefined for control and non-idempotent batches. */
export function producerBatchOf(header: RecordBatchHeader): ProducerBatch | undefined {
  if (header.control || header.producerId < 0 || header.producerEpoch < 0 || header.baseSequence < 0) return undefined
  return {
    producerId: header.producerId,
    producerEpoch: header.producerEpoch,
    firstSequence: header.baseSequence,
    lastSequence: addSequence(header.baseSequence, header.lastOffsetDelta),
    recordCount: header.recordCount,
    maxTimestamp: header.maxTimestamp,
  }
}

/** Same, for a batch offered by a producer: inconsistent idempotence fields are refused, not ignored. */
export function producedBatchOf(header: RecordBatchHeader): ProducerBatch | undefined {
  if (header.control || header.producerId === NO_PRODUCER_ID) return undefined
  if (header.producerId < 0) throw new InvalidRecordError(`producer id ${header.producerId} is negative`)
  if (header.producerEpoch < 0 || header.baseSequence < 0) {
    throw new InvalidRecordError(
      `producer ${header.producerId} sent epoch ${header.producerEpoch} and base sequence ${header.baseSequence}; an idempotent batch needs both ≥ 0`,
    )
  }
  return producerBatchOf(header)
}

/** Records `batch` in `entry` (both the leader's checked path and replication/replay use it). */
function applyBatch(entry: ProducerEntry, batch: ProducerBatch, firstOffset: number, lastOffset: number, now: number) {
  // A batch of an older epoch can reach a replica only from a log the leader already accepted;
  // it changes nothing (a retry of it can never match: duplicates must carry the current epoch).
  if (batch.producerEpoch < entry.producerEpoch) return
  if (batch.producerEpoch > entry.producerEpoch) {
    entry.producerEpoch = batch.producerEpoch
    entry.batches = []
  }
  entry.batches.push({
    producerEpoch: batch.producerEpoch,
    firstSequence: batch.firstSequence,
    lastSequence: batch.lastSequence,
    firstOffset,
    lastOffset,
    maxTimestamp: batch.maxTimestamp,
  })
  if (entry.batches.length > RETAINED_BATCHES_PER_PRODUCER) entry.batches.shift()
  entry.lastUpdateMs = Math.max(entry.lastUpdateMs, now)
}

function findDuplicate(entry: ProducerEntry, batch: ProducerBatch): RetainedBatch | undefined {
  if (batch.producerEpoch !== entry.producerEpoch) return undefined
  return entry.batches.find((b) => b.firstSequence === batch.firstSequence && b.lastSequence === batch.lastSequence)
}

function cloneEntry(entry: ProducerEntry): ProducerEntry {
  // A literal, not a spread: V8 promotes objects made by spreading (see group-commit.ts).
  return {
    producerId: entry.producerId,
    producerEpoch: entry.producerEpoch,
    batches: entry.batches.slice(),
    lastUpdateMs: entry.lastUpdateMs,
  }
}

/**
 * Kafka's ProducerStateManager: per producer id, its epoch and its last few batches (sequences
 * and offsets). The leader checks every idempotent batch against it before appending — a
 * retry of a retained batch is a duplicate answered with the original offsets, a retry of an
 * older one `DuplicateSequenceError` (offsets unknown), a gap in the sequence is
 * `OutOfOrderSequenceError`, an older epoch is `InvalidProducerEpochError` — and
 * every replica records what its log holds, so a follower that becomes leader already knows.
 *
 * Rules beyond Kafka's, for a mesh whose producers pick their own ids:
 * - an unknown producer (never seen, expired, or evicted) may start at any sequence: we cannot
 *   tell a new producer from a forgotten one, and an offline outbox may replay late;
 * - a higher epoch starts a fresh sequence at any number (its first batch is not checked);
 * - memory is bounded: producers expire after `producer.id.expiration.ms` without appends, and
 *   beyond `producer.id.max.count` the least recently active is forgotten.
 *
 * The map is kept in order of last update, so eviction takes from its front.
 */
export class ProducerStateManager {
  private producers = new Map<number, ProducerEntry>()

  constructor(
    private readonly name: string,
    private limits: ProducerStateLimits,
  ) {}

  get size(): number {
    return this.producers.size
  }

  setLimits(limits: ProducerStateLimits, now: number): void {
    this.limits = limits
    this.removeExpired(now)
    this.enforceCap()
  }

  /** The producer's live entry, or undefined if unknown or expired (an expired one is dropped). */
  get(producerId: number, now: number): ProducerEntry | undefined {
    const entry = this.producers.get(producerId)
    if (entry === undefined) return undefined
    if (now - entry.lastUpdateMs >= this.limits.expirationMs) {
      this.producers.delete(producerId)
      return undefined
    }
    return entry
  }

  /** Starts checking one group of leader appends (see `ProducerAppendCheck`). */
  beginCheck(now: number): ProducerAppendCheck {
    return new ProducerAppendCheck(this, this.name, now)
  }

  /** Records batches as the log now holds them: leader appends after they were written, replicated and replayed ones. */
  applyStored(batches: ReadonlyArray<{ bytes: Uint8Array; baseOffset: number; lastOffset: number }>, now: number) {
    for (const stored of batches) {
      const batch = producerBatchOf(readBatchHeader(stored.bytes, 0))
      if (batch !== undefined) this.apply(batch, stored.baseOffset, stored.lastOffset, now)
    }
  }

  apply(batch: ProducerBatch, firstOffset: number, lastOffset: number, now: number): void {
    const entry = this.get(batch.producerId, now) ?? {
      producerId: batch.producerId,
      producerEpoch: batch.producerEpoch,
      batches: [],
      lastUpdateMs: now,
    }
    applyBatch(entry, batch, firstOffset, lastOffset, now)
    this.producers.delete(batch.producerId)
    this.producers.set(batch.producerId, entry)
    this.enforceCap()
  }

  /**
   * The log lost every batch from `offset` on (truncation, or a torn tail after a crash). Each
   * producer keeps its retained batches below `offset`; a producer left with none (all cut, or
   * dropped earlier by an epoch bump that was itself cut) is forgotten — treated as new, which
   * never refuses a producer wrongly.
   * Returns how many were forgotten.
   */
  truncateFrom(offset: number): number {
    let forgotten = 0
    for (const [id, entry] of this.producers) {
      if (entry.batches.length === 0 || entry.batches.at(-1)!.lastOffset < offset) continue
      const kept = entry.batches.filter((b) => b.lastOffset < offset)
      if (kept.length === 0) {
        this.producers.delete(id)
        forgotten++
        continue
      }
      entry.batches = kept
    }
    return forgotten
  }

  clear(): void {
    this.producers.clear()
  }

  /** Drops producers silent for `producer.id.expiration.ms`; returns how many. */
  removeExpired(now: number): number {
    let removed = 0
    for (const [id, entry] of this.producers) {
      if (now - entry.lastUpdateMs >= this.limits.expirationMs) {
        this.producers.delete(id)
        removed++
      }
    }
    return removed
  }

  entries(): IterableIterator<ProducerEntry> {
    return this.producers.values()
  }

  /** Replaces the state (a loaded snapshot); entries in order of last update. */
  load(entries: readonly ProducerEntry[]): void {
    this.producers = new Map([...entries].sort((a, b) => a.lastUpdateMs - b.lastUpdateMs).map((e) => [e.producerId, e]))
    this.enforceCap()
  }

  describe(now: number): ProducerDescription[] {
    const out: ProducerDescription[] = []
    for (const entry of this.producers.values()) {
      const last = entry.batches.at(-1)
      if (last === undefined || now - entry.lastUpdateMs >= this.limits.expirationMs) continue
      out.push({
        producerId: entry.producerId,
        producerEpoch: entry.producerEpoch,
        lastSequence: last.lastSequence,
        lastTimestamp: last.maxTimestamp,
        firstOffset: last.firstOffset,
        lastOffset: last.lastOffset,
        lastUpdateMs: entry.lastUpdateMs,
      })
    }
    return out
  }

  private enforceCap(): void {
    for (const id of this.producers.keys()) {
      if (this.producers.size <= this.limits.maxProducers) return
      this.producers.delete(id)
    }
  }
}

/**
 * Checks the leader appends of one group commit in order, before any is written. Each
 * request's batches are checked against the state as the requests before it in the group will
 * leave it (`record`), so two racing sends of one batch append once: the second finds the
 * first as a duplicate. Nothing changes the manager; it learns of the batches once written.
 */
export class ProducerAppendCheck {
  /** Entries as the requests recorded so far will leave them. */
  private readonly pending = new Map<number, ProducerEntry>()
  /** The batches those requests add (a duplicate of one is only as good as the group's write). */
  private readonly recorded = new Set<RetainedBatch>()

  constructor(
    private readonly state: ProducerStateManager,
    private readonly name: string,
    private readonly now: number,
  ) {}

  private entry(producerId: number): ProducerEntry | undefined {
    return this.pending.get(producerId) ?? this.state.get(producerId, this.now)
  }

  /**
   * One request's batches (undefined for batches without idempotence). Returns the original
   * offsets when every batch is a retained one (a retry), undefined when none is; a request
   * mixing the two is refused. Throws on fencing, sequence gaps and retries of batches older than the retained ones.
   */
  check(batches: ReadonlyArray<ProducerBatch | undefined>): DuplicateAppend | undefined {
    let first: RetainedBatch | undefined
    let last: RetainedBatch | undefined
    let duplicates = 0
    let pending = false
    for (const batch of batches) {
      if (batch === undefined) continue
      const entry = this.entry(batch.producerId)
      const found = entry === undefined ? undefined : findDuplicate(entry, batch)
      if (found === undefined) continue
      duplicates++
      first ??= found
      last = found
      pending ||= this.recorded.has(found)
    }
    if (duplicates > 0) {
      if (duplicates === batches.length)
        return { firstOffset: first!.firstOffset, lastOffset: last!.lastOffset, pending }
      throw new DuplicateSequenceError(
        `${this.name}: ${duplicates} of the ${batches.length} batches in this request were appended before; resend only the others`,
      )
    }
    const seen = new Map<number, { producerEpoch: number; lastSequence: number }>()
    for (const batch of batches) {
      if (batch === undefined) continue
      const entry = this.entry(batch.producerId)
      const earlier = seen.get(batch.producerId)
      const known = earlier ?? (entry === undefined ? undefined : lastOf(entry))
      if (known !== undefined) {
        // Only what is stored proves an append: a request earlier in this group may still fail.
        const stored = earlier === undefined ? this.state.get(batch.producerId, this.now) : undefined
        const storedLast = stored === undefined ? undefined : lastOf(stored)
        if (storedLast?.producerEpoch === known.producerEpoch) this.checkAppendedBefore(batch, storedLast)
        this.checkSequence(batch, known)
      }
      seen.set(batch.producerId, { producerEpoch: batch.producerEpoch, lastSequence: batch.lastSequence })
    }
    return undefined
  }

  /** A checked request is going to be written at these offsets: later requests in the group see it. */
  record(
    batches: ReadonlyArray<ProducerBatch | undefined>,
    offsets: ReadonlyArray<{ baseOffset: number; lastOffset: number }>,
  ): void {
    batches.forEach((batch, i) => {
      if (batch === undefined) return
      let entry = this.pending.get(batch.producerId)
      if (entry === undefined) {
        const current = this.state.get(batch.producerId, this.now)
        entry =
          current === undefined
            ? { producerId: batch.producerId, producerEpoch: batch.producerEpoch, batches: [], lastUpdateMs: this.now }
            : cloneEntry(current)
        this.pending.set(batch.producerId, entry)
      }
      applyBatch(entry, batch, offsets[i]!.baseOffset, offsets[i]!.lastOffset, this.now)
      const added = entry.batches.at(-1)!
      if (added.firstOffset === offsets[i]!.baseOffset) this.recorded.add(added)
    })
  }

  /**
   * A batch of the current epoch whose sequences all lie at or before the last one appended was
   * appended before: the leader takes an epoch's sequences only in order, with no gap. It is not
   * one of the retained batches, so its offsets are unknown: `DuplicateSequenceError`, never
   * appended again (Kafka's producers take DUPLICATE_SEQUENCE_NUMBER as delivered, offsets
   * unknown). Refused as out of order instead, an outbox replaying batches acknowledged before
   * a reload would take it for a leader that lost its producer state, and send them again.
   */
  private checkAppendedBefore(batch: ProducerBatch, known: { producerEpoch: number; lastSequence: number }): void {
    if (batch.producerEpoch !== known.producerEpoch || !atOrBefore(batch.lastSequence, known.lastSequence)) return
    throw new DuplicateSequenceError(
      `${this.name}: producer ${batch.producerId} (epoch ${batch.producerEpoch}) sent sequences ${batch.firstSequence}…${batch.lastSequence}, appended before (its last is ${known.lastSequence}), but not as one of the ${RETAINED_BATCHES_PER_PRODUCER} batches retained: their offsets are unknown`,
    )
  }

  private checkSequence(batch: ProducerBatch, known: { producerEpoch: number; lastSequence: number }): void {
    const { producerId } = batch
    if (batch.producerEpoch < known.producerEpoch) {
      throw new InvalidProducerEpochError(
        `${this.name}: producer ${producerId} sent epoch ${batch.producerEpoch}, but epoch ${known.producerEpoch} has taken over (this producer is fenced)`,
      )
    }
    // A new epoch starts its own sequence; its first batch is taken as it comes.
    if (batch.producerEpoch > known.producerEpoch) return
    const expected = addSequence(known.lastSequence, 1)
    if (batch.firstSequence !== expected) {
      throw new OutOfOrderSequenceError(
        `${this.name}: producer ${producerId} (epoch ${batch.producerEpoch}) sent sequence ${batch.firstSequence}, expected ${expected}: a batch before it is missing`,
      )
    }
  }
}

/** Whether sequence `a` is `b` or comes before it, within half the wrapping sequence space. */
function atOrBefore(a: number, b: number): boolean {
  return (b - a + SEQUENCE_MODULUS) % SEQUENCE_MODULUS < SEQUENCE_MODULUS / 2
}

function lastOf(entry: ProducerEntry): { producerEpoch: number; lastSequence: number } | undefined {
  const last = entry.batches.at(-1)
  return last === undefined ? undefined : { producerEpoch: entry.producerEpoch, lastSequence: last.lastSequence }
}
