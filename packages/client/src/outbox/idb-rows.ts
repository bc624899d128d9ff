/**
 * How the IndexedDB outbox keeps unsealed records: one row per `append` (one `enqueue` call),
 * keyed by its first record's id, rather than one row per record. Writing, reading and removing
 * a thousand records is then one value each time instead of a thousand — IndexedDB's cost is per
 * value far more than per byte at these sizes.
 *
 * Rows never interleave: an append takes the next consecutive ids, and a row only ever loses
 * records (a seal takes a prefix, or records of several rows), so each row's ids lie between its
 * key and the next row's key, and key order is id order. A row that lost records other than a
 * prefix lists its ids explicitly.
 */
import type { StoredRecord } from './store.js'

export type QueuedRecord = Omit<StoredRecord, 'id'>

export interface QueuedRow {
  /** The id of `records[0]`; the row's key. */
  id: number
  /** The records' ids when they are not `id, id + 1, …` (only after removing some that were not a prefix). */
  ids?: number[]
  records: QueuedRecord[]
}

/** The row an append of `records` with consecutive ids from `firstId` writes. */
export function appendedRow(firstId: number, records: readonly QueuedRecord[]): QueuedRow {
  return { id: firstId, records: [...records] }
}

/** The id of the row's `index`th record. */
export function rowRecordId(row: QueuedRow, index: number): number {
  return row.ids === undefined ? row.id + index : row.ids[index]!
}

/** The id of the row's last record. */
export function rowLastId(row: QueuedRow): number {
  return rowRecordId(row, row.records.length - 1)
}

/** The row's `index`th record with its id. */
export function rowRecord(row: QueuedRow, index: number): StoredRecord {
  return { ...row.records[index]!, id: rowRecordId(row, index) }
}

/**
 * What is left of a row once the ids in [first, last] are removed: undefined when nothing is,
 * the row itself when it held none of them, else a new row (its key the first id left).
 */
export function rowWithout(row: QueuedRow, first: number, last: number): QueuedRow | undefined {
  if (row.records.length === 0) return undefined
  if (last < row.id || first > rowLastId(row)) return row
  const ids: number[] = []
  const records: QueuedRecord[] = []
  for (let i = 0; i < row.records.length; i++) {
    const id = rowRecordId(row, i)
    if (id >= first && id <= last) continue
    ids.push(id)
    records.push(row.records[i]!)
  }
  if (records.length === 0) return undefined
  const consecutive = ids[ids.length - 1]! - ids[0]! === ids.length - 1
  return consecutive ? { id: ids[0]!, records } : { id: ids[0]!, ids, records }
}

/**
 * Records (ascending ids, as one-row-per-record outboxes of schema 1 held them) grouped into
 * rows of consecutive ids, at most `maxPerRow` each.
 */
export function rowsOf(records: readonly StoredRecord[], maxPerRow: number): QueuedRow[] {
  const rows: QueuedRow[] = []
  let current: QueuedRow | undefined
  for (const { id, ...record } of records) {
    if (current === undefined || current.records.length >= maxPerRow || id !== current.id + current.records.length) {
      current = { id, records: [] }
      rows.push(current)
    }
    current.records.push(record)
  }
  return rows
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
