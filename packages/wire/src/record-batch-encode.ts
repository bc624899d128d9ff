/**
 * Encoding record batches. The exact size is computed first, one buffer is allocated, and every
 * field is written straight into it: no per-record allocation, no DataView, no intermediate
 * arrays. This is the producer's hot path (≥ 3M small records/s on one core).
 */
import { writeInt16, writeInt32, writeInt64 } from './bytes.js'
import { codecFor } from './compression.js'
import { crc32c } from './crc32c.js'
import { InvalidRecordError, RecordTooLargeError, UnsupportedCompressionError } from './errors.js'
import {
  ATTRIBUTES_OFFSET,
  BASE_SEQUENCE_OFFSET,
  BATCH_LENGTH_OFFSET,
  COMPRESSION_NAMES,
  CONTROL_FLAG,
  type CompressionName,
  CRC_OFFSET,
  FIRST_TIMESTAMP_OFFSET,
  LAST_OFFSET_DELTA_OFFSET,
  MAGIC_OFFSET,
  MAGIC_V2,
  MAX_TIMESTAMP_OFFSET,
  MIN_BATCH_LENGTH,
  PARTITION_LEADER_EPOCH_OFFSET,
  PRODUCER_EPOCH_OFFSET,
  PRODUCER_ID_OFFSET,
  RECORD_BATCH_OVERHEAD,
  RECORD_COUNT_OFFSET,
  type RecordHeader,
  TIMESTAMP_TYPE_FLAG,
  type TimestampType,
  TRANSACTIONAL_FLAG,
} from './record-batch-format.js'
import { utf8Length, writeUtf8 } from './utf8.js'
import { varintSizeUnchecked, varlongSizeUnchecked, writeVarintUnchecked, writeVarlongUnchecked } from './varint.js'

export interface RecordInput {
  /** Omitted or null: a null key (distinct from an empty one). */
  key?: Uint8Array | null
  value: Uint8Array | null
  headers?: RecordHeader[]
  /** Milliseconds; defaults to the batch's single Date.now(). */
  timestamp?: number
  /** Defaults to the record's index. Must increase strictly. */
  offsetDelta?: number
}

export interface EncodeBatchOptions {
  /** May be empty only when lastOffsetDelta is given (an empty placeholder batch, as Kafka's cleaner keeps). */
  records: RecordInput[]
  baseOffset?: number
  partitionLeaderEpoch?: number
  compression?: CompressionName
  timestampType?: TimestampType
  transactional?: boolean
  control?: boolean
  producerId?: number
  producerEpoch?: number
  baseSequence?: number
  /** Defaults to the largest offsetDelta. */
  lastOffsetDelta?: number
  /** Defaults to the smallest record timestamp (-1 without records). */
  firstTimestamp?: number
  /** Defaults to the largest record timestamp (-1 without records). */
  maxTimestamp?: number
}

/** Everything about a batch except its records' bytes, validated. */
interface BatchPlan {
  records: RecordInput[]
  compression: CompressionName
  attributes: number
  baseOffset: number
  partitionLeaderEpoch: number
  lastOffsetDelta: number
  firstTimestamp: number
  maxTimestamp: number
  producerId: number
  producerEpoch: number
  baseSequence: number
  /** Timestamp for records without one. */
  now: number
  /** Bytes of the uncompressed records section. */
  recordsSize: number
}

// Largest batchLength an int32 can hold, minus the fixed header fields it counts.
const MAX_RECORDS_SIZE = 0x7fffffff - MIN_BATCH_LENGTH
const INT32_MAX = 0x7fffffff

// Per-record body sizes from the sizing pass, reused across calls (encoding is synchronous up to
// the compression step, so calls never interleave on it).
let bodySizes = new Int32Array(1024)

/** Encodes a batch with any supported compression. */
export async function encodeRecordBatch(options: EncodeBatchOptions): Promise<Uint8Array> {
  const plan = planBatch(options)
  const codec = codecFor(plan.compression)
  if (codec === null) return writeBatch(plan, null)
  const records = new Uint8Array(plan.recordsSize)
  writeRecords(plan, records, 0)
  return writeBatch(plan, await codec.compress(records))
}

/** Encodes an uncompressed batch synchronously (compression is asynchronous everywhere). */
export function encodeRecordBatchSync(options: EncodeBatchOptions): Uint8Array {
  const plan = planBatch(options)
  if (plan.compression !== 'none') {
    codecFor(plan.compression) // throws for codecs that are not supported at all
    throw new UnsupportedCompressionError(
      `${plan.compression} compression is asynchronous: use encodeRecordBatch instead of encodeRecordBatchSync`,
    )
  }
  return writeBatch(plan, null)
}

