import { FencedLeaderEpochError, InvalidRecordError, KafkaStorageError, OffsetOutOfRangeError } from '@tributary/wire'
import { type ValidatedAppend, validateFollowerAppend, validateLeaderAppend } from './batch-validation.js'
import { runCompaction } from './compaction.js'
import { type LogConfig, resolveLogConfig, validateLogConfig } from './config.js'
import { LeaderEpochCache } from './leader-epoch-cache.js'
import { ReadWriteLock, SerialQueue } from './lock.js'
import { type Logger, silentLogger } from './logger.js'
import { findFirstAtOrAfter, verifyChunk } from './read-verification.js'
import { planRetention } from './retention.js'
import type {
  AbortOptions,
  AppendResult,
  CompactionResult,
  EpochEndOffset,
  EpochEntry,
  LeaderAppendOptions,
  LogStore,
  PartitionLog,
  ReadOptions,
  ReadResult,
  RetentionResult,
  SegmentInfo,
  StoredBatch,
  TimestampOffset,
} from './types.js'

export interface OpenLogOptions extends AbortOptions {
  /** Partition name used in errors and logs, e.g. `orders-3`. */
  name: string
  store: LogStore
  config?: Partial<LogConfig>
  /** Kafka-named settings (`{ 'retention.ms': '60000' }`), applied over `config`. */
  topicConfig?: Record<string, string | number>
  logger?: Logger
  /** Milliseconds since the epoch; injectable for tests. */
  clock?: () => number
}

const META_HIGH_WATERMARK = 'high-watermark'
const META_LOG_START = 'log-start-offset'
const META_EPOCHS = 'leader-epochs'
export const META_CLEANER = 'cleaner-offset'

const DEFAULT_READ_BYTES = 1024 * 1024

/** Opens a partition log over a store, recovering it. */
export async function openLog(options: OpenLogOptions): Promise<Log> {
  const config = resolveLogConfig(options.config, options.topicConfig)
  const log = new Log(options, config)
  await log.open(options)
  return log
}

/**
 * The partition log engine: Kafka's `UnifiedLog` over a segment store. It owns validation,
 * offsets, the leader-epoch cache, the high watermark and log start offset, rolling, the
 * flush policy, and retention and compaction decisions; a `LogStore` owns the bytes.
 *
 * Concurrency: mutations run one at a time (`writes`); compaction runs beside appends under
 * `cleaner`, which anything that deletes data also takes; reads share `rw` with appends and
 * are excluded only while stored bytes are removed or swapped.
 */
export class Log implements PartitionLog {
  readonly name: string
  private cfg: LogConfig
  private readonly store: LogStore
  private readonly logger: Logger
  private readonly clock: () => number
  private segments: SegmentInfo[] = []
  private epochs = new LeaderEpochCache()
  private hw = 0
  private startOffset = 0
  private unflushedRecords = 0
  private lastFlushMs = 0
  private closed = false
  private flushTimer: ReturnType<typeof setInterval> | undefined
  private cleanerOffset: number | undefined
  private readonly leaderAppends: PendingLeaderAppend[] = []
  private barrier = 0
  private readonly writes = new SerialQueue()
  private readonly cleaner = new SerialQueue()
  private readonly rw = new ReadWriteLock()

