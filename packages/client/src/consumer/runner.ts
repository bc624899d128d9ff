/**
 * Hands fetched data to the application: `eachMessage` per record or `eachBatch` per fetched
 * chunk, in offset order within a partition, with up to `partitionsConsumedConcurrently`
 * partitions at once. The position moves past a record only once its handler returned (or, for
 * eachBatch, once `resolveOffset` named it, or the whole batch with eachBatchAutoResolve). A
 * throwing handler is retried from the record it failed on, with backoff, and after the retry
 * budget the consumer stops with NumberOfRetriesExceededError.
 */
import { NumberOfRetriesExceededError } from '../errors.js'
import type { Instrumentation } from '../instrumentation.js'
import { isRetriable, type ResolvedRetryOptions, randomizedRetryTime } from '../retry.js'
import { FetchedBatches, type KafkaMessage } from './decode.js'
import type { BatchProcessPayload, ConsumerEvents } from './events.js'
import type { PartitionState } from './partition-state.js'

export interface EachMessagePayload {
  topic: string
  partition: number
  message: KafkaMessage
  /** Pauses this partition (no further messages of it until resumed); returns the resume function. */
  pause(): () => void
}

export interface Batch {
  topic: string
  partition: number
  highWatermark: string
  messages: KafkaMessage[]
  isEmpty(): boolean
  firstOffset(): string | null
  lastOffset(): string
  /** high watermark − 1 − last offset: records after this batch. */
  offsetLag(): string
  /** high watermark − 1 − first offset. */
  offsetLagLow(): string
}

export interface EachBatchPayload {
  batch: Batch
  /** Marks a record (and those before it) processed: the position moves past it. */
  resolveOffset(offset: string | number): void
  /** False once the consumer is stopping, or this batch was superseded by a seek. */
  isRunning(): boolean
  /** True when a seek (or unassignment) made this batch's remaining records obsolete. */
  isStale(): boolean
  pause(): () => void
}

export interface RunHandlers {
  eachMessage?: ((payload: EachMessagePayload) => Promise<void>) | undefined
  eachBatch?: ((payload: EachBatchPayload) => Promise<void>) | undefined
  eachBatchAutoResolve: boolean
}

export interface RunnerOptions {
  handlers: RunHandlers
  concurrency: number
  retry: ResolvedRetryOptions
  instrumentation: Instrumentation<ConsumerEvents>
  pause: (state: PartitionState) => () => void
  /** A partition's data was handled (or dropped): it may be fetched again. */
  onProcessed: (state: PartitionState) => void
  /** A handler is about to be called: the application is making progress (Kafka's poll). */
  onProgress: () => void
  onFatal: (err: Error) => void
  signal: AbortSignal
}

export class Runner {
  private readonly queue: PartitionState[] = []
  private waiting: (() => void) | undefined
  private handlersRunning = 0

  /** A user handler is running now (the group's max poll interval runs meanwhile). */
  get handlerRunning(): boolean {
    return this.handlersRunning > 0
  }

  constructor(private readonly options: RunnerOptions) {}

  /** Queues a partition whose `buffered` data is ready. */
  enqueue(state: PartitionState): void {
    this.queue.push(state)
    const wake = this.waiting
    this.waiting = undefined
    wake?.()
  }

  /** Runs the workers until the signal aborts; resolves once every handler in progress returned. */
  async run(): Promise<void> {
    await Promise.all(Array.from({ length: this.options.concurrency }, () => this.work()))
  }

