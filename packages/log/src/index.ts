/**
 * The Tributary partition log: an ordered, append-only sequence of Kafka RecordBatch v2
 * batches with Kafka's semantics — offsets, leader epochs, high watermark, retention,
 * compaction, crash recovery — over three interchangeable stores, each a subpath so that a
 * browser bundle never sees `node:fs` and a Node bundle never sees IndexedDB code:
 *
 * ```ts
 * import { openFsLog } from '@tributary/log/fs'            // Node: segment files
 * import { openIdbLog } from '@tributary/log/idb'          // browser: IndexedDB
 * import { openMemoryLog } from '@tributary/log/memory'    // anywhere: tests, ephemeral peers
 *
 * const log = await openFsLog({ dir: './data/orders-0', name: 'orders-0', topicConfig: { 'retention.ms': 86_400_000 } })
 * const { firstOffset } = await log.appendAsLeader(batchBytes, leaderEpoch)
 * log.setHighWatermark(log.logEndOffset)
 * const { records, nextOffset } = await log.read(firstOffset, { maxBytes: 1 << 20 })
 * await log.close()
 * ```
 *
 * Idempotent producers (a batch with producer id ≥ 0, epoch and base sequence) are checked on
 * `appendAsLeader`: a retry of one of a producer's last five batches returns the original
 * offsets with `duplicate: true` instead of appending; a retry of an older one is
 * `DuplicateSequenceError` (appended before, offsets unknown); a gap is `OutOfOrderSequenceError`.
 */
export {
  type CleanupPolicy,
  compacts,
  DEFAULT_LOG_CONFIG,
  deletes,
  LOG_CONFIG_NAMES,
  type LogConfig,
  MAX_SEGMENT_BYTES,
  resolveLogConfig,
} from './config.js'
export { LeaderEpochCache } from './leader-epoch-cache.js'
export { Log, type OpenLogOptions, openLog } from './log.js'
export { type Logger, silentLogger } from './logger.js'
export { NO_PRODUCER_ID, type ProducerDescription, RETAINED_BATCHES_PER_PRODUCER } from './producer-state.js'
export type {
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
  SegmentRewriter,
  StoredBatch,
  StoreOpenResult,
  TimestampOffset,
} from './types.js'
