/**
 * One delivery round of an outbox: seal what is unsealed (learning partition counts from the
 * mesh), then send the sealed batches — partitions side by side, each partition's batches one
 * at a time in order, so the leader never sees a sequence gap and a resend is always of the
 * partition's last batch (which the leader retains, and answers as a duplicate).
 *
 * A batch leaves the store only when acknowledged (delivered) or refused for good (failed).
 * Retriable failures end the round with the error; the caller backs off and runs another.
 * When the leader refuses a batch's sequence (it lost our producer state, or a batch before it
 * was refused for good), the partition moves to a new producer epoch from that batch on.
 */
import {
  DuplicateSequenceError,
  encodeRecordBatchSync,
  InvalidProducerEpochError,
  OutOfOrderSequenceError,
  TributaryError,
  UnknownTopicOrPartitionError,
} from '@tributary/wire'
import type { ProduceResult } from '../broker.js'
import { ClientClosedError, partitionName } from '../errors.js'
import type { Partitioner } from '../partitioners/index.js'
import { unreachable } from './network.js'
import { planSeal, sequenceKey } from './seal.js'
import type { OutboxStore, PartitionSequence, SealedBatch, StoredRecord } from './store.js'
import type { OutboxTarget, PartitionInfo } from './target.js'

export interface DeliveryOptions {
  store: OutboxStore
  target: OutboxTarget
  producerId: number
  sequences: Map<string, PartitionSequence>
  /** Partition counts known from earlier runs (kept in the store). */
  topicCounts: Map<string, number>
  partitioner: Partitioner
  maxBatchBytes: number
  maxBatchRecords: number
  /** acks=all timeout the leader may use, ms. */
  requestTimeoutMs: number
  onDelivered(batch: SealedBatch, result: ProduceResult): void
  onFailed(records: StoredRecord[], topic: string, partition: number | null, error: Error): void
  /** A request is about to go out (tests use it to close mid-flight). */
  onRequest?(batch: SealedBatch): void
}

/** How much one round takes on, so memory stays bounded whatever the outbox holds. */
const SEAL_MAX_RECORDS = 50_000
const SEAL_MAX_BYTES = 16 * 1024 * 1024
const BATCHES_PER_ROUND = 64

export class OutboxDelivery {
  /**
   * Per partition, the last batch this producer sealed and has not sent: later seals may grow it
   * (seal.ts). Only batches sealed here: one left by an earlier producer may have been sent
   * before a crash or reload, and a batch stops growing before its first request is made.
   */
  private readonly growable = new Map<string, SealedBatch>()
  /** Acknowledged batches still being removed from the store (their events follow). */
  private readonly recording = new Set<Promise<void>>()

  constructor(private readonly options: DeliveryOptions) {}

  /** Resolves once every acknowledgement received so far is recorded and its event emitted. */
  async recorded(): Promise<void> {
    await Promise.allSettled([...this.recording])
  }

