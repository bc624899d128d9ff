import { InvalidRecordError, KafkaStorageError, OffsetOutOfRangeError } from '@tributary/wire'
import type { LogConfig } from './config.js'
import { LeaderEpochCache } from './leader-epoch-cache.js'
import { ReadWriteLock } from './lock.js'
import { type Logger, silentLogger } from './logger.js'
import { type ProducerDescription, type ProducerStateLimits, ProducerStateManager } from './producer-state.js'
import { findFirstAtOrAfter, readVerified, segmentIndexFor } from './read-verification.js'
import type {
  AbortOptions,
  EpochEndOffset,
  EpochEntry,
  LogStore,
  ReadOptions,
  ReadResult,
  SegmentInfo,
  TimestampOffset,
} from './types.js'

const DEFAULT_READ_BYTES = 1024 * 1024

export function producerLimits(config: LogConfig): ProducerStateLimits {
  return { expirationMs: config.producerIdExpirationMs, maxProducers: config.maxProducerIds }
}

export interface LogViewOptions {
  name: string
  store: LogStore
  logger?: Logger
  clock?: () => number
}

/**
 * The read side of a partition log: its state (segments, leader-epoch cache, high watermark,
 * log start) and everything that only reads it — verified reads, timestamp lookups, epoch
 * queries. `Log` extends it with every operation that changes the log.
 */
export abstract class LogView {
  readonly name: string
  protected cfg: LogConfig
  protected readonly store: LogStore
  protected readonly logger: Logger
  protected readonly clock: () => number
  protected segments: SegmentInfo[] = []
  protected epochs = new LeaderEpochCache()
  protected hw = 0
  protected startOffset = 0
  protected closed = false
  protected readonly rw = new ReadWriteLock()
  protected readonly producers: ProducerStateManager

  constructor(options: LogViewOptions, config: LogConfig) {
    this.name = options.name
    this.cfg = config
    this.store = options.store
    this.logger = options.logger ?? silentLogger
    this.clock = options.clock ?? Date.now
    this.producers = new ProducerStateManager(options.name, producerLimits(config))
  }

  get config(): Readonly<LogConfig> {
    return this.cfg
  }
  get logStartOffset(): number {
    return this.startOffset
  }
  get logEndOffset(): number {
    return this.segments.at(-1)?.nextOffset ?? this.startOffset
  }
  get highWatermark(): number {
    return this.hw
  }
  get sizeBytes(): number {
    let total = 0
    for (const segment of this.segments) total += segment.sizeBytes
    return total
  }
  get segmentCount(): number {
    return this.segments.length
  }

  read(offset: number, options: ReadOptions = {}): Promise<ReadResult> {
    return this.rw.shared(async () => {
      this.ensureOpen()
      options.signal?.throwIfAborted()
      const leo = this.logEndOffset
      if (!Number.isSafeInteger(offset) || offset < this.startOffset || offset > leo) {
        throw new OffsetOutOfRangeError(
          `${this.name}: offset ${offset} is outside the log [${this.startOffset}, ${leo}]`,
        )
      }
      const maxOffset = Math.min(options.maxOffset ?? this.hw, leo)
      const maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_READ_BYTES)
      const found = await readVerified(this.store, this.segments, offset, maxOffset, maxBytes, {
        name: this.name,
        epochFor: (o) => this.epochs.epochForOffset(o),
        signal: options.signal,
      })
      // A literal, not `{ ...found, ...marks }`: V8 promotes objects made by spreading (README, Development).
      return {
        records: found.records,
        batchCount: found.batchCount,
        nextOffset: found.nextOffset,
        highWatermark: this.hw,
        logStartOffset: this.startOffset,
        logEndOffset: this.logEndOffset,
      }
    })
  }

  protected segmentIndexFor(offset: number): number {
    return segmentIndexFor(this.segments, offset)
  }

  setHighWatermark(offset: number): void {
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw new InvalidRecordError(`${this.name}: high watermark must be a non-negative integer, got ${offset}`)
    }
    this.hw = Math.max(this.startOffset, Math.min(offset, this.logEndOffset))
  }

  async offsetForTimestamp(timestamp: number, options: AbortOptions = {}): Promise<TimestampOffset | null> {
    return this.rw.shared(async () => {
      this.ensureOpen()
      for (const segment of this.segments) {
        if (segment.maxTimestamp < timestamp || segment.nextOffset <= this.startOffset) continue
        const from = Math.max(await this.store.timeLookup(segment.baseOffset, timestamp, options), this.startOffset)
        const found = await findFirstAtOrAfter(this.store, segment, from, timestamp, {
          name: this.name,
          epochFor: (o) => this.epochs.epochForOffset(o),
          minOffset: this.startOffset,
          signal: options.signal,
        })
        if (found !== null) return found
      }
      return null
    })
  }

  describeProducers(): ProducerDescription[] {
    return this.producers.describe(this.clock())
  }

  latestEpoch(): number {
    return this.epochs.latestEpoch()
  }

  epochEntries(): readonly EpochEntry[] {
    return this.epochs.list()
  }

  endOffsetForEpoch(epoch: number): EpochEndOffset {
    return this.epochs.endOffsetFor(epoch, this.logEndOffset)
  }

  protected ensureOpen(): void {
    if (this.closed) throw new KafkaStorageError(`partition log ${this.name} is closed`)
  }
}
