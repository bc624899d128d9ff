/**
 * Questions answered from the `extents` store alone (offsets, size, max timestamp and CRC of
 * every batch), so they never load batch bytes.
 */
import { type ExtentRow, offsetRange, offsetRangeInclusive } from './schema.js'

/** The `extents` object store inside any transaction. */
export interface ExtentStore {
  getAll(query: IDBKeyRange, count?: number): Promise<ExtentRow[]>
  openCursor(query: IDBKeyRange, direction?: IDBCursorDirection): Promise<{ readonly value: ExtentRow } | null>
}

export interface ExtentSummary {
  count: number
  sizeBytes: number
  maxTimestamp: number
  /** The last batch, if any. */
  last: ExtentRow | undefined
}

/** Rows fetched per request when scanning: bounds memory for segments of millions of batches. */
const SCAN_CHUNK = 4096

/** The batch with the largest base offset in [from, to] (inclusive), if any. */
export async function lastAtOrBefore(
  store: ExtentStore,
  partitionKey: string,
  from: number,
  to: number,
): Promise<ExtentRow | undefined> {
  if (to < from) return undefined
  const cursor = await store.openCursor(offsetRangeInclusive(partitionKey, from, to), 'prev')
  return cursor?.value
}

/** The batch with the largest base offset in [from, to), if any. */
export async function lastBefore(
  store: ExtentStore,
  partitionKey: string,
  from: number,
  to: number,
): Promise<ExtentRow | undefined> {
  if (to <= from) return undefined
  const cursor = await store.openCursor(offsetRange(partitionKey, from, to), 'prev')
  return cursor?.value
}

/**
 * Visits batches with base offset in [from, to) in offset order, `chunk` rows per request,
 * until `visit` returns false.
 */
export async function forEachExtent(
  store: ExtentStore,
  partitionKey: string,
  from: number,
  to: number,
  visit: (extent: ExtentRow) => boolean | undefined,
  chunk = SCAN_CHUNK,
): Promise<void> {
  let start = from
  while (start < to) {
    const rows = await store.getAll(offsetRange(partitionKey, start, to), chunk)
    for (const row of rows) if (visit(row) === false) return
    if (rows.length < chunk) return
    // Base offsets are integers: the next chunk starts right after the last row seen.
    start = rows.at(-1)!.b + 1
  }
}

/** Count, total size, max timestamp and last batch of the batches with base offset in [from, to). */
export async function summarize(
  store: ExtentStore,
  partitionKey: string,
  from: number,
  to: number,
): Promise<ExtentSummary> {
  const summary: ExtentSummary = { count: 0, sizeBytes: 0, maxTimestamp: -1, last: undefined }
  await forEachExtent(store, partitionKey, from, to, (extent) => {
    summary.count++
    summary.sizeBytes += extent.n
    summary.maxTimestamp = Math.max(summary.maxTimestamp, extent.t)
    summary.last = extent
    return true
  })
  return summary
}
