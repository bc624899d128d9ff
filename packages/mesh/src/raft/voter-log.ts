/**
 * Keeps a replica's voter set in step with its log. A VotersRecord takes effect as soon as it
 * is in the log (Raft dissertation §4.1), whoever appended it: the leader changing the set, or a
 * follower fetching the change. So every write to the Raft replica's log goes through
 * `trackVoterSets`, which tells the quorum state about voter sets appended and truncated away,
 * saving a write-ahead mark before an append that carries one (see PersistedVoterHistory).
 */
import type {
  AbortOptions,
  AppendResult,
  CompactionResult,
  EpochEndOffset,
  EpochEntry,
  LeaderAppendOptions,
  LogConfig,
  PartitionLog,
  ProducerDescription,
  ReadOptions,
  ReadResult,
  RetentionResult,
  TimestampOffset,
} from '@tributary/log'
import { voterSetsIn } from './control-batch.js'
import type { VoterSet } from './voter-history.js'

const SCAN_READ_BYTES = 1024 * 1024

/** The voter sets recorded in `log` from offset `from` to its end. */
export async function scanVoterSets(log: PartitionLog, from: number, signal?: AbortSignal): Promise<VoterSet[]> {
  const sets: VoterSet[] = []
  let offset = Math.max(from, log.logStartOffset)
  const end = log.logEndOffset
  // Each read returns at least one batch and moves past it, so this ends at the log end.
  while (offset < end) {
    const read = await log.read(offset, { maxOffset: end, maxBytes: SCAN_READ_BYTES, signal })
    if (read.batchCount === 0 || read.nextOffset <= offset) break
    sets.push(...(await voterSetsIn(read.records)))
    offset = read.nextOffset
  }
  return sets
}

/** What the tracking log reports to (the quorum state). */
export interface VoterSetListener {
  beforeVoterAppend(logEnd: number): Promise<void>
  afterVoterAppend(sets: readonly VoterSet[]): Promise<void>
  logTruncated(logEnd: number): Promise<void>
  logRestarted(): Promise<void>
}

/**
 * `inner` as seen by the Raft replica: appends and truncations report the voter sets they add or
 * remove; every other member passes straight through.
 */
export function trackVoterSets(inner: PartitionLog, listener: () => VoterSetListener): PartitionLog {
  return new VoterTrackingLog(inner, listener)
}

/**
 * A delegating class rather than a Proxy: the replica reads `logEndOffset`, `highWatermark` and
 * the epoch cache several times per fetch and produce, and a proxy trap on each read was a
 * visible share of a replicating peer's CPU. `implements PartitionLog` makes a member added to
 * the contract fail to compile here until it is passed through.
 */
class VoterTrackingLog implements PartitionLog {
  constructor(
    private readonly inner: PartitionLog,
    private readonly listener: () => VoterSetListener,
  ) {}

  get name(): string {
    return this.inner.name
  }
  get config(): Readonly<LogConfig> {
    return this.inner.config
  }
  get logStartOffset(): number {
    return this.inner.logStartOffset
  }
  get logEndOffset(): number {
    return this.inner.logEndOffset
  }
  get highWatermark(): number {
    return this.inner.highWatermark
  }
  get sizeBytes(): number {
    return this.inner.sizeBytes
  }
  get segmentCount(): number {
    return this.inner.segmentCount
  }

  async appendAsLeader(batches: Uint8Array, leaderEpoch: number, options?: LeaderAppendOptions): Promise<AppendResult> {
    const { inner } = this
    // Only the replication layer appends control batches; producers' batches never carry voter sets.
    if (options?.allowControl !== true) return inner.appendAsLeader(batches, leaderEpoch, options)
    const from = inner.logEndOffset
    const sets = await voterSetsIn(batches, from)
    if (sets.length === 0) return inner.appendAsLeader(batches, leaderEpoch, options)
    const l = this.listener()
    await l.beforeVoterAppend(from)
    let result: AppendResult
    try {
      result = await inner.appendAsLeader(batches, leaderEpoch, options)
    } catch (err) {
      await l.afterVoterAppend([])
      throw err
    }
    // Producer appends run outside the raft lock, so the log may have numbered ours later than
    // it stood when we looked: count from where it really went.
    const shift = result.firstOffset - from
    await l.afterVoterAppend(sets.map((s) => ({ offset: s.offset + shift, voters: s.voters })))
    return result
  }

  async appendAsFollower(batches: Uint8Array, options?: AbortOptions): Promise<AppendResult> {
    const { inner } = this
    const sets = await voterSetsIn(batches)
    if (sets.length === 0) return inner.appendAsFollower(batches, options)
    const l = this.listener()
    await l.beforeVoterAppend(inner.logEndOffset)
    try {
      const result = await inner.appendAsFollower(batches, options)
      await l.afterVoterAppend(sets)
      return result
    } catch (err) {
      await l.afterVoterAppend([])
      throw err
    }
  }

  async truncateTo(offset: number, options?: AbortOptions): Promise<void> {
    await this.inner.truncateTo(offset, options)
    await this.listener().logTruncated(this.inner.logEndOffset)
  }

  async truncateFullyAndStartAt(offset: number, options?: AbortOptions): Promise<void> {
    await this.inner.truncateFullyAndStartAt(offset, options)
    await this.listener().logRestarted()
  }

  read(offset: number, options?: ReadOptions): Promise<ReadResult> {
    return this.inner.read(offset, options)
  }
  setHighWatermark(offset: number): void {
    this.inner.setHighWatermark(offset)
  }
  deleteRecordsBefore(offset: number, options?: AbortOptions): Promise<number> {
    return this.inner.deleteRecordsBefore(offset, options)
  }
  offsetForTimestamp(timestamp: number, options?: AbortOptions): Promise<TimestampOffset | null> {
    return this.inner.offsetForTimestamp(timestamp, options)
  }
  describeProducers(): ProducerDescription[] {
    return this.inner.describeProducers()
  }
  latestEpoch(): number {
    return this.inner.latestEpoch()
  }
  epochEntries(): readonly EpochEntry[] {
    return this.inner.epochEntries()
  }
  endOffsetForEpoch(epoch: number): EpochEndOffset {
    return this.inner.endOffsetForEpoch(epoch)
  }
  flush(options?: AbortOptions): Promise<void> {
    return this.inner.flush(options)
  }
  applyRetention(options?: AbortOptions): Promise<RetentionResult> {
    return this.inner.applyRetention(options)
  }
  compact(options?: AbortOptions): Promise<CompactionResult> {
    return this.inner.compact(options)
  }
  updateConfig(config: Partial<LogConfig>): void {
    this.inner.updateConfig(config)
  }
  close(): Promise<void> {
    return this.inner.close()
  }
  destroy(): Promise<void> {
    return this.inner.destroy()
  }
}
