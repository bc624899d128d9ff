/**
 * Takes sendable batches from the accumulator and produces them to each partition's leader, with
 * at most `maxInFlight` batches outstanding per partition. A retriable failure resends the same
 * bytes after a backoff, the metadata having been corrected from the error (a NOT_LEADER hint, or
 * a refresh); a batch too large for the leader is split in two.
 *
 * Idempotent batches are pipelined as Kafka's are (up to 5 in flight, the leader keeping the last
 * 5 batches of each producer for duplicates), with its ordering rules: the leader refuses a batch
 * whose predecessor it lacks (OUT_OF_ORDER_SEQUENCE, retried here while that predecessor is still
 * unsettled), a retry waits until every earlier batch of its partition has settled, and when one
 * fails for good the later ones fail too instead of overtaking it. A partition's first batch under
 * a producer id, or the first after a long pause, goes alone: a leader takes any sequence from a
 * producer it does not know, so a later batch must not reach it first.
 */
import {
  DuplicateSequenceError,
  ErrorCode,
  encodeRecordBatch,
  InvalidProducerEpochError,
  NetworkError,
  OutOfOrderSequenceError,
  RequestTimedOutError,
  TributaryError,
} from '@tributary/wire'
import { OFFSETS_UNKNOWN, type ProduceResult, recordOffset } from '../broker.js'
import type { Cluster } from '../cluster/cluster.js'
import { NumberOfRetriesExceededError, partitionName } from '../errors.js'
import type { Instrumentation } from '../instrumentation.js'
import type { Retrier } from '../retry.js'
import { AbortScope } from './abort-scope.js'
import type { BatchResult, ProducerBatch, RecordAccumulator } from './accumulator.js'
import type { ProducerEvents } from './events.js'
import type { ProducerIdentity } from './idempotence.js'

export interface SenderOptions {
  cluster: Cluster
  accumulator: RecordAccumulator
  /** Present when idempotent. */
  identity: ProducerIdentity | undefined
  retrier: Retrier
  maxInFlight: number
  instrumentation: Instrumentation<ProducerEvents>
  /** Aborted when the producer closes. */
  signal: AbortSignal
}

/** A batch taken for sending, in its partition's order; settled once acknowledged or failed for good. */
interface Sent {
  batch: ProducerBatch
  settled: Promise<void>
  settle: () => void
  done: boolean
}

/** A partition whose producer id has had no acknowledgement for this long sends one batch alone first. */
const PIPELINE_IDLE_MS = 60_000

export class Sender {
  /**
   * Per partition, the batches taken since its oldest unsettled one (settled ones behind it stay;
   * without idempotence only the unsettled ones):
   * its length bounds what the leader must still remember, so a retry of the oldest is always
   * among the producer's last 5 batches there (a count of unsettled batches alone would let later
   * ones, acknowledged meanwhile, push it out).
   */
  private readonly windows = new Map<string, Sent[]>()
  /** Per partition, when a batch under its current producer id was last acknowledged. */
  private readonly acknowledgedAt = new Map<string, { producerId: number; at: number }>()
  private readonly idle: Array<() => void> = []
  private active = 0
  /** Each batch's requests get their own signal, aborted with the producer's. */
  private readonly scope: AbortScope

  constructor(private readonly options: SenderOptions) {
    this.scope = new AbortScope(options.signal)
  }

  /** Sends the partition's sendable batches, up to the in-flight limit. */
  drain(topic: string, partition: number): void {
    const key = `${topic}\u0000${partition}`
    for (;;) {
      const window = this.windows.get(key) ?? []
      if (window.length >= this.limit(key, topic, partition)) return
      const batch = this.options.accumulator.next(topic, partition)
      if (batch === undefined) return
      let resolve: () => void = () => {}
      const entry: Sent = {
        batch,
        done: false,
        settled: new Promise<void>((r) => {
          resolve = r
        }),
        settle: () => {
          entry.done = true
          resolve()
        },
      }
      window.push(entry)
      this.windows.set(key, window)
      this.active++
      void this.send(batch, key, entry).finally(() => {
        entry.settle()
        const left = this.windows.get(key)
        if (this.options.identity === undefined) {
          // Without sequences batches are independent: the window counts only those in flight.
          const at = left?.indexOf(entry) ?? -1
          if (at >= 0) left!.splice(at, 1)
        } else while (left !== undefined && left.length > 0 && left[0]!.done) left.shift()
        if (left?.length === 0) this.windows.delete(key)
        this.active--
        this.drain(topic, partition)
        if (this.active === 0) for (const wake of this.idle.splice(0)) wake()
      })
    }
  }

  /** Batches allowed in flight: one for an idempotent partition not acknowledged lately under its id. */
  private limit(key: string, topic: string, partition: number): number {
    const { identity, maxInFlight } = this.options
    if (identity === undefined || maxInFlight === 1) return maxInFlight
    const acked = this.acknowledgedAt.get(key)
    const established =
      acked !== undefined &&
      acked.producerId === identity.producerIdOf(topic, partition) &&
      Date.now() - acked.at < PIPELINE_IDLE_MS
    return established ? maxInFlight : 1
  }

