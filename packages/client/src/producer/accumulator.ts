/**
 * The record accumulator (Kafka's RecordAccumulator): records wait per partition in batches. A
 * batch closes when it reaches `batchSize` bytes or when its records cannot share it (another
 * acks, compression or timeout); it becomes sendable when closed, when `lingerMs` has passed
 * since its first record, or on flush. Records appended in one synchronous stretch (one `send`)
 * always share a batch when they fit, even with `lingerMs` 0. Memory is bounded: a send waits
 * for room once `maxBufferedBytes` of records are queued or in flight.
 *
 * Appending is the producer's per-record hot path, so it allocates nothing per record: a batch
 * holds the normalized records themselves (they are what the encoder reads), consecutive appends
 * to one partition find its queue without building a key, and a queue already marked ready is
 * not marked again.
 */
import type { CompressionName } from '@tributary/wire'
import type { Acks } from '../broker.js'
import type { SequenceAssignment } from './idempotence.js'
import type { NormalizedRecord } from './messages.js'

export interface BatchSpec {
  acks: Acks
  compression: CompressionName
  timeoutMs: number
}

export interface BatchResult {
  /** Offset of the record at `index` of the batch (-1 when unknown, with acks=0). */
  offsetOf(index: number): number
  logAppendTime: number
  logStartOffset: number
}

/** A batch's fixed header (RecordBatch v2). */
const BATCH_OVERHEAD = 61