function planBatch(options: EncodeBatchOptions): BatchPlan {
  const records = options.records
  if (!Array.isArray(records)) throw new InvalidRecordError('records must be an array')
  const count = records.length
  const compression = options.compression ?? 'none'
  const compressionId = COMPRESSION_NAMES.indexOf(compression)
  if (compressionId < 0) throw new UnsupportedCompressionError(`unknown compression type '${String(compression)}'`)
  const timestampType = options.timestampType ?? 'CreateTime'
  if (timestampType !== 'CreateTime' && timestampType !== 'LogAppendTime') {
    throw new InvalidRecordError(`unknown timestamp type '${String(timestampType)}'`)
  }
  const attributes =
    compressionId |
    (timestampType === 'LogAppendTime' ? TIMESTAMP_TYPE_FLAG : 0) |
    (options.transactional ? TRANSACTIONAL_FLAG : 0) |
    (options.control ? CONTROL_FLAG : 0)

  const baseOffset = safeInteger(options.baseOffset ?? 0, 'baseOffset')
  const partitionLeaderEpoch = int32(options.partitionLeaderEpoch ?? -1, 'partitionLeaderEpoch')
  const producerId = safeInteger(options.producerId ?? -1, 'producerId')
  const producerEpoch = options.producerEpoch ?? -1
  if (!Number.isInteger(producerEpoch) || producerEpoch < -0x8000 || producerEpoch > 0x7fff) {
    throw new InvalidRecordError(`producerEpoch ${producerEpoch} is not a 16-bit integer`)
  }
  const baseSequence = int32(options.baseSequence ?? -1, 'baseSequence')

  // Pass 1: timestamps and offset deltas, which the sizes depend on.
  let now = Number.NaN
  let minTimestamp = Number.POSITIVE_INFINITY
  let maxTimestamp = Number.NEGATIVE_INFINITY
  let previousDelta = -1
  for (let i = 0; i < count; i++) {
    const record = records[i]!
    let timestamp = record.timestamp
    if (timestamp === undefined) {
      if (Number.isNaN(now)) now = Date.now()
      timestamp = now
    } else if (!Number.isSafeInteger(timestamp)) {
      throw new InvalidRecordError(`record ${i} has timestamp ${timestamp}, not a safe integer`)
    }
    if (timestamp < minTimestamp) minTimestamp = timestamp
    if (timestamp > maxTimestamp) maxTimestamp = timestamp
    const offsetDelta = record.offsetDelta ?? i
    if ((offsetDelta | 0) !== offsetDelta || offsetDelta <= previousDelta) {
      throw new InvalidRecordError(
        `record ${i} has offsetDelta ${offsetDelta}; deltas must be 32-bit integers ≥ 0 that strictly increase`,
      )
    }
    previousDelta = offsetDelta
  }
  if (count === 0 && options.lastOffsetDelta === undefined) {
    throw new InvalidRecordError(
      'a batch needs at least one record (or an explicit lastOffsetDelta for an empty batch)',
    )
  }
  const lastOffsetDelta = int32(options.lastOffsetDelta ?? previousDelta, 'lastOffsetDelta')
  if (lastOffsetDelta < previousDelta || lastOffsetDelta < 0) {
    throw new InvalidRecordError(
      `lastOffsetDelta ${lastOffsetDelta} is below the last record's offsetDelta ${previousDelta}`,
    )
  }
  if (!Number.isSafeInteger(baseOffset + lastOffsetDelta)) {
    throw new InvalidRecordError(`baseOffset ${baseOffset} + lastOffsetDelta ${lastOffsetDelta} is not a safe integer`)
  }
  const firstTimestamp = safeInteger(options.firstTimestamp ?? (count > 0 ? minTimestamp : -1), 'firstTimestamp')
  const plan: BatchPlan = {
    records,
    compression,
    attributes,
    baseOffset,
    partitionLeaderEpoch,
    lastOffsetDelta,
    firstTimestamp,
    maxTimestamp: safeInteger(options.maxTimestamp ?? (count > 0 ? maxTimestamp : -1), 'maxTimestamp'),
    producerId,
    producerEpoch,
    baseSequence,
    now,
    recordsSize: 0,
  }
  plan.recordsSize = sizeRecords(plan)
  return plan
}

/** Pass 2: each record's body size into `bodySizes`; returns the records section's total size. */
function sizeRecords(plan: BatchPlan): number {
  const records = plan.records
  const count = records.length
  if (bodySizes.length < count) bodySizes = new Int32Array(Math.max(count, bodySizes.length * 2))
  const sizes = bodySizes
  const firstTimestamp = plan.firstTimestamp
  let total = 0
  for (let i = 0; i < count; i++) {
    const record = records[i]!
    const timestampDelta = (record.timestamp ?? plan.now) - firstTimestamp
    if (!Number.isSafeInteger(timestampDelta)) {
      throw new InvalidRecordError(`record ${i} is too far from firstTimestamp ${firstTimestamp} to encode`)
    }
    let size = 1 + varlongSizeUnchecked(timestampDelta) + varintSizeUnchecked(record.offsetDelta ?? i)
    size += bytesFieldSize(record.key ?? null, i, 'key')
    size += bytesFieldSize(record.value, i, 'value')
    const headers = record.headers
    if (headers === undefined || headers.length === 0) {
      size += 1
    } else {
      size += headersSize(headers, i)
    }
    sizes[i] = size
    total += varintSizeUnchecked(size) + size
    if (total > MAX_RECORDS_SIZE) throw new RecordTooLargeError('records do not fit in one batch (2 GiB)')
  }
  return total
}

