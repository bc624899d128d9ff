/**
 * The offline-first producer: records go to a durable outbox first and reach the mesh exactly
 * once, in order per partition, whenever it is reachable — now, after a reload, or days later.
 * Identity (producer id, per-partition epochs and sequences) lives in the outbox, so a fresh
 * producer on the same outbox continues where the last one stopped, and the leader dedups any
 * batch re-sent after a crash between send and acknowledgement.
 *
 * ```ts
 * const outbox = await Tributary.openOutbox({ bootstrap: [addr], outbox: { name: 'orders' } })
 * await outbox.enqueue({ topic: 'orders', messages: [{ key: 'u1', value: 'hello' }] }) // durable now
 * outbox.on('outbox.delivered', ({ payload }) => markDelivered(payload.baseOffset)) // your code
 * await outbox.send({ topic: 'orders', messages: [{ value: 'wait for the ack' }] })
 * await outbox.pending() // records not yet acknowledged
 * ```
 *
 * Delivery runs by itself (delivery-loop.ts): rounds (delivery.ts) until the outbox is empty,
 * then it sleeps until the next enqueue. A failed round backs off with jitter (KafkaJS's retry
 * settings); the browser's `online` event cuts a backoff short and its `offline` event stops a
 * round at once.
 */
import { RecordTooLargeError } from '@tributary/wire'
import type { ProduceResult } from '../broker.js'
import { ClientClosedError, InvalidArgumentError } from '../errors.js'
import { Instrumentation, type Listener, type RemoveListener } from '../instrumentation.js'
import { defaultPartitioner, type PartitionerFactory } from '../partitioners/index.js'
import { randomProducerId } from '../producer/idempotence.js'
import { normalizeMessage } from '../producer/messages.js'
import type { ProducerRecord, RecordMetadata } from '../producer/producer.js'
import { type RetryOptions, resolveRetryOptions } from '../retry.js'
import { OutboxDelivery } from './delivery.js'
import { DeliveryLoop } from './delivery-loop.js'
import { OUTBOX_EVENTS, type OutboxEvents } from './events.js'
import { IdbOutboxStore } from './idb-store.js'
import { type HeldLock, lockOutbox } from './lock.js'
import { sequenceKey } from './seal.js'
import { type SendWaiter, SendWaiters } from './send-waiters.js'
import type { OutboxStore, SealedBatch, StoredRecord } from './store.js'
import type { OutboxTarget } from './target.js'

export interface OutboxOptions {
  /** The outbox's name: its IndexedDB database is `tributary-outbox:<name>`. Default 'default'. */
  name?: string
  /** Where records are kept. Default: IndexedDB where there is one; elsewhere pass a store (MemoryOutboxStore). */
  store?: OutboxStore
  /** Most records the outbox holds before `enqueue` fails with OutboxFullError. Default 100,000. */
  maxRecords?: number
  /** Most bytes (estimated, encoded) it holds. Default 64 MiB. */
  maxBytes?: number
  /** Largest batch sent, bytes; a record that cannot fit one is refused at enqueue. Default 1 MiB. */
  batchSize?: number
  /** Records per batch at most. Default 10,000. */
  maxBatchRecords?: number
  /** Default Kafka's (murmur2 on keys, sticky for keyless), applied when records are sealed. */
  createPartitioner?: PartitionerFactory
  /** How long the leader may wait for acks=all, ms. Default 30,000. */
  timeout?: number
  /** Backoff between failed rounds (`retries` is ignored: an outbox never gives up). */
  retry?: RetryOptions
  /** Aborts opening (which also gives up by itself after 30 s, e.g. blocked by another tab). */
  signal?: AbortSignal
}

/** What `enqueue` and `send` take: a topic and its messages (acks are always 'all'). */
export type OutboxRecord = Pick<ProducerRecord, 'topic' | 'messages' | 'signal'>

export interface EnqueueResult {
  /** The records' ids in the outbox, in order; delivery events name them. */
  recordIds: number[]
}

const DEFAULTS = {
  name: 'default',
  maxRecords: 100_000,
  maxBytes: 64 * 1024 * 1024,
  batchSize: 1024 * 1024,
  maxBatchRecords: 10_000,
  timeout: 30_000,
}

/** How long opening the store may take. */
const OPEN_TIMEOUT_MS = 30_000
/** A RecordBatch v2 header. */
const BATCH_OVERHEAD = 61

export class OutboxProducer {
  private readonly instrumentation = new Instrumentation<OutboxEvents>(OUTBOX_EVENTS)
  private readonly lifetime = new AbortController()
  private readonly waiters = new SendWaiters()
  private readonly progress = new Set<() => void>()
  private online: boolean | undefined
  private readonly loop: DeliveryLoop
  private closing: Promise<void> | undefined

  private constructor(
    private readonly store: OutboxStore,
    private readonly target: OutboxTarget,
    private readonly lock: HeldLock,
    private readonly delivery: OutboxDelivery,
    private readonly limits: { maxRecords: number; maxBytes: number; maxBatchBytes: number },
    retry: Required<RetryOptions>,
    private readonly onClose: (() => void) | undefined,
  ) {
    this.loop = new DeliveryLoop({
      delivery,
      retry,
      lifetime: this.lifetime.signal,
      offline: (error) => this.setOnline(false, error),
      retrying: (error, delayMs) => this.instrumentation.emit('outbox.retry', () => ({ error, delayMs })),
    })
  }

