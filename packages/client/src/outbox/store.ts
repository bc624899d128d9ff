/**
 * What an outbox keeps durably, and the storage contract its backends honour (IndexedDB in
 * browsers, memory for tests and for Node processes that accept losing the outbox with the
 * process). Every method is one atomic step: after a crash the store holds either all of a step
 * or none of it. The outbox's rules live in the outbox; a store only keeps rows and counters.
 *
 * Rows:
 * - `meta`: the producer id (chosen once, at first open), the next record id, and the counts of
 *   records and bytes held (for the size bound, checked inside the append step);
 * - `records`: records as enqueued, not yet given a partition or sequence (id order = enqueue order).
 *   How they are laid out is the backend's choice — IndexedDB keeps one row per append, the file
 *   store one journal line per append — but each id is a record of its own: `unsealed` may
 *   stop inside an append, and a commit may remove any of its records;
 * - `batches`: sealed batches — partition, producer epoch and base sequence fixed — waiting for
 *   their acknowledgement. A batch's id is its first record's id, so id order is enqueue order;
 * - `sequences`: per partition, the producer epoch and the next sequence to hand out;
 * - `topics`: the partition count last learned per topic.
 */
import type { RecordHeader } from '@tributary/wire'

export interface OutboxMeta {
  producerId: number
  nextRecordId: number
  /** Records held (unsealed and sealed). */
  records: number
  /** Their estimated encoded bytes. */
  bytes: number
}

export interface StoredRecord {
  id: number
  topic: string
  /** Chosen by the caller (else the partitioner picks one when the record is sealed). */
  partition: number | null
  key: Uint8Array | null
  value: Uint8Array | null
  headers: RecordHeader[]
  /** Fixed at enqueue, so every resend encodes the same record. */
  timestamp: number
  /** Estimated encoded size. */
  size: number
}

export interface SealedBatch {
  /** The id of its first record. */
  id: number
  topic: string
  partition: number
  producerEpoch: number
  baseSequence: number
  /** In enqueue order. */
  records: StoredRecord[]
  /** Sum of the records' sizes. */
  bytes: number
}

export interface PartitionSequence {
  topic: string
  partition: number
  producerEpoch: number
  /**
   * Batches with an id ≥ this are sent under `producerEpoch`, whatever epoch they were sealed
   * with: after a batch was refused for good (or the leader lost our sequence), the partition's
   * remaining batches continue under a new epoch, whose first batch the leader takes at any
   * sequence. Recorded here rather than by rewriting the batches, so the switch is one small
   * atomic write and a resend after a crash encodes the same epoch again.
   */
  epochFrom: number
  /** The sequence of the next record sealed for this partition. */
  next: number
}

export interface TopicPartitions {
  topic: string
  partitions: number
}

export interface OutboxSnapshot {
  meta: OutboxMeta
  sequences: PartitionSequence[]
  topics: TopicPartitions[]
}

export interface OutboxLimits {
  maxRecords: number
  maxBytes: number
}

/** One atomic write of the delivery side. */
export interface OutboxChange {
  putBatches?: SealedBatch[]
  deleteBatchIds?: number[]
  deleteRecordIds?: number[]
  putSequences?: PartitionSequence[]
  putTopics?: TopicPartitions[]
  /** Records and bytes leaving the outbox (delivered or failed). */
  released?: { records: number; bytes: number }
}

export interface OutboxStore {
  /** A stable name for messages and locks. */
  readonly name: string
  /** Opens (creating with `newProducerId()` on first use) and returns what delivery starts from. */
  open(newProducerId: () => number, signal?: AbortSignal): Promise<OutboxSnapshot>
  /**
   * Appends records (ids assigned here, consecutive) if the outbox stays within `limits`; else
   * writes nothing and throws OutboxFullError. A full storage quota is StorageQuotaError, with
   * nothing written. `onIds` is told the ids synchronously before the records can be read by
   * anyone (so a caller can wait for their delivery without a race); if the append then fails,
   * the ids were never used.
   */
  append(
    records: ReadonlyArray<Omit<StoredRecord, 'id'>>,
    limits: OutboxLimits,
    onIds?: (ids: number[]) => void,
  ): Promise<number[]>
  /** Unsealed records in id order: at most `maxRecords`, and stopping once `maxBytes` is reached. */
  unsealed(maxRecords: number, maxBytes: number): Promise<StoredRecord[]>
  /** Sealed batches in id order, at most `limit`. */
  batches(limit: number): Promise<SealedBatch[]>
  commit(change: OutboxChange): Promise<void>
  /** Current counts. */
  meta(): Promise<OutboxMeta>
  close(): void
}
