/**
 * Sealing: the durable step that turns unsealed records into batches. Each record gets its
 * partition (the caller's, else the partitioner's over the topic's partition count) and each
 * batch its producer epoch and base sequence; the batches, the partitions' next sequences and
 * the removal of the records are then written in one atomic commit, before the first send.
 * So a batch re-sent after a crash between send and acknowledgement carries the very same
 * records and sequences, and the leader answers it as a duplicate with its original offsets.
 *
 * Why not at enqueue: offline, a topic's partition count may be unknown (never seen, or grown
 * since), and a keyed record must land where Kafka's partitioner puts it for the real count.
 * Records therefore wait unpartitioned, in enqueue order, and are sealed once the count is
 * learned from the mesh — in enqueue order, so per-partition order is enqueue order. Sealing
 * right before sending also lets records queued while a batch was in flight (or while offline)
 * go out together in large batches.
 *
 * A partition's last batch that was never sent may grow: records sealed later for that partition
 * join it while it has room, rather than starting a batch of their own. Sealing while offline
 * runs every second, and an app queueing a record now and then would otherwise leave one small
 * batch per pass — each then a request of its own, one after another, when the mesh is back.
 * Growing is safe only because no leader has seen the batch: its sequence range is still ours to
 * extend (the partition's next sequence is the batch's end, as no batch follows it).
 */
import type { Partitioner } from '../partitioners/index.js'
import { SEQUENCE_MODULUS } from '../producer/idempotence.js'
import type { OutboxChange, PartitionSequence, SealedBatch, StoredRecord } from './store.js'

export interface SealPlan {
  change: OutboxChange
  batches: SealedBatch[]
  /** Records that cannot be sent at all (their partition does not exist), removed by the same commit. */
  rejected: Array<{ record: StoredRecord; reason: string }>
}

export interface SealInput {
  records: readonly StoredRecord[]
  /** Partition metadata of each topic the records name that is known; others' records wait. */
  topics: ReadonlyMap<string, ReadonlyArray<{ partitionId: number; leader: string }>>
  sequences: ReadonlyMap<string, PartitionSequence>
  /** Per partition (sequenceKey), its last sealed batch if it was never sent: new records may join it. */
  growable?: ReadonlyMap<string, SealedBatch>
  partitioner: Partitioner
  maxBatchBytes: number
  maxBatchRecords: number
}

const BATCH_OVERHEAD = 61

export function sequenceKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`
}

export function planSeal(input: SealInput): SealPlan {
  const open = new Map<string, SealedBatch>()
  const batches: SealedBatch[] = []
  const next = new Map<string, PartitionSequence>()
  const rejected: SealPlan['rejected'] = []
  const sealedIds: number[] = []
  for (const record of input.records) {
    const meta = input.topics.get(record.topic)
    if (meta === undefined) continue
    const partition = input.partitioner({
      topic: record.topic,
      partitionMetadata: meta,
      message: { key: record.key, value: record.value, partition: record.partition ?? undefined },
    })
    sealedIds.push(record.id)
    if (!Number.isInteger(partition) || partition < 0 || partition >= meta.length) {
      rejected.push({
        record,
        reason: `partition ${String(partition)} is not in [0, ${meta.length}) (${record.topic} has ${meta.length} partitions)`,
      })
      continue
    }
    const key = sequenceKey(record.topic, partition)
    let batch = open.get(key)
    if (batch === undefined) {
      const last = input.growable?.get(key)
      if (last !== undefined && hasRoom(last, record, input) && endsAtNext(last, input.sequences.get(key))) {
        // Copied: the caller's batch stays as stored until this plan is committed.
        batch = { ...last, records: [...last.records] }
        open.set(key, batch)
        batches.push(batch)
      }
    }
    if (batch !== undefined && !hasRoom(batch, record, input)) batch = undefined
    if (batch === undefined) {
      const sequence = next.get(key) ??
        input.sequences.get(key) ?? { topic: record.topic, partition, producerEpoch: 0, epochFrom: 0, next: 0 }
      batch = {
        id: record.id,
        topic: record.topic,
        partition,
        producerEpoch: sequence.producerEpoch,
        baseSequence: sequence.next,
        records: [],
        bytes: 0,
      }
      open.set(key, batch)
      batches.push(batch)
    }
    batch.records.push(record)
    batch.bytes += record.size
    const sequence = next.get(key) ??
      input.sequences.get(key) ?? { topic: record.topic, partition, producerEpoch: 0, epochFrom: 0, next: 0 }
    next.set(key, { ...sequence, next: (sequence.next + 1) % SEQUENCE_MODULUS })
  }
  const rejectedBytes = rejected.reduce((n, r) => n + r.record.size, 0)
  return {
    batches,
    rejected,
    change: {
      putBatches: batches,
      deleteRecordIds: sealedIds,
      putSequences: [...next.values()],
      ...(rejected.length === 0 ? {} : { released: { records: rejected.length, bytes: rejectedBytes } }),
    },
  }
}

function hasRoom(batch: SealedBatch, record: StoredRecord, limits: SealInput): boolean {
  return (
    batch.records.length < limits.maxBatchRecords && BATCH_OVERHEAD + batch.bytes + record.size <= limits.maxBatchBytes
  )
}

/** The batch holds the partition's last sequences (nothing was sealed after it), so its range may extend. */
function endsAtNext(batch: SealedBatch, sequence: PartitionSequence | undefined): boolean {
  return sequence !== undefined && (batch.baseSequence + batch.records.length) % SEQUENCE_MODULUS === sequence.next
}
