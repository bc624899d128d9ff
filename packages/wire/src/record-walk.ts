/**
 * The one parser of a batch's records section, shared by decoding (which builds records),
 * visiting (which hands each record's fields to a callback, so a caller builds its own objects
 * without a BatchRecord in between) and validation (which only checks them, allocating nothing
 * per record). Keeping a single walker
 * means both apply exactly the same structural rules:
 *   - each record's length varint matches the bytes its fields take;
 *   - exactly header.recordCount records, and no trailing bytes;
 *   - offsetDeltas strictly increase and stay ≤ lastOffsetDelta;
 *   - header keys are valid UTF-8; no negative lengths other than -1 for null.
 */
import { ByteReader } from './byte-reader.js'
import { CorruptRecordError, InvalidRecordError } from './errors.js'
import { type BatchRecord, MIN_RECORD_SIZE, type RecordBatchHeader, type RecordHeader } from './record-batch-format.js'
import { decodeUtf8, isValidUtf8 } from './utf8.js'

export interface WalkRules {
  /** A null key is an InvalidRecordError (compacted topics). */
  requireKeys?: boolean
  /** offsetDelta of record i must be i, and lastOffsetDelta recordCount-1 (InvalidRecordError). */
  sequentialOffsets?: boolean
}

const NO_RULES: WalkRules = {}

/**
 * Called once per record, in order. Keys, values and header values are views into the batch's
 * bytes (or its decompressed records), not copies; `headers` is null when the record has none.
 */
export type RecordVisitor = (
  offset: number,
  timestamp: number,
  key: Uint8Array | null,
  value: Uint8Array | null,
  headers: RecordHeader[] | null,
) => void

/**
 * Walks the records in buf[start, end). With `out` an array, decoded records are appended to it,
 * their keys and values being views into `buf`; with `out` a visitor, each record's fields are
 * handed to it; without, records are only checked.
 */
export function walkRecords(
  buf: Uint8Array,
  start: number,
  end: number,
  header: RecordBatchHeader,
  out: BatchRecord[] | RecordVisitor | null,
  rules: WalkRules = NO_RULES,
): void {
  const count = header.recordCount
  // Checked before anything is allocated for the records: a hostile count cannot cost memory.
  if (count > (end - start) / MIN_RECORD_SIZE) {
    throw new CorruptRecordError(
      `record batch declares ${count} records but has only ${end - start} bytes of records (at least ${MIN_RECORD_SIZE} each)`,
    )
  }
  const { baseOffset, firstTimestamp, maxTimestamp, lastOffsetDelta } = header
  const requireKeys = rules.requireKeys === true
  const sequential = rules.sequentialOffsets === true
  if (sequential && lastOffsetDelta !== count - 1) {
    throw new InvalidRecordError(
      `record batch has ${count} records but lastOffsetDelta ${lastOffsetDelta}; offsets must be sequential`,
    )
  }
  const logAppendTime = header.timestampType === 'LogAppendTime'
  const reader = new ByteReader(buf, start, end)
  let previousDelta = -1
  for (let i = 0; i < count; i++) {
    const length = reader.varint()
    const recordStart = reader.pos
    if (length < MIN_RECORD_SIZE - 1 || length > end - recordStart) {
      throw new CorruptRecordError(`record ${i} declares invalid length ${length} (${end - recordStart} bytes left)`)
    }
    const recordEnd = recordStart + length
    // Fields of this record may not read into the next one.
    reader.end = recordEnd
    const attributes = reader.int8()
    const timestampDelta = reader.varlong()
    const offsetDelta = reader.varint()
    if (offsetDelta <= previousDelta || offsetDelta > lastOffsetDelta) {
      throw new CorruptRecordError(
        `record ${i} has offsetDelta ${offsetDelta}; deltas must increase strictly up to lastOffsetDelta ${lastOffsetDelta}`,
      )
    }
    if (sequential && offsetDelta !== i) {
      throw new InvalidRecordError(`record ${i} has offsetDelta ${offsetDelta}; offsets must be sequential`)
    }
    previousDelta = offsetDelta
    let key: Uint8Array | null = null
    let value: Uint8Array | null = null
    let keyIsNull: boolean
    if (out === null) {
      keyIsNull = reader.skipBytes() === -1
      reader.skipBytes()
    } else {
      key = reader.bytes()
      value = reader.bytes()
      keyIsNull = key === null
    }
    if (requireKeys && keyIsNull) {
      throw new InvalidRecordError(
        `record ${i} (offsetDelta ${offsetDelta}) has a null key; compacted topics require keys`,
      )
    }
    const headers = walkHeaders(reader, out !== null)
    if (reader.pos !== recordEnd) {
      throw new CorruptRecordError(
        `record ${i} declares ${length} bytes but its fields take ${reader.pos - recordStart}`,
      )
    }
    reader.end = end
    const timestamp = logAppendTime ? maxTimestamp : firstTimestamp + timestampDelta
    if (!Number.isSafeInteger(timestamp)) {
      throw new CorruptRecordError(`record ${i} has a timestamp outside the safe integer range`)
    }
    if (typeof out === 'function') {
      out(baseOffset + offsetDelta, timestamp, key, value, headers)
    } else if (out !== null) {
      out.push({
        attributes,
        offsetDelta,
        offset: baseOffset + offsetDelta,
        timestampDelta,
        timestamp,
        key,
        value,
        headers: headers ?? [],
      })
    }
  }
  if (reader.pos !== end) {
    throw new CorruptRecordError(`record batch has ${end - reader.pos} bytes after its ${count} records`)
  }
}

/** Reads (decode) or checks (validate) a record's headers; returns them only when decoding. */
function walkHeaders(reader: ByteReader, decode: boolean): RecordHeader[] | null {
  const count = reader.varint()
  if (count === 0) return null
  // Each header takes at least 2 bytes (two one-byte lengths).
  if (count < 0 || count > (reader.end - reader.pos) / 2) {
    throw new CorruptRecordError(
      `record declares invalid header count ${count} (${reader.end - reader.pos} bytes left)`,
    )
  }
  const headers: RecordHeader[] | null = decode ? [] : null
  const buf = reader.buf
  for (let j = 0; j < count; j++) {
    const keyLength = reader.varint()
    const keyStart = reader.pos
    if (keyLength < 0 || keyLength > reader.end - keyStart) {
      throw new CorruptRecordError(`record header key has invalid length ${keyLength}`)
    }
    reader.pos = keyStart + keyLength
    if (headers !== null) {
      const key = decodeUtf8(buf, keyStart, keyStart + keyLength)
      headers.push({ key, value: reader.bytes() })
    } else {
      if (!isValidUtf8(buf, keyStart, keyStart + keyLength)) {
        throw new CorruptRecordError('record header key is not valid UTF-8')
      }
      reader.skipBytes()
    }
  }
  return headers
}
