import type { LogConfig } from './config.js'
import type { ProducerDescription } from './producer-state.js'

export interface AbortOptions {
  signal?: AbortSignal
}

export interface LeaderAppendOptions extends AbortOptions {
  /**
   * Accept control batches (transaction markers, a leader's epoch-start marker). Only the
   * replication layer sets this; producers' control batches are refused.
   */
  allowControl?: boolean
}

/** Result of an append: the offsets the log gave the batches. */
export interface AppendResult {
  /** Offset of the first record appended. */
  firstOffset: number
  /** Offset of the last record appended. */
  lastOffset: number
  /** The timestamp the log stamped (LogAppendTime topics), or -1. */
  logAppendTime: number
  batchCount: number
  recordCount: number
  /** Bytes appended (the stored batch bytes); 0 for a duplicate. */
  bytes: number
  /**
   * Set when every batch was an idempotent producer's retry of batches the log already holds:
   * nothing was appended, and the offsets are those the originals received (which may not be
   * committed yet).
   */
  duplicate?: true
}

export interface ReadOptions extends AbortOptions {
  /** Stop before the result exceeds this many bytes; the first batch is returned whole regardless. Default 1 MiB. */
  maxBytes?: number
  /** Exclusive upper bound; only batches whose last offset is below it are returned. Default: the high watermark. */
  maxOffset?: number
}

export interface ReadResult {
  /** Whole record batches, concatenated, exactly as stored (Kafka RecordBatch v2 bytes). */
  records: Uint8Array
  batchCount: number
  /** Where the next read should start: one past the last returned batch (or the requested offset when empty). */
  nextOffset: number
  highWatermark: number
  logStartOffset: number
  logEndOffset: number
}

export interface EpochEntry {
  epoch: number
  startOffset: number
}

export interface EpochEndOffset {
  /** The largest epoch ≤ the requested one that this log knows, or -1. */
  epoch: number
  /** Where that epoch ends in this log (start of the next epoch, or the log end offset), or -1. */
  endOffset: number
}

export interface TimestampOffset {
  offset: number
  timestamp: number
}

export interface RetentionResult {
  deletedSegments: number
  deletedBytes: number
  logStartOffset: number
}

export interface CompactionResult {
  /** Segments rewritten. */
  cleanedSegments: number
  recordsRemoved: number
  bytesBefore: number
  bytesAfter: number
  /** Everything below this offset is now compacted. */
  cleanedUpTo: number
}

/**
 * The partition log contract. The replication layer (mesh) sees storage only through it.
 *
 * Offsets are safe integers (< 2^53); at a million records a second that is 285 years.
 * The log takes ownership of the bytes passed to append: it stamps offsets and the leader
 * epoch into them in place.
 */
export interface PartitionLog {
  readonly name: string
  readonly config: Readonly<LogConfig>
  readonly logStartOffset: number
  readonly logEndOffset: number
  readonly highWatermark: number
  /** Total bytes held in segments. */
  readonly sizeBytes: number
  readonly segmentCount: number

  /**
   * Validates producer batches, assigns offsets from the log end, stamps `leaderEpoch`. All or
   * nothing. Idempotent batches (producer id ≥ 0) are checked against the producer state first:
   * a retry of a retained batch returns the original offsets with `duplicate: true`, a retry of
   * an older one is `DuplicateSequenceError`; a sequence gap is `OutOfOrderSequenceError`; an
   * older producer epoch `InvalidProducerEpochError`.
   */
  appendAsLeader(batches: Uint8Array, leaderEpoch: number, options?: LeaderAppendOptions): Promise<AppendResult>
  /** Appends batches fetched from a leader, keeping their offsets and epochs. All or nothing. */
  appendAsFollower(batches: Uint8Array, options?: AbortOptions): Promise<AppendResult>
  /** Whole batches from the one holding `offset`, verified (CRC, offsets, epoch) before they are returned. */
  read(offset: number, options?: ReadOptions): Promise<ReadResult>
  /** Sets the high watermark (clamped to the log end offset); persisted with the next flush. */
  setHighWatermark(offset: number): void
  /** Removes every batch whose last offset is ≥ `offset` (a batch holding `offset` goes whole). */
  truncateTo(offset: number, options?: AbortOptions): Promise<void>
  /** Empties the log and starts it again at `offset` (a follower far behind a leader's log start). */
  truncateFullyAndStartAt(offset: number, options?: AbortOptions): Promise<void>
  /** Advances the log start offset (never past the high watermark) and drops whole segments below it. */
  deleteRecordsBefore(offset: number, options?: AbortOptions): Promise<number>
  /** The first record whose timestamp is ≥ `timestamp`, or null if none is. */
  offsetForTimestamp(timestamp: number, options?: AbortOptions): Promise<TimestampOffset | null>
  /** The idempotent producers this log remembers (Kafka's DescribeProducers), least recently active first. */
  describeProducers(): ProducerDescription[]
  /** Latest leader epoch in the log, or -1. */
  latestEpoch(): number
  /** The leader-epoch cache: where each epoch starts. */
  epochEntries(): readonly EpochEntry[]
  /** KIP-595's end offset for an epoch, used to find where a follower diverges. */
  endOffsetForEpoch(epoch: number): EpochEndOffset
  /** Makes everything appended so far durable, with the high watermark and any producer-state snapshot under way. */
  flush(options?: AbortOptions): Promise<void>
  /** Applies `retention.ms` / `retention.bytes` (delete policy) and the log start offset. */
  applyRetention(options?: AbortOptions): Promise<RetentionResult>
  /** Compacts closed segments below the high watermark (compact policy). */
  compact(options?: AbortOptions): Promise<CompactionResult>
  /** Changes settings of an open log (a topic config change). */
  updateConfig(config: Partial<LogConfig>): void
  /** Flushes, writes the clean-shutdown marker, and releases resources. Idempotent. */
  close(): Promise<void>
  /** Closes and removes all of this partition's data. */
  destroy(): Promise<void>
}

