import type { Logger, PartitionLog } from '@tributary/log'
import {
  type CompressionName,
  decodeRecordBatch,
  encodeRecordBatch,
  encodeRecordBatchSync,
  iterateBatches,
  type RecordHeader,
} from '@tributary/wire'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export interface SimpleRecord {
  key?: string | null
  value: string | null
  timestamp?: number
  headers?: Record<string, string>
}

export interface BatchOptions {
  timestamp?: number
  compression?: CompressionName
  producerId?: number
  producerEpoch?: number
  baseSequence?: number
}

function toInput(record: SimpleRecord, fallbackTs: number) {
  const headers: RecordHeader[] = Object.entries(record.headers ?? {}).map(([key, value]) => ({
    key,
    value: encoder.encode(value),
  }))
  return {
    key: record.key === undefined || record.key === null ? null : encoder.encode(record.key),
    value: record.value === null ? null : encoder.encode(record.value),
    headers,
    timestamp: record.timestamp ?? fallbackTs,
  }
}

/** Encodes records (strings for readability) as one producer batch. */
export function batchOf(records: readonly SimpleRecord[], options: BatchOptions = {}): Uint8Array {
  const ts = options.timestamp ?? 1_700_000_000_000
  return encodeRecordBatchSync({
    records: records.map((r) => toInput(r, ts)),
    producerId: options.producerId ?? -1,
    producerEpoch: options.producerEpoch ?? -1,
    baseSequence: options.baseSequence ?? -1,
  })
}

/** Same as `batchOf` but supports compression. */
export function batchOfAsync(records: readonly SimpleRecord[], options: BatchOptions = {}): Promise<Uint8Array> {
  const ts = options.timestamp ?? 1_700_000_000_000
  return encodeRecordBatch({ records: records.map((r) => toInput(r, ts)), compression: options.compression ?? 'none' })
}

/** `n` records with keys `${prefix}${i}` and values `v${i}`. */
export function numbered(n: number, prefix = 'k', timestamp?: number): SimpleRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    key: `${prefix}${i}`,
    value: `v${i}`,
    ...(timestamp === undefined ? {} : { timestamp }),
  }))
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let pos = 0
  for (const p of parts) {
    out.set(p, pos)
    pos += p.length
  }
  return out
}

export interface ReadRecord {
  offset: number
  key: string | null
  value: string | null
  timestamp: number
  headers: Record<string, string>
  epoch: number
}

/** Decodes every batch of a read result. */
export async function decodeAll(bytes: Uint8Array): Promise<ReadRecord[]> {
  const out: ReadRecord[] = []
  for (const { pos, header } of iterateBatches(bytes)) {
    const { records } = await decodeRecordBatch(bytes, pos)
    for (const r of records) {
      out.push({
        offset: r.offset,
        key: r.key === null ? null : decoder.decode(r.key),
        value: r.value === null ? null : decoder.decode(r.value),
        timestamp: header.timestampType === 'LogAppendTime' ? header.maxTimestamp : r.timestamp,
        headers: Object.fromEntries(r.headers.map((h) => [h.key, h.value === null ? '' : decoder.decode(h.value)])),
        epoch: header.partitionLeaderEpoch,
      })
    }
  }
  return out
}

/** Reads and decodes every record in [from, upTo) (default: the whole log, ignoring the high watermark). */
export async function readAll(
  log: PartitionLog,
  from = log.logStartOffset,
  upTo = log.logEndOffset,
): Promise<ReadRecord[]> {
  const out: ReadRecord[] = []
  let offset = from
  for (let guard = 0; offset < upTo; guard++) {
    if (guard > 1_000_000) throw new Error('readAll did not advance')
    const result = await log.read(offset, { maxOffset: upTo, maxBytes: 256 * 1024 })
    if (result.batchCount === 0) break
    for (const record of await decodeAll(result.records)) if (record.offset >= from) out.push(record)
    offset = result.nextOffset
  }
  return out
}

/** A controllable clock for retention, segment.ms and tombstone tests. */
export class FakeClock {
  constructor(public now = 1_700_000_000_000) {}
  readonly read = (): number => this.now
  advance(ms: number): void {
    this.now += ms
  }
}

export interface LoggedLine {
  level: 'debug' | 'info' | 'warn' | 'error'
  obj: object
  msg: string | undefined
}

/** A logger that records what it was told, for asserting that recovery logged a truncation. */
export function recordingLogger(): Logger & { lines: LoggedLine[] } {
  const lines: LoggedLine[] = []
  const at = (level: LoggedLine['level']) => (obj: object, msg?: string) => {
    lines.push({ level, obj, msg })
  }
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}
