/**
 * Reading a batch's fixed 61-byte header, walking concatenated batches, and checking the CRC.
 * These run on every batch the log stores or serves, so they read fields directly from the
 * bytes and never look at the records.
 */
import { readInt16, readInt32, readInt64, readUint32 } from './bytes.js'
import { crc32c } from './crc32c.js'
import { CorruptRecordError } from './errors.js'
import {
  ATTRIBUTES_OFFSET,
  BASE_SEQUENCE_OFFSET,
  BATCH_LENGTH_OFFSET,
  COMPRESSION_MASK,
  COMPRESSION_NAMES,
  CONTROL_FLAG,
  CRC_OFFSET,
  DELETE_HORIZON_FLAG,
  FIRST_TIMESTAMP_OFFSET,
  LAST_OFFSET_DELTA_OFFSET,
  LOG_OVERHEAD,
  MAGIC_OFFSET,
  MAGIC_V2,
  MAX_TIMESTAMP_OFFSET,
  MIN_BATCH_LENGTH,
  PARTITION_LEADER_EPOCH_OFFSET,
  PRODUCER_EPOCH_OFFSET,
  PRODUCER_ID_OFFSET,
  RECORD_BATCH_OVERHEAD,
  RECORD_COUNT_OFFSET,
  type RecordBatchHeader,
  TIMESTAMP_TYPE_FLAG,
  TRANSACTIONAL_FLAG,
} from './record-batch-format.js'

/**
 * Size in bytes (12 + batchLength) of the batch at `pos`, after checking that a whole header
 * is present, batchLength is plausible, the batch fits in `bytes`, and magic is 2.
 */
export function batchSizeAt(bytes: Uint8Array, pos = 0): number {
  checkPosition(bytes, pos)
  const available = bytes.length - pos
  if (available < RECORD_BATCH_OVERHEAD) {
    throw new CorruptRecordError(
      `record batch is truncated: ${available} bytes at position ${pos}, a batch header needs ${RECORD_BATCH_OVERHEAD}`,
    )
  }
  const batchLength = readInt32(bytes, pos + BATCH_LENGTH_OFFSET)
  if (batchLength < MIN_BATCH_LENGTH) {
    throw new CorruptRecordError(`record batch at position ${pos} declares length ${batchLength}, below the minimum 49`)
  }
  if (batchLength > available - LOG_OVERHEAD) {
    throw new CorruptRecordError(
      `record batch is truncated: batch at position ${pos} declares ${batchLength} bytes but only ${available - LOG_OVERHEAD} follow`,
    )
  }
  const magic = bytes[pos + MAGIC_OFFSET]!
  if (magic !== MAGIC_V2) {
    throw new CorruptRecordError(
      `record batch at position ${pos} has magic ${magic}; only magic 2 (RecordBatch v2) is supported`,
    )
  }
  return LOG_OVERHEAD + batchLength
}

/** Parses and sanity-checks the header of the batch at `pos`. Does not check the CRC. */
export function readBatchHeader(bytes: Uint8Array, pos = 0): RecordBatchHeader {
  const size = batchSizeAt(bytes, pos)
  const baseOffset = readInt64(bytes, pos)
  const firstTimestamp = readInt64(bytes, pos + FIRST_TIMESTAMP_OFFSET)
  const maxTimestamp = readInt64(bytes, pos + MAX_TIMESTAMP_OFFSET)
  const producerId = readInt64(bytes, pos + PRODUCER_ID_OFFSET)
  if (Number.isNaN(baseOffset + firstTimestamp + maxTimestamp + producerId)) {
    throw new CorruptRecordError(
      `record batch at position ${pos} has a base offset, timestamp or producer id outside the safe integer range`,
    )
  }
  const attributes = readInt16(bytes, pos + ATTRIBUTES_OFFSET)
  const compressionId = attributes & COMPRESSION_MASK
  const compression = COMPRESSION_NAMES[compressionId]
  if (compression === undefined) {
    throw new CorruptRecordError(`record batch at position ${pos} uses unknown compression type id ${compressionId}`)
  }
  const lastOffsetDelta = readInt32(bytes, pos + LAST_OFFSET_DELTA_OFFSET)
  if (lastOffsetDelta < 0 || !Number.isSafeInteger(baseOffset + lastOffsetDelta)) {
    throw new CorruptRecordError(`record batch at position ${pos} has an invalid last offset delta ${lastOffsetDelta}`)
  }
  const recordCount = readInt32(bytes, pos + RECORD_COUNT_OFFSET)
  if (recordCount < 0) {
    throw new CorruptRecordError(`record batch at position ${pos} has a negative record count ${recordCount}`)
  }
  return {
    baseOffset,
    batchLength: size - LOG_OVERHEAD,
    partitionLeaderEpoch: readInt32(bytes, pos + PARTITION_LEADER_EPOCH_OFFSET),
    magic: MAGIC_V2,
    crc: readUint32(bytes, pos + CRC_OFFSET),
    attributes,
    compression,
    timestampType: attributes & TIMESTAMP_TYPE_FLAG ? 'LogAppendTime' : 'CreateTime',
    transactional: (attributes & TRANSACTIONAL_FLAG) !== 0,
    control: (attributes & CONTROL_FLAG) !== 0,
    hasDeleteHorizonMs: (attributes & DELETE_HORIZON_FLAG) !== 0,
    lastOffsetDelta,
    firstTimestamp,
    maxTimestamp,
    producerId,
    producerEpoch: readInt16(bytes, pos + PRODUCER_EPOCH_OFFSET),
    baseSequence: readInt32(bytes, pos + BASE_SEQUENCE_OFFSET),
    recordCount,
  }
}

/** Whether the CRC32C of bytes [pos+21, pos+12+batchLength) equals the stored crc. */
export function verifyBatchCrc(bytes: Uint8Array, pos = 0): boolean {
  const size = batchSizeAt(bytes, pos)
  return computeBatchCrc(bytes, pos, size) === readUint32(bytes, pos + CRC_OFFSET)
}

/** CRC32C over the CRC-covered region of a batch whose bounds have been checked. */
export function computeBatchCrc(bytes: Uint8Array, pos: number, size: number): number {
  return crc32c(bytes.subarray(pos + ATTRIBUTES_OFFSET, pos + size))
}

/** Walks concatenated batches (a segment, a fetch response). A trailing partial batch is corrupt. */
export function* iterateBatches(
  bytes: Uint8Array,
): Generator<{ pos: number; size: number; header: RecordBatchHeader }> {
  let pos = 0
  while (pos < bytes.length) {
    const header = readBatchHeader(bytes, pos)
    const size = LOG_OVERHEAD + header.batchLength
    yield { pos, size, header }
    pos += size
  }
}

/** A bad position is the caller's bug, not bad data. */
export function checkPosition(bytes: Uint8Array, pos: number): void {
  if (!Number.isInteger(pos) || pos < 0 || pos > bytes.length) {
    throw new RangeError(`position ${pos} is outside the ${bytes.length}-byte buffer`)
  }
}
