/**
 * `__consumer_offsets` records to and from the partition log: the coordinator's output becomes
 * one uncompressed batch per append; loading reads every data batch from the log start to a
 * given offset, skipping Raft's control batches (leader changes, voter sets).
 */
import type { PartitionLog } from '@tributary/log'
import { decodeRecordBatch, encodeRecordBatchSync, iterateBatches } from '@tributary/wire'
import type { OffsetsRecord } from '../records/offsets-records.js'

/** Bytes per read while loading a partition. */
const LOAD_READ_BYTES = 1024 * 1024

export function encodeOffsetsBatch(records: readonly OffsetsRecord[], now: number = Date.now()): Uint8Array {
  return encodeRecordBatchSync({
    records: records.map((r) => ({ key: r.key, value: r.value, timestamp: now })),
  })
}

/** Every record of the log below `end` (an exclusive offset, at most the high watermark), in log order. */
export async function readOffsetsLog(log: PartitionLog, end: number, signal: AbortSignal): Promise<OffsetsRecord[]> {
  const records: OffsetsRecord[] = []
  const start = log.logStartOffset
  let offset = start
  // Each read moves past at least one batch (one offset or more), so this many reads always suffice.
  const maxReads = Math.max(0, end - start) + 1
  for (let reads = 0; offset < end && reads < maxReads; reads++) {
    signal.throwIfAborted()
    const result = await log.read(offset, { maxBytes: LOAD_READ_BYTES, maxOffset: end, signal })
    if (result.batchCount === 0 || result.nextOffset <= offset) break
    for (const { pos, header } of iterateBatches(result.records)) {
      if (header.control) continue
      const batch = await decodeRecordBatch(result.records, pos)
      for (const record of batch.records) {
        // Keys are always set by the coordinator; a keyless record cannot be a group's and is skipped.
        if (record.key === null) continue
        records.push({ key: record.key.slice(), value: record.value === null ? null : record.value.slice() })
      }
    }
    offset = result.nextOffset
  }
  return records
}
