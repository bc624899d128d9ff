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
 * old-space collections while a fetched chunk's messages are alive. And records are decoded only
 * when asked for (FetchedBatches): an eachBatch handler that reads no message pays for none.
 */
import {
  CorruptRecordError,
  type RecordHeader,
  type RecordVisitor,
  readBatchHeader,
  verifyBatchCrc,
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
  const fetched = FetchedBatches.index(records, fromOffset)
  return { messages: await fetched.decode(options), nextOffset: fetched.nextOffset }
}

/** A whole batch of a fetch answer, located by its header. */
interface BatchAt {
  pos: number
  attributes: number
  compressed: boolean
  baseOffset: number
  lastOffsetDelta: number
  /** Its records' offset deltas are exactly 0…lastOffsetDelta (none compacted away). */
  dense: boolean
}

/**
 * A fetch answer's batches, located and CRC-checked (Kafka's check.crcs) but not yet decoded: an
 * eachBatch handler that never reads `batch.messages` (one that only moves a position, or hands the
 * batch on) costs a header walk and a CRC pass, not an object per record. `firstOffset` and
 * `lastOffset` read batch headers (decoding one batch each only when records were compacted away).
 * Structural errors in the batch headers, a torn first batch and CRC mismatches are
 * CorruptRecordErrors from `index`; a record-level one surfaces when the records are decoded (the
 * leader validated every record when it took the batch; the CRC says the bytes are still those).
 */
export class FetchedBatches {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly fromOffset: number,
    /** Batches that may hold records at or after fromOffset (control batches left out). */
    private readonly batches: readonly BatchAt[],
    /** Where the next fetch starts: past every whole batch seen (control batches included). */
    readonly nextOffset: number,
    /** Some batch needs decompressing, which is asynchronous: only `decode` reads it. */
    readonly compressed: boolean,
  ) {}

  static index(records: Uint8Array, fromOffset: number): FetchedBatches {
    // Views cut from a Buffer are Buffers: no second wrapping per key and value.
    const bytes = view(records)
    const batches: BatchAt[] = []
    let compressed = false
    let nextOffset = fromOffset
    let pos = 0
    // Bounded by the answer's length: every turn moves past one whole batch.
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
        if (!verifyBatchCrc(bytes, pos)) {
          throw new CorruptRecordError(
            `fetched record batch at base offset ${header.baseOffset} fails its CRC check (corrupted in transit or on disk)`,
          )
        }
        const isCompressed = (header.attributes & COMPRESSION_MASK) !== 0
        compressed ||= isCompressed
        batches.push({
          pos,
          attributes: header.attributes,
          compressed: isCompressed,
          baseOffset: header.baseOffset,
          lastOffsetDelta: header.lastOffsetDelta,
          // recordCount strictly increasing deltas within [0, lastOffsetDelta] can only be all of them.
          dense: header.recordCount === header.lastOffsetDelta + 1,
        })
      }
      nextOffset = Math.max(nextOffset, lastOffset + 1)
      pos += size
    }
    if (pos === 0 && bytes.length > 0) {
      throw new CorruptRecordError(`fetched ${bytes.length} bytes hold no whole batch header`)
    }
    return new FetchedBatches(bytes, fromOffset, batches, nextOffset, compressed)
  }

  /** Every record at or after the fetch offset, as messages. */
  async decode(options: { maxDecompressedBytes?: number } = {}): Promise<KafkaMessage[]> {
    if (!this.compressed) return this.decodeSync()
    const messages: KafkaMessage[] = []
    const decodeOptions = { verifyCrc: false, ...options }
    for (const { pos, attributes, compressed } of this.batches) {
      // A decompressed buffer is not ours to have wrapped: its views are wrapped one by one.
      const visit = collector(messages, this.fromOffset, attributes, compressed ? view : undefined)
      if (compressed) await visitRecordBatch(this.bytes, pos, visit, decodeOptions)
      else visitRecordBatchSync(this.bytes, pos, visit, decodeOptions)
    }
    return messages
  }

  /** `decode` without an await; only for answers with no compressed batch. */
  decodeSync(): KafkaMessage[] {
    if (this.compressed) throw new TypeError('a compressed fetch answer decodes asynchronously (decode())')
    const messages: KafkaMessage[] = []
    for (const { pos, attributes } of this.batches) {
      visitRecordBatchSync(this.bytes, pos, collector(messages, this.fromOffset, attributes, undefined), NO_CRC)
    }
    return messages
  }

  /** The first record's offset at or after the fetch offset; undefined when there is none. Uncompressed answers only. */
  firstOffset(): number | undefined {
    for (const batch of this.batches) {
      const found = this.offsetsOf(batch, 'first')
      if (found !== undefined) return found
    }
    return undefined
  }

  /** The last record's offset (at or after the fetch offset); undefined when there is none. Uncompressed answers only. */
  lastOffset(): number | undefined {
    for (let i = this.batches.length - 1; i >= 0; i--) {
      const found = this.offsetsOf(this.batches[i]!, 'last')
      if (found !== undefined) return found
    }
    return undefined
  }

  /** How many records are at or after the fetch offset (from the headers, as `firstOffset`). Uncompressed answers only. */
  count(): number {
    let n = 0
    for (const batch of this.batches) {
      if (batch.compressed) throw new TypeError('the records of a compressed batch are counted by decode()')
      if (batch.dense) {
        const last = batch.baseOffset + batch.lastOffsetDelta
        n += Math.max(0, last - Math.max(batch.baseOffset, this.fromOffset) + 1)
        continue
      }
      const from = this.fromOffset
      visitRecordBatchSync(
        this.bytes,
        batch.pos,
        (offset) => {
          if (offset >= from) n++
        },
        NO_CRC,
      )
    }
    return n
  }

  /**
   * One batch's first or last record offset at or after the fetch offset. From the header when the
   * batch is dense (a producer's batches are; a batch of ~5,000 records is not walked for two
   * numbers), else from the records: a compacted batch keeps its lastOffsetDelta after its last
   * records are gone.
   */
  private offsetsOf(batch: BatchAt, which: 'first' | 'last'): number | undefined {
    if (batch.compressed) throw new TypeError('the offsets of a compressed batch are read by decode()')
    const from = this.fromOffset
    if (batch.dense) {
      const last = batch.baseOffset + batch.lastOffsetDelta
      if (last < from) return undefined
      return which === 'last' ? last : Math.max(batch.baseOffset, from)
    }
    let found: number | undefined
    visitRecordBatchSync(
      this.bytes,
      batch.pos,
      (offset) => {
        if (offset >= from && (which === 'last' || found === undefined)) found = offset
      },
      NO_CRC,
    )
    return found
  }
}

/** CRCs are checked once, by FetchedBatches.index. */
const NO_CRC = { verifyCrc: false }

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
