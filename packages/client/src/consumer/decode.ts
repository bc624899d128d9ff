/**
 * Fetched bytes → messages. A fetch answer holds whole batches as stored, starting with the batch
 * that contains the fetch offset, so records below it are dropped here; control batches (the
 * marker a leader writes when its epoch starts) are skipped but still move the position past
 * them; a partial batch at the end (a server may cut one at its byte limit) is left for the next
 * fetch. Keys, values and headers are views into the fetched bytes, not copies; in Node they are
 * Buffers (as KafkaJS gives), elsewhere Uint8Arrays.
 *
 * This is the consumer's per-record hot path, so it allocates only what a message is made of:
 * records are visited (wire's visitRecordBatch) rather than decoded into records first; the
 * fetched bytes are wrapped as one Buffer up front, which makes every key and value view the
 * decoder cuts a Buffer already (not a Uint8Array wrapped again); a record without headers gets a
 * fresh `{}` without a pass over them; records of a batch that share a timestamp (a producer
 * stamps a whole batch at once) share its string; uncompressed batches decode without an await.
 * Fewer, shorter-lived objects also keep the young generation from overflowing into costly
 * old-space collections while a fetched chunk's messages are alive.
 */
import {
  CorruptRecordError,
  type RecordHeader,
  type RecordVisitor,
  readBatchHeader,
  visitRecordBatch,
  visitRecordBatchSync,
} from '@tributary/wire'

export type MessageHeaderValue = Uint8Array | null

export interface KafkaMessage {
  key: Uint8Array | null
  value: Uint8Array | null
  /** Header name → value; a name sent more than once maps to an array of its values. */
  headers: Record<string, MessageHeaderValue | MessageHeaderValue[]>
  /** Milliseconds since the epoch, as a string (KafkaJS's shape). */
  timestamp: string
  /** The record's offset, as a string (offsets are 64-bit). */
  offset: string
  /** The batch's attributes (compression, timestamp type). */
  attributes: number
  /** Bytes of key and value. */
  size: number
}

export interface DecodedFetch {
  messages: KafkaMessage[]
  /** Where the next fetch starts: past every whole batch seen (control batches included). */
  nextOffset: number
}

const LOG_OVERHEAD = 12
const BATCH_HEADER = 61

type BufferCtor = { from(buffer: ArrayBufferLike, byteOffset: number, length: number): Uint8Array }
const NodeBuffer = (globalThis as { Buffer?: BufferCtor }).Buffer

/** A view as a Node Buffer where there is one (zero-copy), so `value.toString()` reads as text. */
const view: (bytes: Uint8Array) => Uint8Array =
  NodeBuffer === undefined
    ? (bytes) => bytes
    : (bytes) => NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** Bits 0-2 of a batch's attributes: its compression codec (0: none). */
const COMPRESSION_MASK = 0x07

function int32At(bytes: Uint8Array, pos: number): number {
  return (bytes[pos]! << 24) | (bytes[pos + 1]! << 16) | (bytes[pos + 2]! << 8) | bytes[pos + 3]!
}

function headersOf(headers: RecordHeader[]): KafkaMessage['headers'] {
  const out: KafkaMessage['headers'] = {}
  for (const { key, value } of headers) {
    const v = value === null ? null : view(value)
    const seen = out[key]
    if (seen === undefined) out[key] = v
    else if (Array.isArray(seen)) seen.push(v)
    else out[key] = [seen, v]
  }
  return out
}

export async function decodeFetched(
  records: Uint8Array,
  fromOffset: number,
  options: { maxDecompressedBytes?: number } = {},
): Promise<DecodedFetch> {
  const messages: KafkaMessage[] = []
  // Views cut from a Buffer are Buffers: no second wrapping per key and value.
  const bytes = view(records)
  const decodeOptions =
    options.maxDecompressedBytes === undefined ? {} : { maxDecompressedBytes: options.maxDecompressedBytes }
  let nextOffset = fromOffset
  let pos = 0
  while (bytes.length - pos >= BATCH_HEADER) {
    const size = LOG_OVERHEAD + int32At(bytes, pos + 8)
    if (size > bytes.length - pos && size >= BATCH_HEADER) {
      // A partial batch at the end is for the next fetch; one that is the whole answer would never progress.
      if (pos === 0) {
        throw new CorruptRecordError(`fetched ${bytes.length} bytes hold no whole batch (the first declares ${size})`)
      }
      break
    }
    const header = readBatchHeader(bytes, pos) // CorruptRecordError for anything malformed
    const lastOffset = header.baseOffset + header.lastOffsetDelta
    if (lastOffset >= fromOffset && !header.control) {
      const compressed = (header.attributes & COMPRESSION_MASK) !== 0
      // A decompressed buffer is not ours to have wrapped: its views are wrapped one by one.
      const visit = collector(messages, fromOffset, header.attributes, compressed ? view : undefined)
      if (compressed) await visitRecordBatch(bytes, pos, visit, decodeOptions)
      else visitRecordBatchSync(bytes, pos, visit, decodeOptions)
    }
    nextOffset = Math.max(nextOffset, lastOffset + 1)
    pos += size
  }
  if (pos === 0 && bytes.length > 0) {
    throw new CorruptRecordError(`fetched ${bytes.length} bytes hold no whole batch header`)
  }
  return { messages, nextOffset }
}

/** A visitor appending one batch's records at or after `fromOffset` to `out` as messages. */
function collector(
  out: KafkaMessage[],
  fromOffset: number,
  attributes: number,
  wrap: ((bytes: Uint8Array) => Uint8Array) | undefined,
): RecordVisitor {
  let lastTimestamp = Number.NaN
  let timestamp = ''
  return (offset, ts, key, value, headers) => {
    if (offset < fromOffset) return
    if (ts !== lastTimestamp) {
      lastTimestamp = ts
      timestamp = String(ts)
    }
    out.push({
      key: key === null || wrap === undefined ? key : wrap(key),
      value: value === null || wrap === undefined ? value : wrap(value),
      headers: headers === null ? {} : headersOf(headers),
      timestamp,
      offset: String(offset),
      attributes,
      size: (key === null ? 0 : key.length) + (value === null ? 0 : value.length),
    })
  }
}