  /** Resolves when no batch is in flight. */
  whenIdle(): Promise<void> {
    if (this.active === 0) return Promise.resolve()
    return new Promise((resolve) => this.idle.push(resolve))
  }

  private async send(batch: ProducerBatch, key: string, entry: Sent): Promise<void> {
    const { accumulator } = this.options
    try {
      const result =
        batch.spec.acks === 0
          ? await this.sendUnacknowledged(batch)
          : await this.scope.run((signal) => this.sendWithRetries(batch, key, entry, signal))
      if (batch.sequence !== undefined) {
        this.acknowledgedAt.set(key, { producerId: batch.sequence.producerId, at: Date.now() })
      }
      accumulator.release(batch.recordBytes)
      batch.resolve(result)
    } catch (err) {
      if (this.splitIfTooLarge(batch, err)) return
      // Before the batches behind it look: a reset gives the partition a new producer id.
      this.settleSequence(batch, err)
      entry.settle()
      accumulator.release(batch.recordBytes)
      batch.reject(namingPartition(err, partitionName(batch.topic, batch.partition)))
    }
  }

  /**
   * Before an idempotent batch is sent again: every earlier batch of its partition must have
   * settled (else the retry could overtake one), and its sequence chain must be unbroken — an
   * earlier batch that failed for good put the partition under a new producer id, and the leader
   * would never take this one in sequence: it fails too, as in Kafka.
   */
  private async awaitPredecessors(key: string, entry: Sent, bail: (err: unknown) => never): Promise<void> {
    const window = this.windows.get(key) ?? []
    const before = window.slice(0, Math.max(0, window.indexOf(entry)))
    await Promise.all(before.map((e) => e.settled))
    const { batch } = entry
    const current = this.options.identity?.producerIdOf(batch.topic, batch.partition)
    if (batch.sequence !== undefined && current !== undefined && batch.sequence.producerId !== current) {
      bail(
        new OutOfOrderSequenceError(
          `an earlier batch of ${partitionName(batch.topic, batch.partition)} failed; this one cannot follow it`,
        ),
      )
    }
  }

  /** Whether an earlier batch of the partition is still unsettled (an out-of-order answer is then expected). */
  private hasUnsettledPredecessor(key: string, entry: Sent): boolean {
    const window = this.windows.get(key) ?? []
    const at = window.indexOf(entry)
    return window.slice(0, Math.max(0, at)).some((e) => !e.done)
  }

  private async encode(batch: ProducerBatch): Promise<Uint8Array> {
    if (batch.encoded !== undefined) return batch.encoded
    const { identity } = this.options
    if (identity !== undefined) batch.sequence = identity.assign(batch.topic, batch.partition, batch.records.length)
    batch.encoded = await encodeRecordBatch({
      records: batch.records,
      compression: batch.spec.compression,
      ...(batch.sequence === undefined ? {} : batch.sequence),
    })
    return batch.encoded
  }

  private async sendWithRetries(
    batch: ProducerBatch,
    key: string,
    entry: Sent,
    signal: AbortSignal,
  ): Promise<BatchResult> {
    const { cluster } = this.options
    const result = await this.options.retrier(
      async (bail, retryCount) => {
        if (retryCount > 0 && batch.sequence !== undefined) await this.awaitPredecessors(key, entry, bail)
        const pipelined = this.hasUnsettledPredecessor(key, entry)
        batch.attempts++
        const { broker, leader } = await cluster.leader(batch.topic, batch.partition, { signal })
        const records = await this.encode(batch)
        const started = Date.now()
        try {
          const answer = await broker.produce(
            {
              topic: batch.topic,
              partition: batch.partition,
              acks: batch.spec.acks,
              timeoutMs: batch.spec.timeoutMs,
              records,
            },
            { signal },
          )
          this.emitRequest(batch, leader, retryCount, started, records.length, undefined)
          return answer
        } catch (err) {
          // One batch per request, so DUPLICATE_SEQUENCE says the leader holds it from before, older
          // than the batches it retains: delivered, offsets unknown — as Kafka's producer takes it.
          if (err instanceof DuplicateSequenceError && batch.sequence !== undefined) {
            this.emitRequest(batch, leader, retryCount, started, records.length, undefined)
            return OFFSETS_UNKNOWN
          }
          this.emitRequest(batch, leader, retryCount, started, records.length, err)
          cluster.onPartitionError(batch.topic, batch.partition, err)
          // Sent behind a batch the leader did not have yet: try again once that one has settled.
          if (err instanceof OutOfOrderSequenceError && pipelined) throw new PipelinedOutOfOrderError(err)
          throw err
        }
      },
      { signal },
    )
    return resultOf(result)
  }