/** Location and bounds of one segment, as a store reports it. */
export interface SegmentInfo {
  baseOffset: number
  /** One past the last offset held (equals baseOffset when empty). */
  nextOffset: number
  sizeBytes: number
  /** Largest batch max timestamp in the segment, or -1 when empty. */
  maxTimestamp: number
  /** When the segment was created (or reopened after an unclean stop), for `segment.ms`. */
  createdAtMs: number
}

/** One validated, stamped batch handed to a store. */
export interface StoredBatch {
  bytes: Uint8Array
  baseOffset: number
  lastOffset: number
  maxTimestamp: number
}

export interface StoreOpenResult {
  /** Segments in offset order; the last one is the active segment. May be empty for a new log. */
  segments: SegmentInfo[]
  /** Checkpoints written with `writeMeta`. */
  meta: Record<string, string>
  /** Whether the store shut down cleanly last time (nothing had to be recovered). */
  cleanShutdown: boolean
}

/** Streams the new content of one segment during compaction; it replaces the old at commit. */
export interface SegmentRewriter {
  append(batch: StoredBatch): Promise<void>
  commit(): Promise<SegmentInfo>
  abort(): Promise<void>
}

/**
 * What a storage backend implements. The engine (`Log`) owns the semantics — validation,
 * offsets, epochs, high watermark, retention and compaction decisions — and a store owns
 * bytes: where segments live, how a batch is found by offset, and recovery of its own files.
 *
 * A store may assume calls that change data never overlap (the engine serializes them), but
 * reads may run alongside appends.
 */
export interface LogStore {
  readonly kind: 'memory' | 'fs' | 'idb'
  /** Opens (creating if absent) and recovers; truncates a torn or corrupt tail of the active segment. */
  open(nowMs: number, options?: AbortOptions): Promise<StoreOpenResult>
  /** Appends batches to the active segment (which exists: the engine rolls first). */
  append(batches: readonly StoredBatch[], options?: AbortOptions): Promise<SegmentInfo>
  /** Closes the active segment (if any) for appends and starts an empty one at `baseOffset`. */
  roll(baseOffset: number, nowMs: number, options?: AbortOptions): Promise<SegmentInfo>
  /**
   * Whole batches of one segment, starting with the batch that holds `offset` (or the first
   * batch after it), in stored order, adding batches while the total stays ≤ `maxBytes` but
   * always at least one when the segment has one. Empty when the segment holds nothing at or
   * after `offset`. The engine verifies what comes back.
   */
  read(segmentBase: number, offset: number, maxBytes: number, options?: AbortOptions): Promise<Uint8Array>
  /** An offset in the segment from which a forward scan finds the first batch with max timestamp ≥ `timestamp`. */
  timeLookup(segmentBase: number, timestamp: number, options?: AbortOptions): Promise<number>
  /** Cuts a segment before the batch holding `offset`; that segment becomes the active one. */
  truncate(segmentBase: number, offset: number, options?: AbortOptions): Promise<SegmentInfo>
  /** Deletes whole segments. */
  deleteSegments(baseOffsets: readonly number[], options?: AbortOptions): Promise<void>
  /** Starts rewriting a closed segment (compaction). */
  rewriteSegment(segmentBase: number, options?: AbortOptions): Promise<SegmentRewriter>
  /**
   * Stores checkpoints (high watermark, log start offset, leader epochs, cleaner state, producer
   * state). Entries whose name ends in `.snapshot` are large and rarely written; a store may keep
   * them apart so the frequent small checkpoints do not rewrite them.
   */
  writeMeta(entries: Record<string, string>, options?: AbortOptions & { durable?: boolean }): Promise<void>
  /** Makes all appended data durable. */
  flush(options?: AbortOptions): Promise<void>
  /**
   * Optional: makes the batches appended so far durable — their bytes only, not indexes or
   * checkpoints, which recovery rebuilds — while appends and rolls go on: the one call a store
   * must allow alongside changes. The engine never runs it beside a truncation, deletion or
   * close. A store without it is flushed (`flush`) in the engine's write turn instead.
   */
  syncAppended?(options?: AbortOptions): Promise<void>
  /** Releases resources; with `clean`, records a clean shutdown so the next open skips recovery. */
  close(clean: boolean): Promise<void>
  /** Removes all data of this partition. */
  destroy(): Promise<void>
}
