/**
 * What a caller hands `producer.send` (KafkaJS's message shape), checked and turned into record
 * bytes before anything is queued: a wrong type from a JavaScript caller is an
 * InvalidArgumentError naming the message, and nothing of that send is sent.
 */
import type { RecordHeader } from '@tributary/wire'
import { InvalidArgumentError } from '../errors.js'

/** Strings are sent as UTF-8; Node Buffers are Uint8Arrays. */
export type MessageBytes = string | Uint8Array

export type MessageHeaders = Record<string, MessageBytes | null | undefined | ReadonlyArray<MessageBytes>>

export interface Message {
  /** Null or absent: a keyless record (sticky partitioning). */
  key?: MessageBytes | null | undefined
  /** Null: a tombstone (deletes the key on compacted topics). */
  value: MessageBytes | null
  headers?: MessageHeaders | undefined
  /** Overrides the partitioner. */
  partition?: number | undefined
  /** Milliseconds since the epoch (number, or a string of digits as KafkaJS passes it); default now. */
  timestamp?: number | string | undefined
}

export interface NormalizedRecord {
  key: Uint8Array | null
  value: Uint8Array | null
  headers: RecordHeader[]
  timestamp: number | undefined
  partition: number | undefined
  /** Upper estimate of the record's encoded size (for batch sizes and the buffer budget). */
  size: number
  /** Bytes it certainly takes: a batch holding only this record is at least this large. */
  minBatchBytes: number
}

/** Bounds on what one message may carry, so a caller's mistake cannot exhaust memory in the encoder. */
const MAX_HEADERS = 10_000

/** RecordBatch v2 header, and the smallest record (wire's RECORD_BATCH_OVERHEAD, MIN_RECORD_SIZE). */
const BATCH_HEADER_BYTES = 61
const MIN_RECORD_BYTES = 7

const utf8 = new TextEncoder()

function bytes(value: unknown, what: string): Uint8Array | null {
  if (value === null) return null
  if (typeof value === 'string') return utf8.encode(value)
  if (value instanceof Uint8Array) return value
  throw new InvalidArgumentError(`${what} must be a string, a Uint8Array (or Buffer) or null, got ${describe(value)}`)
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return String(value)
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? (value.constructor?.name ?? 'an object') : `${typeof value} ${String(value)}`
}

/** What a record without headers carries: one shared, frozen empty list (nothing writes to it). */
const NO_HEADERS: RecordHeader[] = Object.freeze([]) as unknown as RecordHeader[]

function headersOf(headers: unknown, where: string): RecordHeader[] {
  if (headers === undefined || headers === null) return NO_HEADERS
  if (typeof headers !== 'object' || Array.isArray(headers)) {
    throw new InvalidArgumentError(`${where} headers must be an object of name → value, got ${describe(headers)}`)
  }
  const out: RecordHeader[] = []
  for (const [key, raw] of Object.entries(headers)) {
    if (raw === undefined) continue
    const values: unknown[] = Array.isArray(raw) ? raw : [raw]
    for (const value of values) {
      out.push({ key, value: bytes(value, `${where} header '${key}'`) })
      if (out.length > MAX_HEADERS) throw new InvalidArgumentError(`${where} has more than ${MAX_HEADERS} headers`)
    }
  }
  return out
}

function timestampOf(raw: unknown, where: string): number | undefined {
  if (raw === undefined || raw === null) return undefined
  const value = typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : raw
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(`${where} timestamp must be milliseconds since the epoch, got ${describe(raw)}`)
  }
  return value
}

export function normalizeMessage(message: unknown, index: number, topic: string): NormalizedRecord {
  const where = `message ${index} to ${topic}`
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new InvalidArgumentError(`${where} must be an object like { key, value }, got ${describe(message)}`)
  }
  const m = message as Record<string, unknown>
  if (!('value' in m) || m.value === undefined) {
    throw new InvalidArgumentError(`${where} has no value (use null for a tombstone)`)
  }
  const key = m.key === undefined ? null : bytes(m.key, `${where} key`)
  const value = bytes(m.value, `${where} value`)
  const headers = headersOf(m.headers, where)
  let partition: number | undefined
  if (m.partition !== undefined && m.partition !== null) {
    if (typeof m.partition !== 'number' || !Number.isInteger(m.partition) || m.partition < 0) {
      throw new InvalidArgumentError(`${where} partition must be an integer ≥ 0, got ${describe(m.partition)}`)
    }
    partition = m.partition
  }
  const payload = (key?.length ?? 0) + (value?.length ?? 0)
  let size = 24 + payload
  let minBatchBytes = BATCH_HEADER_BYTES + MIN_RECORD_BYTES + payload
  for (const h of headers) {
    size += 10 + h.key.length * 3 + (h.value?.length ?? 0)
    minBatchBytes += h.key.length + (h.value?.length ?? 0)
  }
  return { key, value, headers, timestamp: timestampOf(m.timestamp, where), partition, size, minBatchBytes }
}