  /** acks=0: resolved once handed to the leader's connection; whatever the leader answers is only reported as an event. */
  private async sendUnacknowledged(batch: ProducerBatch): Promise<BatchResult> {
    const { cluster } = this.options
    const { broker, leader } = await this.scope.run((signal) =>
      this.options.retrier(() => cluster.leader(batch.topic, batch.partition, { signal }), { signal }),
    )
    const records = await this.encode(batch)
    const started = Date.now()
    // The in-flight slot is held until the leader answers, so unacknowledged sends stay bounded too.
    void this.scope
      .run((signal) =>
        broker.produce(
          { topic: batch.topic, partition: batch.partition, acks: 0, timeoutMs: batch.spec.timeoutMs, records },
          { signal },
        ),
      )
      .then(
        () => this.emitRequest(batch, leader, 0, started, records.length, undefined),
        (err: unknown) => {
          cluster.onPartitionError(batch.topic, batch.partition, err)
          this.emitRequest(batch, leader, 0, started, records.length, err)
        },
      )
    return { offsetOf: () => -1, logAppendTime: -1, logStartOffset: -1 }
  }

  /**
   * A multi-record batch refused as too large is split in two halves sent in its place; the
   * leader refused it whole, so its sequences are given back and the halves take them again.
   */
  private splitIfTooLarge(batch: ProducerBatch, err: unknown): boolean {
    const cause = err instanceof NumberOfRetriesExceededError ? err.cause : err
    if (!(cause instanceof TributaryError) || cause.code !== ErrorCode.MESSAGE_TOO_LARGE) return false
    if (batch.records.length < 2 || this.options.signal.aborted) return false
    const { identity } = this.options
    if (identity !== undefined && batch.sequence !== undefined) {
      if (!identity.rollback(batch.topic, batch.partition, batch.sequence, batch.records.length)) return false
    }
    const half = Math.ceil(batch.records.length / 2)
    const [first, second] = batch.splitInTwo(half)
    this.options.accumulator.requeueFirst([first, second])
    Promise.all([first.promise, second.promise]).then(
      ([a, b]) =>
        batch.resolve({
          offsetOf: (i) => (i < half ? a.offsetOf(i) : b.offsetOf(i - half)),
          logAppendTime: b.logAppendTime,
          logStartOffset: b.logStartOffset,
        }),
      (e: unknown) => batch.reject(e),
    )
    return true
  }

  /**
   * After a batch failed for good: if the leader certainly refused it, its sequences are given
   * back; if it may have been appended (retries ran out on timeouts or lost connections) or the
   * leader's sequence state disagrees with ours, the partition continues as a new producer.
   */
  private settleSequence(batch: ProducerBatch, err: unknown): void {
    const { identity } = this.options
    if (identity === undefined || batch.sequence === undefined) return
    // An earlier batch's failure already moved the partition to a new id (this one failed behind
    // it): the new id's sequences are not this batch's to give back or reset.
    if (batch.sequence.producerId !== identity.producerIdOf(batch.topic, batch.partition)) return
    const ambiguous =
      err instanceof NumberOfRetriesExceededError ||
      err instanceof NetworkError ||
      err instanceof RequestTimedOutError ||
      err instanceof OutOfOrderSequenceError ||
      err instanceof InvalidProducerEpochError ||
      !(err instanceof TributaryError)
    if (ambiguous || !identity.rollback(batch.topic, batch.partition, batch.sequence, batch.records.length)) {
      identity.reset(batch.topic, batch.partition)
    }
  }

  private emitRequest(
    batch: ProducerBatch,
    leader: string,
    retryCount: number,
    started: number,
    bytes: number,
    error: unknown,
  ): void {
    this.options.instrumentation.emit('producer.request', () => ({
      topic: batch.topic,
      partition: batch.partition,
      leader,
      records: batch.records.length,
      bytes,
      acks: batch.spec.acks,
      retryCount,
      durationMs: Date.now() - started,
      error: error instanceof Error ? error : undefined,
    }))
  }
}

/** OUT_OF_ORDER_SEQUENCE for a batch sent behind an unsettled one: retriable, unlike the code's own error. */
class PipelinedOutOfOrderError extends TributaryError {
  constructor(cause: OutOfOrderSequenceError) {
    super(`${cause.message} (sent behind an unsettled batch; retried once it settles)`, {
      cause,
      code: ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
      retriable: true,
    })
  }
}

/** Errors say which partition they concern ("orders-3: …") unless they already do. */
function namingPartition(err: unknown, name: string): unknown {
  if (err instanceof Error && !err.message.includes(name)) err.message = `${name}: ${err.message}`
  return err
}

function resultOf(answer: ProduceResult): BatchResult {
  return {
    offsetOf: (index) => recordOffset(answer, index),
    logAppendTime: answer.logAppendTime,
    logStartOffset: answer.logStartOffset,
  }
}
