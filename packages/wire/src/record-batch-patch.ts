/**
 * In-place edits a partition leader makes to a producer's batch before appending it, as in
 * Kafka's LogValidator: assign offsets, stamp the leader epoch, and (for LogAppendTime topics)
 * the append time. baseOffset and partitionLeaderEpoch lie before the CRC-covered region, so
 * those patches leave the CRC valid; the append time does not, so that patch reseals the CRC.
 */
import { readInt16, readInt32, writeInt16, writeInt32, writeInt64 } from './bytes.js'
import { InvalidRecordError } from './errors.js'
import {
  ATTRIBUTES_OFFSET,
  CRC_OFFSET,
  LAST_OFFSET_DELTA_OFFSET,
  MAX_TIMESTAMP_OFFSET,
  PARTITION_LEADER_EPOCH_OFFSET,
  TIMESTAMP_TYPE_FLAG,
} from './record-batch-format.js'
import { batchSizeAt, computeBatchCrc } from './record-batch-header.js'

export function setBaseOffset(bytes: Uint8Array, pos: number, baseOffset: number): void {
  batchSizeAt(bytes, pos)
  const lastOffsetDelta = readInt32(bytes, pos + LAST_OFFSET_DELTA_OFFSET)
  if (!Number.isSafeInteger(baseOffset) || !Number.isSafeInteger(baseOffset + lastOffsetDelta)) {
    throw new InvalidRecordError(
      `base offset ${baseOffset} (+ lastOffsetDelta ${lastOffsetDelta}) is not a safe integer`,
    )
  }
  writeInt64(bytes, pos, baseOffset)
}

export function setPartitionLeaderEpoch(bytes: Uint8Array, pos: number, epoch: number): void {
  batchSizeAt(bytes, pos)
  if ((epoch | 0) !== epoch) throw new InvalidRecordError(`partition leader epoch ${epoch} is not a 32-bit integer`)
  writeInt32(bytes, pos + PARTITION_LEADER_EPOCH_OFFSET, epoch)
}

/** Marks the batch LogAppendTime with `timestampMs` as its maxTimestamp, and recomputes the CRC. */
export function setLogAppendTime(bytes: Uint8Array, pos: number, timestampMs: number): void {
  const size = batchSizeAt(bytes, pos)
  if (!Number.isSafeInteger(timestampMs)) throw new InvalidRecordError(`timestamp ${timestampMs} is not a safe integer`)
  writeInt16(bytes, pos + ATTRIBUTES_OFFSET, readInt16(bytes, pos + ATTRIBUTES_OFFSET) | TIMESTAMP_TYPE_FLAG)
  writeInt64(bytes, pos + MAX_TIMESTAMP_OFFSET, timestampMs)
  writeInt32(bytes, pos + CRC_OFFSET, computeBatchCrc(bytes, pos, size))
}
