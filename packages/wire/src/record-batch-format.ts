/**
 * Kafka RecordBatch v2 (magic 2), the unit Tributary stores and ships byte for byte.
 *
 *   RecordBatch =>                    offset
 *     baseOffset           int64      0
 *     batchLength          int32      8    bytes after this field
 *     partitionLeaderEpoch int32      12
 *     magic                int8       16   = 2
 *     crc                  uint32     17   CRC32C of bytes [21, end)
 *     attributes           int16      21   bits 0-2 compression, 3 timestamp type,
 *                                          4 transactional, 5 control, 6 hasDeleteHorizonMs
 *     lastOffsetDelta      int32      23
 *     firstTimestamp       int64      27
 *     maxTimestamp         int64      35
 *     producerId           int64      43
 *     producerEpoch        int16      51
 *     baseSequence         int32      53
 *     recordCount          int32      57
 *     records              [Record]   61   compressed as one blob when attributes say so
 *
 *   Record =>
 *     length varint, attributes int8, timestampDelta varlong, offsetDelta varint,
 *     keyLength varint (-1 = null) key, valueLength varint (-1 = null) value,
 *     headerCount varint, [headerKeyLength varint, key (UTF-8), headerValueLength varint (-1 = null), value]
 *
 * See Kafka's DefaultRecordBatch.java and DefaultRecord.java.
 */

export const MAGIC_V2 = 2
/** Header bytes before the first record. */
export const RECORD_BATCH_OVERHEAD = 61
/** Bytes that batchLength counts beyond the header fields after it: 61 - 12. */
export const MIN_BATCH_LENGTH = RECORD_BATCH_OVERHEAD - 12
/** baseOffset + batchLength: the part of the header not counted by batchLength. */
export const LOG_OVERHEAD = 12

export const BASE_OFFSET_OFFSET = 0
export const BATCH_LENGTH_OFFSET = 8
export const PARTITION_LEADER_EPOCH_OFFSET = 12
export const MAGIC_OFFSET = 16
export const CRC_OFFSET = 17
export const ATTRIBUTES_OFFSET = 21
export const LAST_OFFSET_DELTA_OFFSET = 23
export const FIRST_TIMESTAMP_OFFSET = 27
export const MAX_TIMESTAMP_OFFSET = 35
export const PRODUCER_ID_OFFSET = 43
export const PRODUCER_EPOCH_OFFSET = 51
export const BASE_SEQUENCE_OFFSET = 53
export const RECORD_COUNT_OFFSET = 57

export const COMPRESSION_MASK = 0x07
export const TIMESTAMP_TYPE_FLAG = 0x08
export const TRANSACTIONAL_FLAG = 0x10
export const CONTROL_FLAG = 0x20
export const DELETE_HORIZON_FLAG = 0x40

/** The smallest record: 1-byte length, attributes, and one-byte timestamp/offset/key/value/header fields. */
export const MIN_RECORD_SIZE = 7

/** Attribute bits 0-2, by id. */
export const COMPRESSION_NAMES = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const
export type CompressionName = (typeof COMPRESSION_NAMES)[number]
export type TimestampType = 'CreateTime' | 'LogAppendTime'

export interface RecordHeader {
  key: string
  value: Uint8Array | null
}

export interface RecordBatchHeader {
  baseOffset: number
  batchLength: number
  partitionLeaderEpoch: number
  magic: number
  crc: number
  attributes: number
  compression: CompressionName
  timestampType: TimestampType
  transactional: boolean
  control: boolean
  /** Attribute bit 6: set by the log cleaner, firstTimestamp then holds the delete horizon. */
  hasDeleteHorizonMs: boolean
  lastOffsetDelta: number
  firstTimestamp: number
  maxTimestamp: number
  producerId: number
  producerEpoch: number
  baseSequence: number
  recordCount: number
}

export interface BatchRecord {
  attributes: number
  offsetDelta: number
  /** baseOffset + offsetDelta */
  offset: number
  timestampDelta: number
  /** firstTimestamp + timestampDelta; for LogAppendTime batches the batch's maxTimestamp, as in Kafka. */
  timestamp: number
  key: Uint8Array | null
  value: Uint8Array | null
  headers: RecordHeader[]
}

export function compressionId(compression: CompressionName): number {
  return COMPRESSION_NAMES.indexOf(compression)
}