export class ProducerBatch {
  /** The records as normalized (each a RecordInput for the encoder, with its estimated size). */
  readonly records: NormalizedRecord[] = []
  /** Estimated encoded size (header + records). */
  bytes = BATCH_OVERHEAD
  /** Sum of the records' sizes: what the batch holds of the buffer budget. */
  recordBytes = 0
  closed = false
  readonly promise: Promise<BatchResult>
  resolve!: (result: BatchResult) => void
  reject!: (err: unknown) => void
  /** Set when first sent; resends use these very bytes (and so the same sequence). */
  encoded: Uint8Array | undefined
  sequence: SequenceAssignment | undefined
  attempts = 0

  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly spec: BatchSpec,
    readonly createdAt: number,
  ) {
    this.promise = new Promise<BatchResult>((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
    // Every caller awaits its batch; this only keeps a batch nobody awaits (all its sends gone) from
    // reporting an unhandled rejection.
    this.promise.catch(() => {})
  }

  compatible(spec: BatchSpec): boolean {
    return (
      this.spec.acks === spec.acks &&
      this.spec.compression === spec.compression &&
      this.spec.timeoutMs === spec.timeoutMs
    )
  }

  /** Adds a record; it is at index `records.length - 1`. */
  add(record: NormalizedRecord): void {
    this.records.push(record)
    this.bytes += record.size
    this.recordBytes += record.size
  }

  /** Two unsent batches holding records [0, at) and [at, n) (the leader refused this one as too large). */
  splitInTwo(at: number): [ProducerBatch, ProducerBatch] {
    const halves: [ProducerBatch, ProducerBatch] = [
      new ProducerBatch(this.topic, this.partition, this.spec, this.createdAt),
      new ProducerBatch(this.topic, this.partition, this.spec, this.createdAt),
    ]
    for (let i = 0; i < this.records.length; i++) halves[i < at ? 0 : 1].add(this.records[i]!)
    return halves
  }
}

export interface AccumulatorOptions {
  batchSize: number
  lingerMs: number
  maxBufferedBytes: number
  /** Called (from a microtask or timer) when a partition may have a sendable batch. */
  onReady: (topic: string, partition: number) => void
  now?: () => number
}

interface Queue {
  topic: string
  partition: number
  batches: ProducerBatch[]
  timer: ReturnType<typeof setTimeout> | undefined
  /** In `pendingReady` already (onReady will be called for it). */
  readyPending: boolean
}

export class RecordAccumulator {
  private readonly queues = new Map<string, Queue>()
  /** The queue of the last append: a send's records mostly go to one partition in a row. */
  private lastQueue: Queue | undefined
  private readonly pendingReady: Queue[] = []
  private readyScheduled = false
  private buffered = 0
  private readonly roomWaiters: Array<{ bytes: number; resolve: () => void; reject: (err: unknown) => void }> = []
  private flushing = 0
  private readonly now: () => number

  constructor(private readonly options: AccumulatorOptions) {
    this.now = options.now ?? Date.now
  }

  /** Bytes of records queued or in flight. */
  get bufferedBytes(): number {
    return this.buffered
  }

  /** Waits until `bytes` more fit in the budget (a send larger than the whole budget waits for an empty buffer). */
  async reserve(bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.fits(bytes) && this.roomWaiters.length === 0) {
      this.buffered += bytes
      return
    }
    signal?.throwIfAborted()
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        bytes,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
        reject,
      }
      const onAbort = (): void => {
        const i = this.roomWaiters.indexOf(waiter)
        if (i !== -1) this.roomWaiters.splice(i, 1)
        reject(signal!.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.roomWaiters.push(waiter)
    })
  }

  private fits(bytes: number): boolean {
    return this.buffered === 0 || this.buffered + bytes <= this.options.maxBufferedBytes
  }

  /** Returns budget (a batch completed, or a send gave up before appending). */
  release(bytes: number): void {
    this.buffered = Math.max(0, this.buffered - bytes)
    while (this.roomWaiters.length > 0 && this.fits(this.roomWaiters[0]!.bytes)) {
      const waiter = this.roomWaiters.shift()!
      this.buffered += waiter.bytes
      waiter.resolve()
    }
  }

  /** Fails every send waiting for room (the producer is closing). */
  rejectWaiters(err: unknown): void {
    for (const waiter of this.roomWaiters.splice(0)) waiter.reject(err)
  }

  private queue(topic: string, partition: number): Queue {
    const last = this.lastQueue
    if (last !== undefined && last.partition === partition && last.topic === topic) return last
    const key = `${topic}\u0000${partition}`
    let queue = this.queues.get(key)
    if (queue === undefined) {
      queue = { topic, partition, batches: [], timer: undefined, readyPending: false }
      this.queues.set(key, queue)
    }
    this.lastQueue = queue
    return queue
  }

  /** Appends a record to its partition's open batch (or a new one); the record is that batch's last. */
  append(topic: string, partition: number, record: NormalizedRecord, spec: BatchSpec): ProducerBatch {
    const queue = this.queue(topic, partition)
    let batch = queue.batches.at(-1)
    if (
      batch === undefined ||
      batch.closed ||
      !batch.compatible(spec) ||
      (batch.records.length > 0 && batch.bytes + record.size > this.options.batchSize)
    ) {
      if (batch !== undefined) batch.closed = true
      batch = new ProducerBatch(topic, partition, spec, this.now())
      queue.batches.push(batch)
    }
    batch.add(record)
    if (batch.bytes >= this.options.batchSize) batch.closed = true
    this.schedule(queue, batch)
    return batch
  }

  /** Puts batches back at the head of their partition's queue, in order (a batch split in two). */
  requeueFirst(batches: ProducerBatch[]): void {
    const first = batches[0]
    if (first === undefined) return
    const queue = this.queue(first.topic, first.partition)
    for (const batch of batches) batch.closed = true
    queue.batches.unshift(...batches)
    this.markReady(queue)
  }

  private schedule(queue: Queue, batch: ProducerBatch): void {
    if (batch.closed || this.options.lingerMs <= 0 || this.flushing > 0) {
      this.markReady(queue)
      return
    }
    if (queue.timer === undefined) {
      const due = Math.max(0, batch.createdAt + this.options.lingerMs - this.now())
      queue.timer = setTimeout(() => {
        queue.timer = undefined
        this.markReady(queue)
      }, due)
    }
  }

  /** Notifies once per partition per microtask, after the current synchronous appends. */
  private markReady(queue: Queue): void {
    if (queue.readyPending) return
    queue.readyPending = true
    this.pendingReady.push(queue)
    if (this.readyScheduled) return
    this.readyScheduled = true
    queueMicrotask(() => {
      this.readyScheduled = false
      const ready = this.pendingReady.splice(0)
      for (const q of ready) q.readyPending = false
      for (const q of ready) this.options.onReady(q.topic, q.partition)
    })
  }

  /** Takes the partition's next sendable batch, if any. */
  next(topic: string, partition: number): ProducerBatch | undefined {
    const queue = this.queues.get(`${topic}\u0000${partition}`)
    const head = queue?.batches[0]
    if (queue === undefined || head === undefined) return undefined
    const lingered = this.now() - head.createdAt >= this.options.lingerMs
    if (!head.closed && !lingered && this.flushing === 0) {
      this.schedule(queue, head)
      return undefined
    }
    head.closed = true
    queue.batches.shift()
    if (queue.batches.length === 0) {
      if (queue.timer !== undefined) clearTimeout(queue.timer)
      queue.timer = undefined
      this.queues.delete(`${topic}\u0000${partition}`)
      if (this.lastQueue === queue) this.lastQueue = undefined
    }
    return head
  }

  /** Makes every queued batch sendable now; call `endFlush` when done waiting. */
  beginFlush(): void {
    this.flushing++
    for (const queue of this.queues.values()) this.markReady(queue)
  }

  endFlush(): void {
    this.flushing = Math.max(0, this.flushing - 1)
  }

  /** Every batch still queued (not yet taken by the sender). */
  queuedBatches(): ProducerBatch[] {
    return [...this.queues.values()].flatMap((q) => q.batches)
  }

  /** Fails every queued batch and forgets it (the producer is closing without flushing). */
  abort(err: unknown): void {
    for (const queue of this.queues.values()) {
      if (queue.timer !== undefined) clearTimeout(queue.timer)
      for (const batch of queue.batches) {
        this.release(batch.recordBytes)
        batch.reject(err)
      }
    }
    this.queues.clear()
    this.lastQueue = undefined
  }
}
