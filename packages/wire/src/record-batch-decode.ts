/**
 * Decoding and validating record batches from untrusted bytes. Failures are always typed
 * TributaryErrors (CorruptRecordError for bad bytes, InvalidRecordError for rule violations),
 * and no length or count from the bytes is trusted before it is checked against what remains.
 */
import type { BatchRecord, RecordBatchHeader } from './record-batch-format.js'
import { openBatch, recordsSection, uncompressedSection } from './record-batch-section.js'
import { type RecordVisitor, type WalkRules, walkRecords } from './record-walk.js'

export type { RecordVisitor }

export interface DecodeBatchOptions {
  /** Check the CRC32C before parsing (default true). */
  verifyCrc?: boolean
  /** Cap on a compressed batch's decompressed size (default 64 MiB); beyond it RecordTooLargeError. */
  maxDecompressedBytes?: number
}

export interface ValidateBatchOptions extends WalkRules {
  /** Check the CRC32C first (default true): validation is the gate a batch passes once, on entry. */
  verifyCrc?: boolean
  maxDecompressedBytes?: number
}

export interface DecodedBatch {
  header: RecordBatchHeader
  /** Keys and values are views into `bytes` (or the decompressed buffer), not copies. */
  records: BatchRecord[]
}

/** Decodes the batch at `pos`, decompressing it if needed. */
export async function decodeRecordBatch(
  bytes: Uint8Array,
  pos = 0,
  options: DecodeBatchOptions = {},
): Promise<DecodedBatch> {
  const header = openBatch(bytes, pos, options.verifyCrc)
  const { buf, start, end } = await recordsSection(bytes, pos, header, options.maxDecompressedBytes)
  const records: BatchRecord[] = []
  walkRecords(buf, start, end, header, records)
  return { header, records }
}

/** Decodes an uncompressed batch synchronously; compressed ones need decodeRecordBatch. */
export function decodeRecordBatchSync(bytes: Uint8Array, pos = 0, options: DecodeBatchOptions = {}): DecodedBatch {
  const header = openBatch(bytes, pos, options.verifyCrc)
  const { buf, start, end } = uncompressedSection(bytes, pos, header, 'decodeRecordBatch')
  const records: BatchRecord[] = []
  walkRecords(buf, start, end, header, records)
  return { header, records }
}

/**
 * Decodes the batch at `pos` (decompressing it if needed) without building records: each
 * record's fields go to `visit`, in order, after the same checks as decodeRecordBatch. For
 * callers that turn records into objects of their own (a consumer's messages). Returns the header.
 */
export async function visitRecordBatch(
  bytes: Uint8Array,
  pos: number,
  visit: RecordVisitor,
  options: DecodeBatchOptions = {},
): Promise<RecordBatchHeader> {
  const header = openBatch(bytes, pos, options.verifyCrc)
  const { buf, start, end } = await recordsSection(bytes, pos, header, options.maxDecompressedBytes)
  walkRecords(buf, start, end, header, visit)
  return header
}

/** visitRecordBatch for uncompressed batches, synchronously. */
export function visitRecordBatchSync(
  bytes: Uint8Array,
  pos: number,
  visit: RecordVisitor,
  options: DecodeBatchOptions = {},
): RecordBatchHeader {
  const header = openBatch(bytes, pos, options.verifyCrc)
  const { buf, start, end } = uncompressedSection(bytes, pos, header, 'visitRecordBatch')
  walkRecords(buf, start, end, header, visit)
  return header
}

/**
 * Checks the batch at `pos` as the log does on every produce: CRC, the same structural rules as
 * decoding, plus the destination's rules. Creates no per-record objects.
 */
export async function validateBatchRecords(
  bytes: Uint8Array,
  pos: number,
  options: ValidateBatchOptions = {},
): Promise<void> {
  const header = openBatch(bytes, pos, options.verifyCrc)
  const { buf, start, end } = await recordsSection(bytes, pos, header, options.maxDecompressedBytes)
  walkRecords(buf, start, end, header, null, options)
}

/** validateBatchRecords for uncompressed batches, synchronously. */
export function validateBatchRecordsSync(bytes: Uint8Array, pos: number, options: ValidateBatchOptions = {}): void {
  const header = openBatch(bytes, pos, options.verifyCrc)
  const { buf, start, end } = uncompressedSection(bytes, pos, header, 'validateBatchRecords')
  walkRecords(buf, start, end, header, null, options)
}