function bytesFieldSize(bytes: Uint8Array | null | undefined, index: number, field: string): number {
  if (bytes === null) return 1
  if (!(bytes instanceof Uint8Array))
    throw new InvalidRecordError(`record ${index} ${field} must be a Uint8Array or null`)
  const length = bytes.length
  if (length > INT32_MAX) throw new RecordTooLargeError(`record ${index} ${field} is larger than 2 GiB`)
  return varintSizeUnchecked(length) + length
}

function headersSize(headers: RecordHeader[], index: number): number {
  if (!Array.isArray(headers)) throw new InvalidRecordError(`record ${index} headers must be an array`)
  let size = varintSizeUnchecked(headers.length)
  for (const header of headers) {
    if (typeof header?.key !== 'string')
      throw new InvalidRecordError(`record ${index} has a header without a string key`)
    const keyLength = utf8Length(header.key)
    size += varintSizeUnchecked(keyLength) + keyLength + bytesFieldSize(header.value, index, `header '${header.key}'`)
  }
  return size
}

/** Writes the records section at `pos`, using the sizes from sizeRecords. Returns the end position. */
function writeRecords(plan: BatchPlan, buf: Uint8Array, pos: number): number {
  const records = plan.records
  const count = records.length
  const sizes = bodySizes
  const firstTimestamp = plan.firstTimestamp
  const now = plan.now
  for (let i = 0; i < count; i++) {
    const record = records[i]!
    pos = writeVarintUnchecked(buf, pos, sizes[i]!)
    buf[pos++] = 0 // record attributes: unused since Kafka 0.11
    pos = writeVarlongUnchecked(buf, pos, (record.timestamp ?? now) - firstTimestamp)
    pos = writeVarintUnchecked(buf, pos, record.offsetDelta ?? i)
    pos = writeBytesField(buf, pos, record.key ?? null)
    pos = writeBytesField(buf, pos, record.value)
    const headers = record.headers
    if (headers === undefined || headers.length === 0) {
      buf[pos++] = 0
    } else {
      pos = writeVarintUnchecked(buf, pos, headers.length)
      for (const header of headers) {
        pos = writeVarintUnchecked(buf, pos, utf8Length(header.key))
        pos = writeUtf8(buf, pos, header.key)
        pos = writeBytesField(buf, pos, header.value)
      }
    }
  }
  return pos
}

function writeBytesField(buf: Uint8Array, pos: number, bytes: Uint8Array | null): number {
  if (bytes === null) {
    buf[pos] = 1 // zigzag(-1)
    return pos + 1
  }
  const length = bytes.length
  pos = writeVarintUnchecked(buf, pos, length)
  // TypedArray#set is a memcpy in V8; measured faster than a byte loop even for 16-byte keys.
  buf.set(bytes, pos)
  return pos + length
}

/** Lays out header + records (written here, or the given compressed blob) and seals the CRC. */
function writeBatch(plan: BatchPlan, compressed: Uint8Array | null): Uint8Array {
  const recordsLength = compressed === null ? plan.recordsSize : compressed.length
  if (recordsLength > MAX_RECORDS_SIZE)
    throw new RecordTooLargeError('compressed records do not fit in one batch (2 GiB)')
  const buf = new Uint8Array(RECORD_BATCH_OVERHEAD + recordsLength)
  writeInt64(buf, 0, plan.baseOffset)
  writeInt32(buf, BATCH_LENGTH_OFFSET, MIN_BATCH_LENGTH + recordsLength)
  writeInt32(buf, PARTITION_LEADER_EPOCH_OFFSET, plan.partitionLeaderEpoch)
  buf[MAGIC_OFFSET] = MAGIC_V2
  writeInt16(buf, ATTRIBUTES_OFFSET, plan.attributes)
  writeInt32(buf, LAST_OFFSET_DELTA_OFFSET, plan.lastOffsetDelta)
  writeInt64(buf, FIRST_TIMESTAMP_OFFSET, plan.firstTimestamp)
  writeInt64(buf, MAX_TIMESTAMP_OFFSET, plan.maxTimestamp)
  writeInt64(buf, PRODUCER_ID_OFFSET, plan.producerId)
  writeInt16(buf, PRODUCER_EPOCH_OFFSET, plan.producerEpoch)
  writeInt32(buf, BASE_SEQUENCE_OFFSET, plan.baseSequence)
  writeInt32(buf, RECORD_COUNT_OFFSET, plan.records.length)
  if (compressed === null) writeRecords(plan, buf, RECORD_BATCH_OVERHEAD)
  else buf.set(compressed, RECORD_BATCH_OVERHEAD)
  writeInt32(buf, CRC_OFFSET, crc32c(buf.subarray(ATTRIBUTES_OFFSET)))
  return buf
}

function safeInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value)) throw new InvalidRecordError(`${name} ${value} is not a safe integer`)
  return value
}

function int32(value: number, name: string): number {
  if ((value | 0) !== value) throw new InvalidRecordError(`${name} ${value} is not a 32-bit integer`)
  return value
}
