/**
 * How the IndexedDB outbox lays out its rows. Unsealed records: one row per `append` (one
 * `enqueue` call), keyed by its first record's id, rather than one row per record; sealed
 * batches: one row each. Either way a row's records are packed (idb-packing.ts): writing,
 * reading and removing a thousand records is one small value instead of thousands of objects.
 *
 * Unsealed rows never interleave: an append takes the next consecutive ids, and a row only ever
 * loses records (a seal takes a prefix, or records of several rows), so each row's ids lie
 * between its key and the next row's key, and key order is id order. A row that lost records
 * other than a prefix lists its ids explicitly.
 */
import { type PackedRecords, packedCount, packRecords, type QueuedRecord, unpackRecords } from './idb-packing.js'
import type { SealedBatch, StoredRecord } from './store.js'

export interface QueuedRow {
  /** The id of the first record; the row's key. */
  id: number
  /** The records' ids when they are not `id, id + 1, …` (only after removing some that were not a prefix). */
  ids?: number[]
  packed: PackedRecords
}

/** A sealed batch as stored: its records packed, their ids apart (consecutive from `id` when `ids` is absent). */
export interface BatchRow extends Omit<SealedBatch, 'records'> {
  ids?: Float64Array
  packed: PackedRecords
}

/** The row an append of `records` with consecutive ids from `firstId` writes. */
export function appendedRow(firstId: number, records: readonly QueuedRecord[]): QueuedRow {
  return { id: firstId, packed: packRecords(records) }
}

/** The row's records with their ids, in order. */
export function rowRecords(row: QueuedRow): StoredRecord[] {
  const records = unpackRecords(row.packed) as StoredRecord[]
  for (let i = 0; i < records.length; i++) records[i]!.id = row.ids === undefined ? row.id + i : row.ids[i]!
  return records
}

/** The id of the row's last record. */
export function rowLastId(row: QueuedRow): number {
  const count = packedCount(row.packed)
  return row.ids === undefined ? row.id + count - 1 : row.ids[count - 1]!
}

/**
 * What is left of a row once the ids in [first, last] are removed: undefined when nothing is,
 * the row itself when it held none of them, else a new row (its key the first id left).
 */
export function rowWithout(row: QueuedRow, first: number, last: number): QueuedRow | undefined {
  if (packedCount(row.packed) === 0) return undefined
  if (last < row.id || first > rowLastId(row)) return row
  const left = rowRecords(row).filter((r) => r.id < first || r.id > last)
  return left.length === 0 ? undefined : rowOf(left)
}

/** Records with ascending ids as one row. */
function rowOf(records: readonly StoredRecord[]): QueuedRow {
  const ids = records.map((r) => r.id)
  const packed = packRecords(records)
  const consecutive = ids[ids.length - 1]! - ids[0]! === ids.length - 1
  return consecutive ? { id: ids[0]!, packed } : { id: ids[0]!, ids, packed }
}

/**
 * Records (ascending ids, as one-row-per-record outboxes of schema 1 held them) grouped into
 * rows of consecutive ids, at most `maxPerRow` each.
 */
export function rowsOf(records: readonly StoredRecord[], maxPerRow: number): QueuedRow[] {
  const groups: StoredRecord[][] = []
  let current: StoredRecord[] | undefined
  for (const record of records) {
    const previous = current?.at(-1)
    if (current === undefined || current.length >= maxPerRow || record.id !== previous!.id + 1) {
      current = []
      groups.push(current)
    }
    current.push(record)
  }
  return groups.map(rowOf)
}

export function batchRow(batch: SealedBatch): BatchRow {
  const { records, ...rest } = batch
  const consecutive = records.every((r, i) => r.id === batch.id + i)
  const packed = packRecords(records)
  return consecutive ? { ...rest, packed } : { ...rest, ids: Float64Array.from(records, (r) => r.id), packed }
}

export function batchOfRow(row: BatchRow): SealedBatch {
  const { packed, ids, ...rest } = row
  const records = unpackRecords(packed) as StoredRecord[]
  for (let i = 0; i < records.length; i++) records[i]!.id = ids === undefined ? row.id + i : ids[i]!
  return { ...rest, records }
}

/** Ids as runs of consecutive numbers, [first, last] each, ascending. */
export function idRuns(ids: readonly number[]): Array<[number, number]> {
  const sorted = [...ids].sort((a, b) => a - b)
  const out: Array<[number, number]> = []
  for (const id of sorted) {
    const last = out.at(-1)
    if (last !== undefined && id <= last[1] + 1) last[1] = Math.max(last[1], id)
    else out.push([id, id])
  }
  return out
}
