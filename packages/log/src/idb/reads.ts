/** The bodies of read-only transactions: serving a chunk of batches, and the time index. */
import { type ExtentStore, forEachExtent, lastAtOrBefore } from './extents.js'
import { type BatchRow, offsetRangeInclusive } from './schema.js'

/** Planning a read fetches this many extents per request; most reads need one request. */
const READ_PLAN_CHUNK = 256

export interface ReadStores {
  batches: { getAll(query: IDBKeyRange, count?: number): Promise<BatchRow[]> }
  extents: ExtentStore
}

export interface ReadRequest {
  partitionKey: string
  segmentBase: number
  /** Where the next segment starts (Infinity for the active one). */
  segmentEnd: number
  offset: number
  maxBytes: number
}

/**
 * Whole batches of one segment from the one holding `offset` (or the first after it), while
 * the total stays ≤ `maxBytes` but at least one. The extents say how many batches fit before
 * any bytes are loaded, so exactly those rows are fetched, in one request.
 */
export async function readChunk(stores: ReadStores, request: ReadRequest): Promise<Uint8Array> {
  const { partitionKey: pk, segmentBase, offset, maxBytes } = request
  let from = segmentBase
  if (offset > segmentBase) {
    const holding = await lastAtOrBefore(stores.extents, pk, segmentBase, offset)
    if (holding !== undefined) from = holding.l >= offset ? holding.b : holding.b + 1
  }
  let count = 0
  let lastBase = from
  let total = 0
  await forEachExtent(
    stores.extents,
    pk,
    from,
    request.segmentEnd,
    (extent) => {
      if (count > 0 && total + extent.n > maxBytes) return false
      count++
      total += extent.n
      lastBase = extent.b
      return true
    },
    READ_PLAN_CHUNK,
  )
  if (count === 0) return new Uint8Array(0)
  return concatRows(await stores.batches.getAll(offsetRangeInclusive(pk, from, lastBase), count))
}

/**
 * Base offset of the first batch in [segmentBase, segmentEnd) whose max timestamp is ≥
 * `timestamp`, or `fallback` when none is.
 */
export async function firstBatchAtOrAfter(
  extents: ExtentStore,
  partitionKey: string,
  range: { segmentBase: number; segmentEnd: number },
  timestamp: number,
  fallback: number,
): Promise<number> {
  let found = fallback
  await forEachExtent(extents, partitionKey, range.segmentBase, range.segmentEnd, (extent) => {
    if (extent.t < timestamp) return true
    found = extent.b
    return false
  })
  return found
}

/** Stored batches back to back, as one chunk; a single batch is returned without copying. */
function concatRows(rows: readonly BatchRow[]): Uint8Array {
  if (rows.length === 1) return new Uint8Array(rows[0]!.bytes)
  let total = 0
  for (const row of rows) total += row.bytes.byteLength
  const out = new Uint8Array(total)
  let pos = 0
  for (const row of rows) {
    out.set(new Uint8Array(row.bytes), pos)
    pos += row.bytes.byteLength
  }
  return out
}
