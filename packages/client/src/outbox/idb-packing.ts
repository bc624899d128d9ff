/**
 * Records as the IndexedDB outbox stores them in a row: every key and value in one byte array,
 * the numbers in one Float64Array. IndexedDB's structured clone costs per object, and an
 * ArrayBuffer is an expensive one: a thousand records as objects are two thousand buffers to
 * clone in and out, packed they are two. Read back, keys and values are views into the row's
 * byte array — never stored again as they are (a stored view would carry its whole buffer):
 * whatever row takes them next packs them into bytes of its own.
 */
import { KafkaStorageError, type RecordHeader } from '@tributary/wire'
import type { StoredRecord } from './store.js'

export type QueuedRecord = Omit<StoredRecord, 'id'>

export interface PackedRecords {
  /** Per record FIELDS numbers: partition (−1: none), key length, value length (−1: null), timestamp, size. */
  fields: Float64Array
  /** Keys and values, back to back in record order. */
  data: Uint8Array
  /** The records' topic when they share one (an append's do), else each record's. */
  topic: string | string[]
  /** Headers of the records that have any, by index (rare: kept as they are). */
  headers?: Record<number, RecordHeader[]>
}

const FIELDS = 5

export function packedCount(packed: PackedRecords): number {
  return packed.fields.length / FIELDS
}

export function packRecords(records: readonly QueuedRecord[]): PackedRecords {
  let total = 0
  for (const r of records) total += (r.key?.length ?? 0) + (r.value?.length ?? 0)
  const data = new Uint8Array(total)
  const fields = new Float64Array(records.length * FIELDS)
  const first = records[0]?.topic ?? ''
  let shared = true
  let headers: Record<number, RecordHeader[]> | undefined
  let at = 0
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!
    const f = i * FIELDS
    fields[f] = r.partition ?? -1
    fields[f + 1] = r.key === null ? -1 : r.key.length
    fields[f + 2] = r.value === null ? -1 : r.value.length
    fields[f + 3] = r.timestamp
    fields[f + 4] = r.size
    if (r.key !== null) {
      data.set(r.key, at)
      at += r.key.length
    }
    if (r.value !== null) {
      data.set(r.value, at)
      at += r.value.length
    }
    if (r.headers.length > 0) {
      headers ??= {}
      // Copies of the values, for the reason views are never stored.
      headers[i] = r.headers.map((h) => ({ key: h.key, value: h.value === null ? null : new Uint8Array(h.value) }))
    }
    shared &&= r.topic === first
  }
  const topic = shared ? first : records.map((r) => r.topic)
  return headers === undefined ? { fields, data, topic } : { fields, data, topic, headers }
}

export function unpackRecords(packed: PackedRecords): QueuedRecord[] {
  const { fields, data, topic, headers } = packed
  const count = packedCount(packed)
  const out: QueuedRecord[] = new Array(count)
  let at = 0
  for (let i = 0; i < count; i++) {
    const f = i * FIELDS
    const keyLength = fields[f + 1]!
    const valueLength = fields[f + 2]!
    const key = keyLength < 0 ? null : data.subarray(at, at + keyLength)
    at += Math.max(0, keyLength)
    const value = valueLength < 0 ? null : data.subarray(at, at + valueLength)
    at += Math.max(0, valueLength)
    const partition = fields[f]!
    out[i] = {
      topic: typeof topic === 'string' ? topic : topic[i]!,
      partition: partition < 0 ? null : partition,
      key,
      value,
      headers: headers?.[i] ?? [],
      timestamp: fields[f + 3]!,
      size: fields[f + 4]!,
    }
  }
  if (at !== data.length) {
    throw new KafkaStorageError(`an outbox row is corrupt: its records take ${at} bytes of its ${data.length}`)
  }
  return out
}
