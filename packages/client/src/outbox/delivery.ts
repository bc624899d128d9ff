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
import { OFFSETS_UNKNOWN, type ProduceResult } from '../broker.js'
import { ClientClosedError, partitionName } from '../errors.js'
import type { Partitioner } from '../partitioners/index.js'
import { untilAborted } from '../retry.js'
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
/** Requests out at once per partition: fewer than the 5 batches a leader remembers per producer (see sendInOrder). */
const PIPELINE_WINDOW = 3
/**
 * The batches a leader retains per producer and partition (packages/log's
 * RETAINED_BATCHES_PER_PRODUCER, as Kafka's): a resend of one of them is answered with its offsets.
 */
const LEADER_RETAINED_BATCHES = 5

type Answer = { result: ProduceResult } | { error: unknown }

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
   * Sends a partition's batches in order, up to PIPELINE_WINDOW requests out at once (as a Kafka
   * idempotent producer keeps up to 5 in flight): one at a time, each request would wait for the
   * last one's acks=all round trip. Answers are taken in order. The first batch that is not
   * acknowledged ends the pipeline: the answers of those sent behind it are dropped, and its own
   * is handled as a lone batch's (`send`: a refusal fails it or moves the partition to a new
   * epoch, a failure to reach the leader ends the round); then the pipeline continues from the
   * batch after it. Dropping answers is safe: a batch sent behind one the leader did not take was
   * not taken either (a sequence gap, as the leader knows our sequence by then — see
   * `established`), and one it did take is answered as a duplicate when resent: the leader
   * remembers a producer's last 5 batches, more than the window.
   *
   * Removing an acknowledged batch from the store runs while later requests are out: a crash
   * before that removal is committed means a resend answered as a duplicate, as for any batch
   * acknowledged but not yet removed. So that the leader still retains every batch such a resend
   * can repeat, requests out plus acknowledgements not yet recorded stay within the
   * LEADER_RETAINED_BATCHES it remembers: a store slower than the leader holds the next request
   * back. (A batch found appended before the retained ones is taken as delivered anyway: `send`.)
   */
  private async sendInOrder(batches: SealedBatch[], signal: AbortSignal): Promise<void> {
    const recordings: Array<Promise<void>> = []
    const after = (): Promise<void> => recordings.at(-1) ?? Promise.resolve()
    /** Recordings still running, settled either way. */
    const unrecorded = new Set<Promise<void>>()
    const track = (recording: Promise<void>): void => {
      recordings.push(recording)
      const settled = recording.then(
        () => {},
        () => {},
      )
      unrecorded.add(settled)
      void settled.then(() => unrecorded.delete(settled))
    }
    let failure: { error: unknown } | undefined
    try {
      const window: Array<{ batch: SealedBatch; answer: Promise<Answer>; pipelined: boolean }> = []
      let next = 0
      // Pipelined only once the leader acknowledged a batch of ours under the current epoch: it
      // then knows our sequence, and refuses a batch sent behind one it did not take (a gap). A
      // leader that does not know the producer (its first batch, a new epoch) takes any sequence,
      // so a batch behind a refused one could be appended ahead of it.
      let established = false
      // Bounded: every pass settles the head batch or handles it alone and moves past it, so a
      // batch is requested at most once per failure of the PIPELINE_WINDOW − 1 before it, plus
      // twice alone; a pass that sends nothing waits for a recording, of which there are finitely many.
      while (next < batches.length || window.length > 0) {
        while (next < batches.length && window.length < (established ? PIPELINE_WINDOW : 1)) {
          signal.throwIfAborted()
          const batch = batches[next]!
          if (this.sentUnderEarlierEpoch(batch)) {
            // Acknowledged before a crash or reload (see sentUnderEarlierEpoch): never sent again.
            next++
            track(this.recordDelivered(batch, OFFSETS_UNKNOWN, after()))
            continue
          }
          if (window.length + unrecorded.size >= LEADER_RETAINED_BATCHES) {
            // The head's answer comes first; with nothing out, wait for the store to catch up.
            if (window.length > 0) break
            await untilAborted(Promise.race(unrecorded), signal)
            continue
          }
          next++
          window.push({ batch, answer: this.request(batch, signal), pipelined: window.length > 0 })
        }
        if (window.length === 0) continue
        const head = window.shift()!
        const answer = acknowledgedIfAppended(await head.answer)
        if ('result' in answer) {
          track(this.recordDelivered(head.batch, answer.result, after()))
          established = true
          continue
        }
        // Not acknowledged: the batches behind it are sent again after it, whatever their answers.
        await Promise.allSettled(window.map((w) => w.answer))
        next = batches.indexOf(head.batch) + 1
        window.length = 0
        signal.throwIfAborted()
        // Every batch before it was acknowledged, so its answer stands — unless it refused the
        // sequence of a batch sent while one before it was unanswered: a leader that took them
        // out of order says nothing about this batch. Then it is asked again, alone.
        const outOfOrder = head.pipelined && isSequenceRefusal(answer.error)
        const sent = await this.send(head.batch, signal, after(), outOfOrder ? undefined : answer)
        track(sent.recorded)
        established = sent.delivered
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

  /** One produce request for the batch; its answer or its failure, never a rejection. */
  private async request(batch: SealedBatch, signal: AbortSignal): Promise<Answer> {
    // From its first request on, a leader may hold the batch: it never grows again.
    const key = sequenceKey(batch.topic, batch.partition)
    if (this.growable.get(key)?.id === batch.id) this.growable.delete(key)
    try {
      const records = this.encode(batch)
      this.options.onRequest?.(batch)
      const limit = AbortSignal.timeout(this.options.requestTimeoutMs + 5_000)
      const result = await this.options.target.produce(
        { topic: batch.topic, partition: batch.partition, records, timeoutMs: this.options.requestTimeoutMs },
        AbortSignal.any([signal, limit]),
      )
      return { result }
    } catch (error) {
      return { error }
    }
  }

  /**
   * Sends one batch alone, telling the leader's refusal (new epoch, or the batch fails) from a
   * failure to reach it (thrown: the round ends). Resolves, once it is acknowledged or failed,
   * with the (maybe still running) step recording it.
   */
  private async send(
    batch: SealedBatch,
    signal: AbortSignal,
    after: Promise<void>,
    firstAnswer?: Answer,
  ): Promise<{ recorded: Promise<void>; delivered: boolean }> {
    const { store } = this.options
    // At most one epoch change per batch and round: a leader refusing the new epoch's first batch too is not ours to fix.
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = acknowledgedIfAppended(
        attempt === 0 && firstAnswer !== undefined ? firstAnswer : await this.request(batch, signal),
      )
      if ('result' in answer) return { recorded: this.recordDelivered(batch, answer.result, after), delivered: true }
      const err = answer.error
      signal.throwIfAborted()
      const sequenceRefused = isSequenceRefusal(err)
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
      await after.catch(() => {})
      this.options.onFailed(batch.records, batch.topic, batch.partition, named(err, batch))
      return { recorded: Promise.resolve(), delivered: false }
    }
    return { recorded: Promise.resolve(), delivered: false }
  }

  /**
   * Removes an acknowledged batch from the store, then emits its event after the previous
   * batch's (`after`, settled either way: this one's records are gone regardless), so events
   * come in order. The returned step is awaited by sendInOrder.
   */
  private recordDelivered(batch: SealedBatch, result: ProduceResult, after: Promise<void>): Promise<void> {
    const removed = this.options.store.commit({
      deleteBatchIds: [batch.id],
      released: { records: batch.records.length, bytes: batch.bytes },
    })
    const recording = Promise.all([removed, after.catch(() => {})]).then(() => this.options.onDelivered(batch, result))
    // Kept from being reported unhandled while later requests run.
    recording.catch(() => {})
    this.recording.add(recording)
    void recording.finally(() => this.recording.delete(recording)).catch(() => {})
    return recording
  }

  private encode(batch: SealedBatch): Uint8Array {
    return encodeRecordBatchSync({
      records: batch.records.map((r) => ({ key: r.key, value: r.value, headers: r.headers, timestamp: r.timestamp })),
      producerId: this.options.producerId,
      producerEpoch: this.epochOf(batch),
      baseSequence: batch.baseSequence,
    })
  }

  /**
   * Whether the partition moved to a new epoch after this batch: it does so at the first batch
   * not acknowledged, once every batch before it was acknowledged or failed (and failed ones
   * leave the store), so one still stored is an acknowledgement not recorded before a crash or
   * reload. Sent again under its old epoch it would be refused as fenced, and taken for a lost
   * producer state.
   */
  private sentUnderEarlierEpoch(batch: SealedBatch): boolean {
    const state = this.options.sequences.get(sequenceKey(batch.topic, batch.partition))
    return state !== undefined && batch.id < state.epochFrom
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

/**
 * The answer, with DUPLICATE_SEQUENCE taken as an acknowledgement. One batch per request, so it
 * says this batch was appended before, earlier than the batches the leader retains (an
 * acknowledgement not recorded before a crash or reload, with more behind it): delivered, its
 * offsets unknown — as Kafka's producers take it.
 */
function acknowledgedIfAppended(answer: Answer): Answer {
  return 'error' in answer && answer.error instanceof DuplicateSequenceError ? { result: OFFSETS_UNKNOWN } : answer
}

function isSequenceRefusal(err: unknown): boolean {
  return err instanceof OutOfOrderSequenceError || err instanceof InvalidProducerEpochError
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