  /**
   * Opens the outbox (creating it on first use) and starts delivering to `target`, which the
   * producer closes with itself. Use `Tributary.openOutbox` or `mesh.outbox` rather than this.
   */
  static async open(target: OutboxTarget, options: OutboxOptions = {}, onClose?: () => void): Promise<OutboxProducer> {
    if (typeof options !== 'object' || options === null)
      throw new InvalidArgumentError('outbox options must be an object')
    const name = options.name ?? DEFAULTS.name
    if (typeof name !== 'string' || name.length === 0)
      throw new InvalidArgumentError('outbox name must be a non-empty string')
    const maxRecords = positive(options.maxRecords ?? DEFAULTS.maxRecords, 'maxRecords')
    const maxBytes = positive(options.maxBytes ?? DEFAULTS.maxBytes, 'maxBytes')
    const batchSize = positive(options.batchSize ?? DEFAULTS.batchSize, 'batchSize')
    const maxBatchRecords = positive(options.maxBatchRecords ?? DEFAULTS.maxBatchRecords, 'maxBatchRecords')
    const timeout = positive(options.timeout ?? DEFAULTS.timeout, 'timeout')
    const retry = resolveRetryOptions(options.retry)
    const createPartitioner = options.createPartitioner ?? ((context) => defaultPartitioner(context))
    if (typeof createPartitioner !== 'function') throw new InvalidArgumentError('createPartitioner must be a function')
    const store = options.store ?? defaultStore(name)
    const lock = await lockOutbox(store.name)
    try {
      // Opening can be blocked (another tab upgrading the database): bounded, and abortable.
      const limit = AbortSignal.timeout(OPEN_TIMEOUT_MS)
      const snapshot = await store.open(
        randomProducerId,
        options.signal === undefined ? limit : AbortSignal.any([limit, options.signal]),
      )
      const delivery = new OutboxDelivery({
        store,
        target,
        producerId: snapshot.meta.producerId,
        sequences: new Map(snapshot.sequences.map((s) => [sequenceKey(s.topic, s.partition), s])),
        topicCounts: new Map(snapshot.topics.map((t) => [t.topic, t.partitions])),
        partitioner: createPartitioner({ batchSize }),
        maxBatchBytes: batchSize,
        maxBatchRecords,
        requestTimeoutMs: timeout,
        onDelivered: (batch, result) => producer.delivered(batch, result),
        onFailed: (records, topic, partition, error) => producer.failed(records, topic, partition, error),
        onRequest: (batch) => producer.requested(batch),
      })
      const producer: OutboxProducer = new OutboxProducer(
        store,
        target,
        lock,
        delivery,
        { maxRecords, maxBytes, maxBatchBytes: batchSize },
        retry,
        onClose,
      )
      producer.loop.start()
      return producer
    } catch (err) {
      store.close()
      await lock.release()
      await target.close().catch(() => {})
      throw err
    }
  }

  /** Resolves once the records are durably in the outbox (before any delivery). */
  async enqueue(record: OutboxRecord): Promise<EnqueueResult> {
    return { recordIds: await this.append(record, undefined) }
  }

  /** Queues the records and resolves once all are acknowledged (acks=all), like `Producer.send`. */
  async send(record: OutboxRecord): Promise<RecordMetadata[]> {
    const { waiter, done } = this.waiters.create()
    const signal = record?.signal
    const onAbort = (): void => this.waiters.drop(waiter, signal!.reason)
    try {
      await this.append(record, waiter)
    } catch (err) {
      this.waiters.drop(waiter, err)
      throw err
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      return await done
    } finally {
      signal?.removeEventListener('abort', onAbort)
    }
  }

  /** How many records the outbox holds (queued and not yet acknowledged or failed). */
  async pending(): Promise<number> {
    return (await this.store.meta()).records
  }

  /** True once the mesh answered, false after it could not be reached; undefined before either. */
  get isOnline(): boolean | undefined {
    return this.online
  }

  /** Waits until the outbox is empty. Rejects with the signal's reason, or a TimeoutError after `timeout` ms (default 60,000). */
  async flush(options: { signal?: AbortSignal; timeout?: number } = {}): Promise<void> {
    const limit = AbortSignal.timeout(positive(options.timeout ?? 60_000, 'timeout'))
    const signal = AbortSignal.any([limit, this.lifetime.signal, ...(options.signal ? [options.signal] : [])])
    for (;;) {
      signal.throwIfAborted()
      let notify: () => void = () => {}
      const next = new Promise<void>((resolve) => {
        notify = resolve
      })
      this.progress.add(notify)
      try {
        if ((await this.pending()) === 0) {
          // The last batches' removal is committed; their events may still be on their way.
          await this.delivery.recorded()
          return
        }
        await new Promise<void>((resolve, reject) => {
          const onAbort = (): void => reject(signal.reason)
          signal.addEventListener('abort', onAbort, { once: true })
          void next.then(() => {
            signal.removeEventListener('abort', onAbort)
            resolve()
          })
        })
      } finally {
        this.progress.delete(notify)
      }
    }
  }

