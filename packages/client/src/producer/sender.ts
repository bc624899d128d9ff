/**
 * Takes sendable batches from the accumulator and produces them to each partition's leader, with
 * at most `maxInFlight` batches outstanding per partition (1 when idempotent: a retried batch must
 * reach the leader before the next one, or the next would arrive out of sequence). A retriable
 * failure resends the same bytes after a backoff, the metadata having been corrected from the
 * error (a NOT_LEADER hint, or a refresh); a batch too large for the leader is split in two.
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
import type { ProduceResult } from '../broker.js'
import type { Cluster } from '../cluster/cluster.js'
import { NumberOfRetriesExceededError, partitionName } from '../errors.js'
import type { Instrumentation } from '../instrumentation.js'
import type { Retrier } from '../retry.js'
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

export class Sender {
  private readonly inFlight = new Map<string, number>()
  private readonly idle: Array<() => void> = []
  private active = 0

  constructor(private readonly options: SenderOptions) {}

  /** Sends the partition's sendable batches, up to the in-flight limit. */
  drain(topic: string, partition: number): void {
    const key = `${topic}\u0000${partition}`
    for (;;) {
      const count = this.inFlight.get(key) ?? 0
      if (count >= this.options.maxInFlight) return
      const batch = this.options.accumulator.next(topic, partition)
      if (batch === undefined) return
      this.inFlight.set(key, count + 1)
      this.active++
      void this.send(batch).finally(() => {
        const left = (this.inFlight.get(key) ?? 1) - 1
        if (left === 0) this.inFlight.delete(key)
        else this.inFlight.set(key, left)
        this.active--
        this.drain(topic, partition)
        if (this.active === 0) for (const wake of this.idle.splice(0)) wake()
      })
    }
  }

  /** Resolves when no batch is in flight. */
  whenIdle(): Promise<void> {
    if (this.active === 0) return Promise.resolve()
    return new Promise((resolve) => this.idle.push(resolve))
  }

  private async send(batch: ProducerBatch): Promise<void> {
    const { accumulator } = this.options
    try {
      const result = batch.spec.acks === 0 ? await this.sendUnacknowledged(batch) : await this.sendWithRetries(batch)
      accumulator.release(batch.recordBytes)
      batch.resolve(result)
    } catch (err) {
      if (this.splitIfTooLarge(batch, err)) return
      this.settleSequence(batch, err)
      accumulator.release(batch.recordBytes)
      batch.reject(namingPartition(err, partitionName(batch.topic, batch.partition)))
    }
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

  private async sendWithRetries(batch: ProducerBatch): Promise<BatchResult> {
    const { cluster, signal } = this.options
    const result = await this.options.retrier(
      async (_bail, retryCount) => {
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
          this.emitRequest(batch, leader, retryCount, started, records.length, err)
          cluster.onPartitionError(batch.topic, batch.partition, err)
          throw err
        }
      },
      { signal },
    )
    return resultOf(result)
  }

  /** acks=0: resolved once handed to the leader's connection; whatever the leader answers is only reported as an event. */
  private async sendUnacknowledged(batch: ProducerBatch): Promise<BatchResult> {
    const { cluster, signal } = this.options
    const { broker, leader } = await this.options.retrier(
      () => cluster.leader(batch.topic, batch.partition, { signal }),
      {
        signal,
      },
    )
    const records = await this.encode(batch)
    const started = Date.now()
    // The in-flight slot is held until the leader answers, so unacknowledged sends stay bounded too.
    void broker
      .produce(
        { topic: batch.topic, partition: batch.partition, acks: 0, timeoutMs: batch.spec.timeoutMs, records },
        { signal },
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
    const ambiguous =
      err instanceof NumberOfRetriesExceededError ||
      err instanceof NetworkError ||
      err instanceof RequestTimedOutError ||
      err instanceof OutOfOrderSequenceError ||
      err instanceof InvalidProducerEpochError ||
      err instanceof DuplicateSequenceError ||
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

/** Errors say which partition they concern ("orders-3: …") unless they already do. */
function namingPartition(err: unknown, name: string): unknown {
  if (err instanceof Error && !err.message.includes(name)) err.message = `${name}: ${err.message}`
  return err
}

function resultOf(answer: ProduceResult): BatchResult {
  return {
    offsetOf: (index) => answer.baseOffset + index,
    logAppendTime: answer.logAppendTime,
    logStartOffset: answer.logStartOffset,
  }
}
