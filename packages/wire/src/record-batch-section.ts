/**
 * Getting from a batch's bytes to its records section: header checks, the CRC, and
 * decompression under a byte cap. Shared by decoding and validation.
 */
import { codecFor } from './compression.js'
import { CorruptRecordError, UnsupportedCompressionError } from './errors.js'
import { LOG_OVERHEAD, RECORD_BATCH_OVERHEAD, type RecordBatchHeader } from './record-batch-format.js'
import { computeBatchCrc, readBatchHeader } from './record-batch-header.js'

/** Default cap on a compressed batch's decompressed size. */
export const DEFAULT_MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024

/** The records, uncompressed, as buf[start, end). */
export interface RecordsSection {
  buf: Uint8Array
  start: number
  end: number
}

/** Reads the header of the batch at `pos` and, unless told not to, checks its CRC. */
export function openBatch(bytes: Uint8Array, pos: number, verifyCrc: boolean | undefined): RecordBatchHeader {
  const header = readBatchHeader(bytes, pos)
  if (verifyCrc !== false) {
    const computed = computeBatchCrc(bytes, pos, LOG_OVERHEAD + header.batchLength)
    if (computed !== header.crc) {
      throw new CorruptRecordError(
        `record batch at position ${pos} (base offset ${header.baseOffset}) fails its CRC check: ` +
          `stored ${hex(header.crc)}, computed ${hex(computed)}`,
      )
    }
  }
  return header
}

/** The records of an uncompressed batch, or an UnsupportedCompressionError pointing at the async API. */
export function uncompressedSection(
  bytes: Uint8Array,
  pos: number,
  header: RecordBatchHeader,
  asyncName: string,
): RecordsSection {
  if (header.compression !== 'none') {
    codecFor(header.compression) // names the codec if it is not supported at all
    throw new UnsupportedCompressionError(
      `record batch at position ${pos} is ${header.compression}-compressed: use ${asyncName}, which can decompress`,
    )
  }
  return { buf: bytes, start: pos + RECORD_BATCH_OVERHEAD, end: pos + LOG_OVERHEAD + header.batchLength }
}

/** The records of any batch, decompressed to at most `maxBytes` when compressed. */
export async function recordsSection(
  bytes: Uint8Array,
  pos: number,
  header: RecordBatchHeader,
  maxBytes = DEFAULT_MAX_DECOMPRESSED_BYTES,
): Promise<RecordsSection> {
  const start = pos + RECORD_BATCH_OVERHEAD
  const end = pos + LOG_OVERHEAD + header.batchLength
  const codec = codecFor(header.compression)
  if (codec === null) return { buf: bytes, start, end }
  const buf = await codec.decompress(bytes.subarray(start, end), maxBytes)
  return { buf, start: 0, end: buf.length }
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`
}