  on<E extends keyof OutboxEvents & string>(event: E, listener: Listener<OutboxEvents[E]>): RemoveListener {
    return this.instrumentation.on(event, listener)
  }

  /**
   * Stops delivering (a request in flight is abandoned; its batch stays queued and is re-sent,
   * deduplicated, by the next producer on this outbox) and closes the outbox. Pending `send`s
   * reject with ClientClosedError; their records stay queued. Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const reason = new ClientClosedError('the outbox producer is closed; its records stay queued in the outbox')
      this.lifetime.abort(reason)
      await this.loop.stop(reason)
      this.waiters.dropAll(reason)
      for (const notify of this.progress) notify()
      await this.target.close().catch(() => {})
      this.store.close()
      await this.lock.release()
      this.onClose?.()
    })()
    return this.closing
  }

  /** `close`, under the name the other clients use (a Tributary disconnects its children with it). */
  disconnect(): Promise<void> {
    return this.close()
  }

  private async append(record: OutboxRecord, waiter: SendWaiter | undefined): Promise<number[]> {
    if (this.closing !== undefined) throw new ClientClosedError('the outbox producer is closed; open a new one')
    if (typeof record !== 'object' || record === null)
      throw new InvalidArgumentError('enqueue takes { topic, messages }')
    const { topic, messages, signal } = record
    if (typeof topic !== 'string' || topic.length === 0) {
      throw new InvalidArgumentError(`topic must be a non-empty string, got ${String(topic)}`)
    }
    if (!Array.isArray(messages) || messages.length === 0) {
      throw new InvalidArgumentError(`messages for ${topic} must be a non-empty array`)
    }
    const now = Date.now()
    const records = messages.map((m, i) => {
      const n = normalizeMessage(m, i, topic)
      if (n.size + BATCH_OVERHEAD > this.limits.maxBatchBytes) {
        throw new RecordTooLargeError(
          `message ${i} to ${topic} takes up to ${n.size + BATCH_OVERHEAD} bytes in a batch, more than the outbox's batchSize of ${this.limits.maxBatchBytes}; nothing was queued`,
        )
      }
      // Copies, not views: a store keeps what it is given whole (IndexedDB clones a view with its
      // entire underlying buffer — a pooled Node Buffer or a slice of a big one), and the caller may
      // reuse its buffers once enqueue returns.
      return {
        topic,
        partition: n.partition ?? null,
        key: ownBytes(n.key),
        value: ownBytes(n.value),
        headers: n.headers.map((h) => ({ key: h.key, value: ownBytes(h.value) })),
        timestamp: n.timestamp ?? now,
        size: n.size,
      }
    })
    signal?.throwIfAborted()
    const ids = await this.store.append(records, this.limits, (ids) => {
      if (waiter !== undefined) this.waiters.register(waiter, topic, ids)
    })
    this.instrumentation.emit('outbox.enqueued', () => ({ topic, recordIds: ids }))
    this.loop.recordsQueued()
    return ids
  }

  private setOnline(online: boolean, error?: Error): void {
    if (this.online === online) return
    this.online = online
    if (online) this.instrumentation.emit('outbox.online', () => ({}))
    else this.instrumentation.emit('outbox.offline', () => ({ error }))
  }

  private delivered(batch: SealedBatch, result: ProduceResult): void {
    this.setOnline(true)
    this.instrumentation.emit('outbox.delivered', () => ({
      topic: batch.topic,
      partition: batch.partition,
      baseOffset: String(result.baseOffset),
      recordIds: batch.records.map((r) => r.id),
    }))
    this.waiters.delivered(batch, result)
    for (const notify of this.progress) notify()
  }

  private failed(records: StoredRecord[], topic: string, partition: number | null, error: Error): void {
    this.setOnline(true)
    this.instrumentation.emit('outbox.failed', () => ({ topic, partition, recordIds: records.map((r) => r.id), error }))
    this.waiters.failed(records, error)
    for (const notify of this.progress) notify()
  }

  private requested(batch: SealedBatch): void {
    this.instrumentation.emit('outbox.request', () => ({
      topic: batch.topic,
      partition: batch.partition,
      records: batch.records.length,
      baseSequence: batch.baseSequence,
    }))
  }
}

function defaultStore(name: string): OutboxStore {
  if (typeof indexedDB === 'undefined') {
    throw new InvalidArgumentError(
      'there is no IndexedDB here to keep the outbox in; pass { store } (e.g. new MemoryOutboxStore(), which keeps records only as long as the process)',
    )
  }
  return new IdbOutboxStore(name)
}

function positive(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(`${name} must be a positive integer, got ${String(value)}`)
  }
  return value
}

/** The bytes in an array of their own (the exact length), or null. */
function ownBytes(bytes: Uint8Array | null): Uint8Array | null {
  return bytes === null ? null : new Uint8Array(bytes)
}