  private async work(): Promise<void> {
    const { signal } = this.options
    while (!signal.aborted) {
      const state = this.queue.shift()
      if (state === undefined) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            signal.removeEventListener('abort', done)
            resolve()
          }
          const previous = this.waiting
          this.waiting = () => {
            previous?.()
            done()
          }
          signal.addEventListener('abort', done, { once: true })
        })
        continue
      }
      await this.process(state)
    }
  }

  private async process(state: PartitionState): Promise<void> {
    const chunk = state.buffered
    state.buffered = undefined
    if (chunk === undefined || state.removed || state.paused || state.position !== chunk.fetchOffset) {
      this.options.onProcessed(state)
      return
    }
    state.processing = true
    const generation = state.generation
    const live = (): boolean => !this.options.signal.aborted && state.generation === generation && !state.removed
    try {
      const eachBatch = this.options.handlers.eachBatch
      // eachBatch over uncompressed data gets a lazy batch: its records are decoded if the handler reads them.
      let fetched: FetchedBatches
      let messages: KafkaMessage[] | undefined
      let first: number | undefined
      try {
        fetched = FetchedBatches.index(chunk.records, chunk.fetchOffset)
        if (eachBatch === undefined || fetched.compressed) messages = await fetched.decode()
        else {
          first = fetched.firstOffset()
          if (first === undefined) messages = []
        }
      } catch (err) {
        this.failed(state, err, false)
        return
      }
      if (messages?.length === 0) {
        if (live()) state.position = fetched.nextOffset
        return
      }
      const hw = chunk.highWatermark
      const records = new BatchRecords(fetched, messages, first)
      try {
        if (eachBatch !== undefined) await this.eachBatch(state, records, hw, live)
        else await this.eachMessage(state, records.messages, fetched.nextOffset, live)
        state.handlerFailures = 0
      } catch (err) {
        // Data that fails to decode under the handler is the fetch's failure, not the handler's.
        if (live()) this.failed(state, records.decodeError ?? err, records.decodeError === undefined)
      }
    } finally {
      state.processing = false
      this.options.onProcessed(state)
    }
  }

  private async eachMessage(
    state: PartitionState,
    messages: KafkaMessage[],
    nextOffset: number,
    live: () => boolean,
  ): Promise<void> {
    const handler = this.options.handlers.eachMessage!
    const pause = (): (() => void) => this.options.pause(state)
    for (const message of messages) {
      if (!live() || state.paused) return
      this.options.onProgress()
      await this.handler(() => handler({ topic: state.topic, partition: state.partition, message, pause }))
      if (live()) {
        state.position = Number(message.offset) + 1
        state.handlerFailures = 0 // progress: a later record's failures count afresh
      }
    }
    if (live() && !state.paused) state.position = nextOffset
  }

  private async eachBatch(
    state: PartitionState,
    records: BatchRecords,
    highWatermark: number,
    live: () => boolean,
  ): Promise<void> {
    const nextOffset = records.nextOffset
    const batch = makeBatch(state.topic, state.partition, records, highWatermark)
    const { instrumentation, handlers } = this.options
    let resolved: number | undefined
    const payload: EachBatchPayload = {
      batch,
      resolveOffset: (offset) => {
        const next = Number(offset) + 1
        if (!Number.isSafeInteger(next) || (resolved !== undefined && next <= resolved)) return
        resolved = next
        if (live()) {
          state.position = Math.min(resolved, nextOffset)
          state.handlerFailures = 0
        }
      },
      isRunning: live,
      isStale: () => !live(),
      pause: () => this.options.pause(state),
    }
    const started = Date.now()
    instrumentation.emit('consumer.start_batch_process', () => batchPayload(batch, records))
    this.options.onProgress()
    await this.handler(() => handlers.eachBatch!(payload))
    instrumentation.emit('consumer.end_batch_process', () => ({
      ...batchPayload(batch, records),
      duration: Date.now() - started,
    }))
    if (live() && handlers.eachBatchAutoResolve && !state.paused) state.position = nextOffset
  }

  private async handler(call: () => Promise<void>): Promise<void> {
    this.handlersRunning++
    try {
      await call()
    } finally {
      this.handlersRunning--
    }
  }

  /** A handler (or the decoding of fetched data) failed: retry the partition after a backoff, or give up. */
  private failed(state: PartitionState, err: unknown, byHandler: boolean): void {
    const { retry } = this.options
    if (!isRetriable(err)) {
      this.options.onFatal(err instanceof Error ? err : new Error(String(err)))
      return
    }
    const count = byHandler ? ++state.handlerFailures : ++state.failures
    if (byHandler && count > retry.retries) {
      this.options.onFatal(
        new NumberOfRetriesExceededError(err, { retryCount: count - 1, retryTime: retry.maxRetryTime }),
      )
      return
    }
    const base = Math.min(retry.initialRetryTime * retry.multiplier ** Math.min(count - 1, 30), retry.maxRetryTime)
    state.backoffUntil = Date.now() + randomizedRetryTime(retry.factor, base)
  }
}

/**
 * A batch's records, decoded on first use (`messages`); its first and last offsets are read from
 * one batch each without decoding the rest.
 */
class BatchRecords {
  /** Set when decoding failed under the handler: the data is corrupt, the handler is not to blame. */
  decodeError: unknown
  #messages: KafkaMessage[] | undefined
  readonly #first: number | undefined

  /** `decoded`: the messages when already decoded; `first`: the first offset when already read. */
  constructor(
    private readonly fetched: FetchedBatches,
    decoded: KafkaMessage[] | undefined,
    first: number | undefined,
  ) {
    this.#messages = decoded
    this.#first = first
  }

  get nextOffset(): number {
    return this.fetched.nextOffset
  }

  get messages(): KafkaMessage[] {
    this.#messages ??= this.#decoding(() => this.fetched.decodeSync())
    return this.#messages
  }

  firstOffset(): string | null {
    if (this.#messages !== undefined) return this.#messages[0]?.offset ?? null
    const first = this.#first ?? this.#decoding(() => this.fetched.firstOffset())
    return first === undefined ? null : String(first)
  }

  /** Records in the batch, without decoding them when they are not yet. */
  count(): number {
    return this.#messages?.length ?? this.#decoding(() => this.fetched.count())
  }

  lastOffset(): string | undefined {
    if (this.#messages !== undefined) return this.#messages.at(-1)?.offset
    const last = this.#decoding(() => this.fetched.lastOffset())
    return last === undefined ? undefined : String(last)
  }

  #decoding<T>(decode: () => T): T {
    try {
      return decode()
    } catch (err) {
      this.decodeError ??= err
      throw err
    }
  }
}

function makeBatch(topic: string, partition: number, records: BatchRecords, highWatermark: number): Batch {
  let first: string | null | undefined
  let last: string | undefined
  const firstOffset = (): string | null => {
    if (first === undefined) first = records.firstOffset()
    return first
  }
  const lastOffset = (): string => {
    last ??= records.lastOffset() ?? String(highWatermark - 1)
    return last
  }
  return {
    topic,
    partition,
    highWatermark: String(highWatermark),
    get messages() {
      return records.messages
    },
    isEmpty: () => firstOffset() === null,
    firstOffset,
    lastOffset,
    offsetLag: () => String(Math.max(0, highWatermark - 1 - Number(lastOffset()))),
    offsetLagLow: () => String(Math.max(0, highWatermark - 1 - Number(firstOffset() ?? lastOffset()))),
  }
}

function batchPayload(batch: Batch, records: BatchRecords): BatchProcessPayload {
  return {
    topic: batch.topic,
    partition: batch.partition,
    highWatermark: batch.highWatermark,
    offsetLag: batch.offsetLag(),
    offsetLagLow: batch.offsetLagLow(),
    batchSize: records.count(),
    firstOffset: batch.firstOffset(),
    lastOffset: batch.isEmpty() ? null : batch.lastOffset(),
  }
}
