import { OffsetOutOfRangeError } from '@tributary/wire'
import {
  appendResult,
  checkLeaderAppend,
  readEpoch,
  type ValidatedAppend,
  validateFollowerAppend,
} from './batch-validation.js'
import { runCompaction } from './compaction.js'
import { compacts, type LogConfig, resolveLogConfig, validateLogConfig } from './config.js'
import { FlushPolicy } from './flush-policy.js'
import { GroupCommitQueue, type PendingLeaderAppend } from './group-commit.js'
import { commitLeaderGroup } from './leader-group-commit.js'
import { SerialQueue } from './lock.js'
import { loadLog, META_CLEANER, META_EPOCHS, META_HIGH_WATERMARK, META_LOG_START } from './log-loader.js'
import { LogView, producerLimits } from './log-view.js'
import type { Logger } from './logger.js'
import { ProducerStatePersistence } from './producer-state-persistence.js'
import { planRetention } from './retention.js'
import { writeBatches } from './segment-writer.js'
import type {
  AbortOptions,
  AppendResult,
  CompactionResult,
  LeaderAppendOptions,
  LogStore,
  PartitionLog,
  RetentionResult,
  SegmentInfo,
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
 * are excluded only while stored bytes are removed or swapped. The read side (state, reads,
 * epoch queries) lives in `LogView`; this class holds everything that changes the log, with
 * rolling in segment-writer.ts, the flush policy in flush-policy.ts and the settling of a
 * leader's group commit in leader-group-commit.ts.
 */
export class Log extends LogView implements PartitionLog {
  private cleanerOffset: number | undefined
  private readonly producerSnapshots = new ProducerStatePersistence({
    name: this.name,
    store: this.store,
    producers: this.producers,
    logger: this.logger,
    clock: this.clock,
    logEndOffset: () => this.logEndOffset,
  })
  private readonly flushes = new FlushPolicy({
    name: this.name,
    store: this.store,
    logger: this.logger,
    clock: this.clock,
    config: () => this.cfg,
    highWatermark: () => this.hw,
    closed: () => this.closed,
    flush: () => this.flush(),
  })
  private readonly writes = new SerialQueue()
  private readonly appends = new GroupCommitQueue(
    this.writes,
    (group) => this.commitGroup(group),
    (err) => this.logger.error({ partition: this.name, err }, 'group commit failed unexpectedly'),
  )
  private readonly cleaner = new SerialQueue()

  constructor(options: OpenLogOptions, config: LogConfig) {
    super(options, config)
  }

  /** @internal */
  async open(options: AbortOptions): Promise<void> {
    const now = this.clock()
    const loaded = await loadLog(this.store, now, options)
    this.segments = loaded.segments
    this.epochs = loaded.epochs
    this.startOffset = loaded.startOffset
    this.hw = loaded.highWatermark
    this.cleanerOffset = loaded.cleanerOffset
    if (loaded.epochsChanged) await this.writeEpochs(options)
    if (loaded.belowStart.length > 0) await this.removeSegments(loaded.belowStart, options)
    await this.producerSnapshots.load(this.segments, this.startOffset, loaded.meta, options)
    this.flushes.opened(now)
    const { length: segments } = this.segments
    const fields = {
      segments,
      logStartOffset: this.startOffset,
      logEndOffset: this.logEndOffset,
      clean: loaded.cleanShutdown,
    }
    this.logger.info({ partition: this.name, ...fields }, 'log opened')
  }

  appendAsLeader(batches: Uint8Array, leaderEpoch: number, options: LeaderAppendOptions = {}): Promise<AppendResult> {
    // The check (CRC, records, limits) needs no log state, so it runs now, while an earlier group
    // may be being written, rather than in the writer's turn, where it would hold up the next write.
    const checkedWith = this.cfg
    const checked = checkLeaderAppend(batches, this.name, checkedWith, { allowControl: options.allowControl === true })
    checked.catch(() => {}) // a failed check is this append's answer, given in order by the group commit
    return this.appends.append({ bytes: batches, epoch: leaderEpoch, options, checked, checkedWith })
  }

  /** Any change other than a leader append: queued in call order with the appends (see GroupCommitQueue). */
  private mutate<T>(fn: () => Promise<T>): Promise<T> {
    return this.appends.mutate(fn)
  }

  /** Decides each append of a group in order (see planLeaderGroup), then writes all that passed at once. */
  private async commitGroup(group: PendingLeaderAppend[]): Promise<void> {
    const now = this.clock()
    const context = {
      name: this.name,
      config: this.cfg,
      producers: this.producers,
      nextOffset: this.logEndOffset,
      latestEpoch: this.epochs.latestEpoch(),
      now,
      ensureOpen: () => this.ensureOpen(),
    }
    await commitLeaderGroup(group, context, (merged) => this.appendValidated(merged, now, {}))
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
      const target = {
        name: this.name,
        store: this.store,
        logger: this.logger,
        config: () => this.cfg,
        segments: () => this.segments,
      }
      await writeBatches(target, batches, now, options)
    } catch (err) {
      // Nothing (or only a prefix, which recovery or the next append's checks see) was stored:
      // forget epochs that now start past the log end, so a retry is not fenced by its own epoch.
      const end = this.logEndOffset
      if (this.epochs.truncateFromEnd(Math.max(end, endBefore))) {
        await this.writeEpochs(options).catch(() => {})
      }
      // A stored prefix is in the log: its producers must know, or their retry would append it twice.
      this.producers.applyStored(
        batches.filter((b) => b.baseOffset >= endBefore && b.lastOffset < end),
        now,
      )
      throw err
    }
    this.producers.applyStored(batches, now)

    if (this.flushes.appended(validated.recordCount, now)) {
      // The append itself succeeded; a failed flush is retried by the next one, not reported as a lost append.
      await this.flushes
        .flushNow(options)
        .catch((err: unknown) =>
          this.logger.error({ partition: this.name, err }, 'flush after append failed; will retry'),
        )
    }
    await this.producerSnapshots.appended(validated.bytes, this.cfg.segmentBytes, options)
    return appendResult(validated)
  }

  truncateTo(offset: number, options: AbortOptions = {}): Promise<void> {
    return this.mutate(() =>
      this.cleaner.run(async () => {
        this.ensureOpen()
        if (offset >= this.logEndOffset) return
        if (offset <= this.startOffset) return this.resetTo(offset, options)
        await this.producerSnapshots.settle()
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
          await this.producerSnapshots.truncated(info.nextOffset, options)
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
    await this.producerSnapshots.settle()
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
          ...this.producerSnapshots.reset(offset),
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
    // Producer state outlives the batches (as in Kafka since KIP-360).
    await this.producerSnapshots.cover(offset, options)
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

  async compact(options: AbortOptions = {}): Promise<CompactionResult> {
    // Compaction may remove a producer's batches whole, so it only cleans below the
    // producer-state snapshot, taken first if it lags (Kafka keeps one per segment for this).
    if (compacts(this.cfg)) {
      await this.mutate(async () => {
        this.ensureOpen()
        await this.producerSnapshots.cover(Math.min(this.hw, this.segments.at(-1)!.baseOffset), options)
      })
    }
    return this.cleaner.run(async () => {
      this.ensureOpen()
      return runCompaction({
        name: this.name,
        config: this.cfg,
        store: this.store,
        logger: this.logger,
        now: this.clock(),
        segments: () => this.segments,
        highWatermark: Math.min(this.hw, this.producerSnapshots.snapshotOffset),
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

  flush(options: AbortOptions = {}): Promise<void> {
    return this.mutate(async () => {
      this.ensureOpen()
      await this.producerSnapshots.settle()
      await this.flushes.flushNow(options)
    })
  }

  updateConfig(config: Partial<LogConfig>): void {
    const next = { ...this.cfg, ...config }
    validateLogConfig(next)
    this.cfg = next
    this.producers.setLimits(producerLimits(next), this.clock())
    this.flushes.reconfigured()
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve()
    return this.mutate(() =>
      this.cleaner.run(async () => {
        if (this.closed) return
        this.closed = true
        this.flushes.stop()
        await this.producerSnapshots.settle()
        await this.rw.exclusive(async () => {
          let clean = false
          try {
            await this.store.flush()
            await this.store.writeMeta(
              { [META_HIGH_WATERMARK]: String(this.hw), ...this.producerSnapshots.closing() },
              { durable: true },
            )
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
        this.flushes.stop()
        await this.producerSnapshots.settle()
        await this.rw.exclusive(() => this.store.destroy())
      }),
    )
  }

  private async writeEpochs(options: AbortOptions): Promise<void> {
    await this.store.writeMeta({ [META_EPOCHS]: this.epochs.toJson() }, { ...options, durable: true })
  }
}