  constructor(options: OpenLogOptions, config: LogConfig) {
    this.name = options.name
    this.cfg = config
    this.store = options.store
    this.logger = options.logger ?? silentLogger
    this.clock = options.clock ?? Date.now
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

  /** @internal */
  async open(options: AbortOptions): Promise<void> {
    const now = this.clock()
    const opened = await this.store.open(now, options)
    this.segments = opened.segments
    this.epochs = LeaderEpochCache.fromJson(opened.meta[META_EPOCHS])
    this.startOffset = Math.max(parseOffset(opened.meta[META_LOG_START]), this.segments[0]?.baseOffset ?? 0)
    if (this.segments.length === 0) this.segments = [await this.store.roll(this.startOffset, now, options)]
    const leo = this.logEndOffset
    if (this.startOffset > leo) this.startOffset = leo
    // Recovery may have cut a torn tail whose epochs the checkpoint already named.
    if (this.epochs.truncateFromEnd(leo)) await this.writeEpochs(options)
    this.hw = Math.min(parseOffset(opened.meta[META_HIGH_WATERMARK]), leo)
    if (opened.meta[META_CLEANER] !== undefined) this.cleanerOffset = parseOffset(opened.meta[META_CLEANER])
    // A crash between advancing the log start and deleting segments leaves segments below it.
    const below = this.segments.slice(0, -1).filter((s) => s.nextOffset <= this.startOffset)
    if (below.length > 0) await this.removeSegments(below, options)
    this.lastFlushMs = now
    if (Number.isFinite(this.cfg.flushMs)) this.startFlushTimer()
    this.logger.info(
      {
        partition: this.name,
        segments: this.segments.length,
        logStartOffset: this.startOffset,
        logEndOffset: leo,
        clean: opened.cleanShutdown,
      },
      'log opened',
    )
  }

  /**
   * Appends as the leader. Appends that queue up behind a running one are committed together
   * (group commit): each is validated in order with its own offsets, epoch fence and outcome,
   * then all that passed are written with one store append (one writev on files), which is
   * where the time goes when batches arrive faster than the disk round trip.
   */
  appendAsLeader(batches: Uint8Array, leaderEpoch: number, options: LeaderAppendOptions = {}): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      const queue = this.leaderAppends
      const startsGroup = queue.length === 0 || queue.at(-1)!.barrier !== this.barrier
      queue.push({ bytes: batches, epoch: leaderEpoch, options, resolve, reject, barrier: this.barrier })
      if (startsGroup) this.scheduleLeaderAppends(this.barrier)
    })
  }

  /**
   * Queues any other change. It raises the barrier, so appends called after it are never
   * grouped with appends called before it: every operation keeps its call order.
   */
  private mutate<T>(fn: () => Promise<T>): Promise<T> {
    this.barrier++
    return this.writes.run(fn)
  }

  /** Queues a writer turn for the appends called under `barrier` (and only those). */
  private scheduleLeaderAppends(barrier: number): void {
    this.writes
      .run(() => this.drainLeaderAppends(barrier))
      .catch((err: unknown) => {
        this.logger.error({ partition: this.name, err }, 'group commit failed unexpectedly')
      })
  }

  private async drainLeaderAppends(barrier: number): Promise<void> {
    while (this.leaderAppends.length > 0 && this.leaderAppends[0]!.barrier === barrier) {
      const group: PendingLeaderAppend[] = []
      let groupBytes = 0
      while (this.leaderAppends.length > 0 && this.leaderAppends[0]!.barrier === barrier) {
        const next = this.leaderAppends[0]!
        if (group.length > 0 && groupBytes + next.bytes.length > GROUP_COMMIT_MAX_BYTES) break
        group.push(this.leaderAppends.shift()!)
        groupBytes += next.bytes.length
      }
      await this.commitGroup(group)
    }
  }

  private async commitGroup(group: PendingLeaderAppend[]): Promise<void> {
    const now = this.clock()
    const accepted: Array<{ request: PendingLeaderAppend; validated: ValidatedAppend }> = []
    let nextOffset = this.logEndOffset
    let latestEpoch = this.epochs.latestEpoch()
    for (const request of group) {
      try {
        this.ensureOpen()
        request.options.signal?.throwIfAborted()
        const { epoch } = request
        if (!Number.isSafeInteger(epoch) || epoch < 0) {
          throw new InvalidRecordError(`${this.name}: leader epoch must be a non-negative integer, got ${epoch}`)
        }
        if (epoch < latestEpoch) {
          throw new FencedLeaderEpochError(`${this.name}: epoch ${epoch} is older than the log's ${latestEpoch}`)
        }
        const validated = await validateLeaderAppend(request.bytes, this.name, this.cfg, nextOffset, epoch, now, {
          allowControl: request.options.allowControl === true,
        })
        nextOffset = validated.batches.at(-1)!.lastOffset + 1
        latestEpoch = epoch
        accepted.push({ request, validated })
      } catch (err) {
        request.reject(err)
      }
    }
    if (accepted.length === 0) return
    const merged: ValidatedAppend = {
      batches: accepted.flatMap((a) => a.validated.batches),
      recordCount: accepted.reduce((n, a) => n + a.validated.recordCount, 0),
      bytes: accepted.reduce((n, a) => n + a.validated.bytes, 0),
      logAppendTime: -1,
    }
    try {
      await this.appendValidated(merged, now, {})
    } catch (err) {
      for (const { request } of accepted) request.reject(err)
      return
    }
    for (const { request, validated } of accepted) request.resolve(appendResult(validated))
  }

  appendAsFollower(batches: Uint8Array, options: AbortOptions = {}): Promise<AppendResult> {
    return this.mutate(async () => {
      this.ensureOpen()
      options.signal?.throwIfAborted()
      const validated = await validateFollowerAppend(batches, this.name, this.logEndOffset, this.epochs.latestEpoch())
      if (validated.batches.length === 0) {
        const leo = this.logEndOffset
        return { firstOffset: leo, lastOffset: leo - 1, logAppendTime: -1, batchCount: 0, recordCount: 0, bytes: 0 }
      }
      return this.appendValidated(validated, this.clock(), options)
    })
  }

  private async appendValidated(validated: ValidatedAppend, now: number, options: AbortOptions): Promise<AppendResult> {
    const { batches } = validated
    // The epoch checkpoint goes first: data must never carry an epoch the cache has not recorded.
    const endBefore = this.logEndOffset
    let epochsChanged = false
    for (const batch of batches) {
      const epoch = readEpoch(batch)
      if (epoch >= 0 && this.epochs.assign(epoch, batch.baseOffset)) epochsChanged = true
    }
    try {
      if (epochsChanged) await this.writeEpochs(options)
      await this.writeBatches(batches, now, options)
    } catch (err) {
      // Nothing (or only a prefix, which recovery or the next append's checks see) was stored:
      // forget epochs that now start past the log end, so a retry is not fenced by its own epoch.
      if (this.epochs.truncateFromEnd(Math.max(this.logEndOffset, endBefore))) {
        await this.writeEpochs(options).catch(() => {})
      }
      throw err
    }

    this.unflushedRecords += validated.recordCount
    if (this.unflushedRecords >= this.cfg.flushMessages || now - this.lastFlushMs >= this.cfg.flushMs) {
      // The append itself succeeded; a failed flush is retried by the next one, not reported as a lost append.
      await this.flushNow(options).catch((err: unknown) =>
        this.logger.error({ partition: this.name, err }, 'flush after append failed; will retry'),
      )
    }
    return appendResult(validated)
  }

  /** Writes batches to the active segment, rolling first whenever segment.bytes or segment.ms says so. */
  private async writeBatches(batches: readonly StoredBatch[], now: number, options: AbortOptions): Promise<void> {
    let pending: StoredBatch[] = []
    let active = this.segments.at(-1)!
    let pendingBytes = 0
    for (const batch of batches) {
      const size = batch.bytes.length
      const full = active.sizeBytes + pendingBytes + size > this.cfg.segmentBytes
      const old = now - active.createdAtMs >= this.cfg.segmentMs
      if ((full || old) && active.sizeBytes + pendingBytes > 0) {
        if (pending.length > 0) active = await this.storeAppend(pending, options)
        active = await this.rollTo(batch.baseOffset, now, options)
        pending = []
        pendingBytes = 0
      }
      pending.push(batch)
      pendingBytes += size
    }
    if (pending.length > 0) await this.storeAppend(pending, options)
  }

  private async storeAppend(batches: StoredBatch[], options: AbortOptions): Promise<SegmentInfo> {
    const info = await this.store.append(batches, options)
    this.segments[this.segments.length - 1] = info
    return info
  }

  private async rollTo(baseOffset: number, now: number, options: AbortOptions): Promise<SegmentInfo> {
    const info = await this.store.roll(baseOffset, now, options)
    this.segments.push(info)
    this.logger.debug({ partition: this.name, baseOffset }, 'rolled segment')
    return info
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
      const empty = (): ReadResult => this.readResult(new Uint8Array(0), 0, offset)
      if (offset >= maxOffset) return empty()
      for (let i = this.segmentIndexFor(offset); i < this.segments.length; i++) {
        const segment = this.segments[i]!
        if (segment.nextOffset <= offset) continue
        const chunk = await this.store.read(segment.baseOffset, offset, maxBytes, options)
        if (chunk.length === 0) continue
        const verified = verifyChunk(chunk, {
          name: this.name,
          offset,
          maxOffset,
          segmentEnd: segment.nextOffset,
          epochFor: (o) => this.epochs.epochForOffset(o),
        })
        return this.readResult(chunk.subarray(0, verified.bytes), verified.batchCount, verified.nextOffset ?? offset)
      }
      return empty()
    })
  }

  private readResult(records: Uint8Array, batchCount: number, nextOffset: number): ReadResult {
    return {
      records,
      batchCount,
      nextOffset,
      highWatermark: this.hw,
      logStartOffset: this.startOffset,
      logEndOffset: this.logEndOffset,
    }
  }

  /** Index of the last segment whose base offset is ≤ `offset` (0 if none). */
  private segmentIndexFor(offset: number): number {
    let lo = 0
    let hi = this.segments.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (this.segments[mid]!.baseOffset <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  setHighWatermark(offset: number): void {
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw new InvalidRecordError(`${this.name}: high watermark must be a non-negative integer, got ${offset}`)
    }
    this.hw = Math.max(this.startOffset, Math.min(offset, this.logEndOffset))
  }

  truncateTo(offset: number, options: AbortOptions = {}): Promise<void> {
    return this.mutate(() =>
      this.cleaner.run(async () => {
        this.ensureOpen()
        if (offset >= this.logEndOffset) return
        if (offset <= this.startOffset) return this.resetTo(offset, options)
        await this.rw.exclusive(async () => {
          const index = this.segmentIndexFor(offset)
          const later = this.segments.slice(index + 1)
          if (later.length > 0)
            await this.store.deleteSegments(
              later.map((s) => s.baseOffset),
              options,
            )
          const info = await this.store.truncate(this.segments[index]!.baseOffset, offset, options)
          this.segments = [...this.segments.slice(0, index), info]
          if (this.epochs.truncateFromEnd(info.nextOffset)) await this.writeEpochs(options)
          this.hw = Math.min(this.hw, info.nextOffset)
          this.logger.info({ partition: this.name, offset, logEndOffset: info.nextOffset }, 'log truncated')
        })
      }),
    )
  }

  truncateFullyAndStartAt(offset: number, options: AbortOptions = {}): Promise<void> {
    return this.mutate(() =>
      this.cleaner.run(async () => {
        this.ensureOpen()
        await this.resetTo(offset, options)
      }),
    )
  }

  private async resetTo(offset: number, options: AbortOptions): Promise<void> {
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw new OffsetOutOfRangeError(`${this.name}: cannot start at ${offset}`)
    await this.rw.exclusive(async () => {
      await this.store.deleteSegments(
        this.segments.map((s) => s.baseOffset),
        options,
      )
      this.segments = []
      this.epochs.clear()
      this.startOffset = offset
      this.hw = offset
      await this.store.writeMeta(
        {
          [META_EPOCHS]: this.epochs.toJson(),
          [META_LOG_START]: String(offset),
          [META_HIGH_WATERMARK]: String(offset),
          [META_CLEANER]: String(offset),
        },
        { ...options, durable: true },
      )
      this.segments = [await this.store.roll(offset, this.clock(), options)]
      this.logger.info({ partition: this.name, offset }, 'log reset')
    })
  }

  deleteRecordsBefore(offset: number, options: AbortOptions = {}): Promise<number> {
    return this.mutate(() =>
      this.cleaner.run(async () => {
        this.ensureOpen()
        if (!Number.isSafeInteger(offset) || offset > this.hw) {
          throw new OffsetOutOfRangeError(
            `${this.name}: cannot delete records before ${offset}: high watermark is ${this.hw}`,
          )
        }
        if (offset > this.startOffset) await this.advanceLogStart(offset, options)
        return this.startOffset
      }),
    )
  }

  /** Moves the log start, checkpoints it, then removes segments wholly below it. */
  private async advanceLogStart(offset: number, options: AbortOptions): Promise<RetentionResult> {
    this.startOffset = offset
    this.epochs.truncateFromStart(offset)
    await this.store.writeMeta(
      { [META_LOG_START]: String(offset), [META_EPOCHS]: this.epochs.toJson() },
      { ...options, durable: true },
    )
    const doomed = this.segments.slice(0, -1).filter((s) => s.nextOffset <= offset)
    const deletedBytes = doomed.reduce((sum, s) => sum + s.sizeBytes, 0)
    if (doomed.length > 0) await this.removeSegments(doomed, options)
    return { deletedSegments: doomed.length, deletedBytes, logStartOffset: offset }
  }

  private async removeSegments(doomed: readonly SegmentInfo[], options: AbortOptions): Promise<void> {
    await this.rw.exclusive(async () => {
      await this.store.deleteSegments(
        doomed.map((s) => s.baseOffset),
        options,
      )
      const gone = new Set(doomed.map((s) => s.baseOffset))
      this.segments = this.segments.filter((s) => !gone.has(s.baseOffset))
    })
  }

  applyRetention(options: AbortOptions = {}): Promise<RetentionResult> {
    return this.mutate(() =>
      this.cleaner.run(async () => {
        this.ensureOpen()
        const newStart = planRetention(this.segments, this.cfg, this.hw, this.startOffset, this.clock())
        if (newStart <= this.startOffset)
          return { deletedSegments: 0, deletedBytes: 0, logStartOffset: this.startOffset }
        const result = await this.advanceLogStart(newStart, options)
        this.logger.info({ partition: this.name, ...result }, 'retention deleted segments')
        return result
      }),
    )
  }

  compact(options: AbortOptions = {}): Promise<CompactionResult> {
    return this.cleaner.run(async () => {
      this.ensureOpen()
      return runCompaction({
        name: this.name,
        config: this.cfg,
        store: this.store,
        logger: this.logger,
        now: this.clock(),
        segments: () => this.segments,
        highWatermark: this.hw,
        epochFor: (o) => this.epochs.epochForOffset(o),
        cleanerOffset: this.cleanerOffset ?? this.startOffset,
        swap: (commit) =>
          this.rw.exclusive(async () => {
            const info = await commit()
            const index = this.segments.findIndex((s) => s.baseOffset === info.baseOffset)
            if (index >= 0) this.segments[index] = info
          }),
        saveCleanerOffset: async (offset) => {
          this.cleanerOffset = offset
          await this.store.writeMeta({ [META_CLEANER]: String(offset) }, { ...options, durable: true })
        },
        signal: options.signal,
      })
    })
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

  latestEpoch(): number {
    return this.epochs.latestEpoch()
  }

  epochEntries(): readonly EpochEntry[] {
    return this.epochs.list()
  }

  endOffsetForEpoch(epoch: number): EpochEndOffset {
    return this.epochs.endOffsetFor(epoch, this.logEndOffset)
  }

  flush(options: AbortOptions = {}): Promise<void> {
    return this.mutate(async () => {
      this.ensureOpen()
      await this.flushNow(options)
    })
  }

  private async flushNow(options: AbortOptions): Promise<void> {
    await this.store.flush(options)
    await this.store.writeMeta({ [META_HIGH_WATERMARK]: String(this.hw) }, options)
    this.unflushedRecords = 0
    this.lastFlushMs = this.clock()
  }

  private startFlushTimer(): void {
    const period = Math.max(10, Math.min(this.cfg.flushMs, 60_000))
    this.flushTimer = setInterval(() => {
      if (this.closed || this.unflushedRecords === 0 || this.clock() - this.lastFlushMs < this.cfg.flushMs) return
      this.flush().catch((err: unknown) => this.logger.error({ partition: this.name, err }, 'scheduled flush failed'))
    }, period)
    this.flushTimer.unref?.()
  }

  updateConfig(config: Partial<LogConfig>): void {
    const next = { ...this.cfg, ...config }
    validateLogConfig(next)
    this.cfg = next
    clearInterval(this.flushTimer)
    this.flushTimer = undefined
    if (Number.isFinite(next.flushMs) && !this.closed) this.startFlushTimer()
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve()
    return this.mutate(() =>
      this.cleaner.run(async () => {
        if (this.closed) return
        this.closed = true
        clearInterval(this.flushTimer)
        await this.rw.exclusive(async () => {
          let clean = false
          try {
            await this.store.flush()
            await this.store.writeMeta({ [META_HIGH_WATERMARK]: String(this.hw) }, { durable: true })
            clean = true
          } finally {
            // Release files, connections and locks even when the final flush fails (e.g. a full disk);
            // without the clean marker the next open recovers instead of trusting the tail.
            await this.store.close(clean)
          }
        })
        this.logger.info({ partition: this.name, logEndOffset: this.logEndOffset }, 'log closed')
      }),
    )
  }

  destroy(): Promise<void> {
    return this.mutate(() =>
      this.cleaner.run(async () => {
        this.closed = true
        clearInterval(this.flushTimer)
        await this.rw.exclusive(() => this.store.destroy())
      }),
    )
  }

  private ensureOpen(): void {
    if (this.closed) throw new KafkaStorageError(`partition log ${this.name} is closed`)
  }

  private async writeEpochs(options: AbortOptions): Promise<void> {
    await this.store.writeMeta({ [META_EPOCHS]: this.epochs.toJson() }, { ...options, durable: true })
  }
}

/** Leader appends waiting for the writer; bounded by callers' own in-flight limits (the RPC layer's). */
interface PendingLeaderAppend {
  bytes: Uint8Array
  epoch: number
  options: LeaderAppendOptions
  resolve: (result: AppendResult) => void
  reject: (err: unknown) => void
  /** The barrier when it was called: it may only share a write with appends of the same barrier. */
  barrier: number
}

/** Largest group one write carries; later appends wait for the next. */
const GROUP_COMMIT_MAX_BYTES = 8 * 1024 * 1024

function appendResult(validated: ValidatedAppend): AppendResult {
  const { batches } = validated
  return {
    firstOffset: batches[0]!.baseOffset,
    lastOffset: batches.at(-1)!.lastOffset,
    logAppendTime: validated.logAppendTime,
    batchCount: batches.length,
    recordCount: validated.recordCount,
    bytes: validated.bytes,
  }
}

function readEpoch(batch: StoredBatch): number {
  const b = batch.bytes
  return ((b[12]! << 24) | (b[13]! << 16) | (b[14]! << 8) | b[15]!) >> 0
}

function parseOffset(value: string | undefined): number {
  if (value === undefined) return 0
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= 0 ? n : 0
}