  /** Runs one round; resolves with whether anything was sealed or sent, rejects with a failure to back off on. */
  async round(signal: AbortSignal): Promise<boolean> {
    const waiting = await this.seal(signal)
    const batches = await this.options.store.batches(BATCHES_PER_ROUND)
    const byPartition = new Map<string, SealedBatch[]>()
    for (const batch of batches) {
      const key = sequenceKey(batch.topic, batch.partition)
      const list = byPartition.get(key)
      if (list === undefined) byPartition.set(key, [batch])
      else list.push(batch)
    }
    const results = await Promise.allSettled([...byPartition.values()].map((list) => this.sendInOrder(list, signal)))
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failure !== undefined) throw failure.reason
    // Records of a topic the mesh does not know (yet) wait; the caller backs off unless this round did other work.
    if (waiting !== undefined && batches.length === 0) throw waiting
    return batches.length > 0
  }

  /**
   * Seals what it can without the mesh, from the partition counts learned earlier (kept in the
   * store), as a Kafka producer partitions by its cached metadata: records queued while out of
   * reach are batched and numbered before the mesh is back, so the drain only sends. Returns
   * whether anything was sealed (call again while it does: a call takes a bounded chunk).
   */
  async sealFromKnownCounts(): Promise<boolean> {
    const records = await this.options.store.unsealed(SEAL_MAX_RECORDS, SEAL_MAX_BYTES)
    const topics = new Map<string, PartitionInfo[]>()
    for (const topic of new Set(records.map((r) => r.topic))) {
      const count = this.options.topicCounts.get(topic)
      if (count !== undefined && count > 0) topics.set(topic, cachedPartitions(count))
    }
    if (topics.size === 0) return false
    return (await this.commitSeal(records, topics, [])) > 0
  }

  /** Seals unsealed records of topics whose partitions are known; returns the error that keeps others waiting. */
  private async seal(signal: AbortSignal): Promise<Error | undefined> {
    const { store, target } = this.options
    const records = await store.unsealed(SEAL_MAX_RECORDS, SEAL_MAX_BYTES)
    if (records.length === 0) return undefined
    const topics = new Map<string, PartitionInfo[]>()
    const putTopics: Array<{ topic: string; partitions: number }> = []
    let waiting: Error | undefined
    for (const topic of new Set(records.map((r) => r.topic))) {
      try {
        const partitions = await target.partitions(topic, signal)
        topics.set(topic, partitions)
        if (this.options.topicCounts.get(topic) !== partitions.length) {
          putTopics.push({ topic, partitions: partitions.length })
        }
      } catch (err) {
        if (err instanceof UnknownTopicOrPartitionError) {
          waiting ??= err
          continue
        }
        // Out of reach: seal by the count learned earlier, if any; the sends then fail and back off.
        const count = this.options.topicCounts.get(topic)
        if (!(err instanceof Error && unreachable(err)) || count === undefined || count === 0) throw err
        topics.set(topic, cachedPartitions(count))
      }
    }
    await this.commitSeal(records, topics, putTopics)
    return waiting
  }

  /** Plans and commits the seal of `records` for the topics in `topics`; returns how many it took. */
  private async commitSeal(
    records: StoredRecord[],
    topics: Map<string, PartitionInfo[]>,
    putTopics: Array<{ topic: string; partitions: number }>,
  ): Promise<number> {
    const { store } = this.options
    const plan = planSeal({
      records,
      topics,
      sequences: this.options.sequences,
      growable: this.growable,
      partitioner: this.options.partitioner,
      maxBatchBytes: this.options.maxBatchBytes,
      maxBatchRecords: this.options.maxBatchRecords,
    })
    if (plan.batches.length === 0 && plan.rejected.length === 0 && putTopics.length === 0) return 0
    await store.commit({ ...plan.change, putTopics })
    for (const t of putTopics) this.options.topicCounts.set(t.topic, t.partitions)
    for (const s of plan.change.putSequences ?? []) this.options.sequences.set(sequenceKey(s.topic, s.partition), s)
    // In order, so each partition's last batch of this seal is the one kept.
    for (const batch of plan.batches) this.growable.set(sequenceKey(batch.topic, batch.partition), batch)
    for (const { record, reason } of plan.rejected) {
      this.options.onFailed(
        [record],
        record.topic,
        record.partition,
        new UnknownTopicOrPartitionError(`a record to ${record.topic} cannot be sent: ${reason}`),
      )
    }
    return plan.change.deleteRecordIds?.length ?? 0
  }

  /**
   * Sends a partition's batches one after another. Removing an acknowledged batch from the store
   * runs while the next request is out: a crash before that removal is committed only means the
   * batch is sent again and answered as a duplicate, like any batch acknowledged but not removed.
   */
  private async sendInOrder(batches: SealedBatch[], signal: AbortSignal): Promise<void> {
    const recordings: Array<Promise<void>> = []
    let failure: { error: unknown } | undefined
    try {
      for (const batch of batches) {
        signal.throwIfAborted()
        recordings.push((await this.send(batch, signal, recordings.at(-1) ?? Promise.resolve())).recorded)
      }
    } catch (error) {
      failure = { error }
    }
    // Every acknowledgement is recorded (or its failure known) before the round ends.
    const recorded = await Promise.allSettled(recordings)
    if (failure !== undefined) throw failure.error
    const notRecorded = recorded.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (notRecorded !== undefined) throw notRecorded.reason
  }

  /**
   * Sends one batch; resolves once it is acknowledged or failed, with the (maybe still running)
   * step recording it, whose event follows the previous batch's (`after`): events come in order.
   */
  private async send(
    batch: SealedBatch,
    signal: AbortSignal,
    after: Promise<void>,
  ): Promise<{ recorded: Promise<void> }> {
    const { store, target } = this.options
    // From its first request on, a leader may hold the batch: it never grows again.
    const key = sequenceKey(batch.topic, batch.partition)
    if (this.growable.get(key)?.id === batch.id) this.growable.delete(key)
    // At most one epoch change per batch and round: a leader refusing the new epoch's first batch too is not ours to fix.
    for (let attempt = 0; attempt < 2; attempt++) {
      const records = this.encode(batch)
      let result: ProduceResult
      try {
        this.options.onRequest?.(batch)
        const limit = AbortSignal.timeout(this.options.requestTimeoutMs + 5_000)
        result = await target.produce(
          {
            topic: batch.topic,
            partition: batch.partition,
            records,
            timeoutMs: this.options.requestTimeoutMs,
          },
          AbortSignal.any([signal, limit]),
        )
      } catch (err) {
        signal.throwIfAborted()
        // One batch per request: a leader answers its resend with the original offsets, and
        // DUPLICATE_SEQUENCE (some batches of a request were appended) cannot mean "refused" —
        // resending the same bytes is the safe reaction.
        if (err instanceof DuplicateSequenceError) throw err
        const sequenceRefused = err instanceof OutOfOrderSequenceError || err instanceof InvalidProducerEpochError
        if (sequenceRefused && attempt === 0) {
          // The leader refused this batch's sequence, so it did not append it: continue under a new epoch.
          await this.newEpoch(batch, batch.id)
          continue
        }
        // Only the leader's definite refusal fails a batch; anything else (a lost connection, a
        // closed client, a bug) leaves it queued, since dropping it would lose the records.
        const refused =
          sequenceRefused || (err instanceof TributaryError && !err.retriable && !(err instanceof ClientClosedError))
        if (!refused) throw err
        // Refused for good: the batch leaves the outbox, and the partition's next batches take a
        // new epoch (the leader's sequence stops before this batch, so theirs would be a gap).
        const next = this.bumped(batch, batch.id + 1)
        await store.commit({
          deleteBatchIds: [batch.id],
          released: { records: batch.records.length, bytes: batch.bytes },
          putSequences: [next],
        })
        this.options.sequences.set(sequenceKey(batch.topic, batch.partition), next)
        this.options.onFailed(batch.records, batch.topic, batch.partition, named(err, batch))
        return { recorded: Promise.resolve() }
      }
      const removed = store.commit({
        deleteBatchIds: [batch.id],
        released: { records: batch.records.length, bytes: batch.bytes },
      })
      // After the previous batch's event, whether or not its removal failed: this one's records are gone either way.
      const recording = Promise.all([removed, after.catch(() => {})]).then(() =>
        this.options.onDelivered(batch, result),
      )
      // Awaited by sendInOrder; kept from being reported unhandled while the next request runs.
      recording.catch(() => {})
      this.recording.add(recording)
      void recording.finally(() => this.recording.delete(recording)).catch(() => {})
      return { recorded: recording }
    }
    return { recorded: Promise.resolve() }
  }

  private encode(batch: SealedBatch): Uint8Array {
    return encodeRecordBatchSync({
      records: batch.records.map((r) => ({ key: r.key, value: r.value, headers: r.headers, timestamp: r.timestamp })),
      producerId: this.options.producerId,
      producerEpoch: this.epochOf(batch),
      baseSequence: batch.baseSequence,
    })
  }

  /** The epoch a batch is sent under (see PartitionSequence.epochFrom). */
  private epochOf(batch: SealedBatch): number {
    const state = this.options.sequences.get(sequenceKey(batch.topic, batch.partition))
    return state !== undefined && batch.id >= state.epochFrom ? state.producerEpoch : batch.producerEpoch
  }

  private bumped(batch: SealedBatch, from: number): PartitionSequence {
    const key = sequenceKey(batch.topic, batch.partition)
    const state = this.options.sequences.get(key) ?? {
      topic: batch.topic,
      partition: batch.partition,
      producerEpoch: batch.producerEpoch,
      epochFrom: 0,
      next: batch.baseSequence + batch.records.length,
    }
    return { ...state, producerEpoch: Math.max(state.producerEpoch, batch.producerEpoch) + 1, epochFrom: from }
  }

  private async newEpoch(batch: SealedBatch, from: number): Promise<void> {
    const next = this.bumped(batch, from)
    await this.options.store.commit({ putSequences: [next] })
    this.options.sequences.set(sequenceKey(batch.topic, batch.partition), next)
  }
}

function named(err: unknown, batch: SealedBatch): Error {
  const error = err instanceof Error ? err : new Error(String(err))
  const name = partitionName(batch.topic, batch.partition)
  if (!error.message.includes(name)) error.message = `${name}: ${error.message}`
  return error
}

/** A topic's partitions known only by count (leaders unknown): what the partitioner needs offline. */
function cachedPartitions(count: number): PartitionInfo[] {
  return Array.from({ length: count }, (_, partitionId) => ({ partitionId, leader: '' }))
}
