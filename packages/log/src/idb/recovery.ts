/**
 * Loading a partition at open. IndexedDB has no torn tail: every store call that changes a
 * segment's rows rewrites its `SegmentInfo` in the same transaction, so a crash leaves the
 * state after some whole call. Recovery is therefore a sanity check, not a scan: each
 * segment's end must match its last batch, and nothing may lie outside the segments. Where
 * that fails (a bug, or a database written by other code), the segment's info is rebuilt from
 * its extents rather than trusted.
 */
import type { Logger } from '../logger.js'
import type { SegmentInfo } from '../types.js'
import { type ExtentStore, lastBefore, summarize } from './extents.js'
import {
  INTERNAL_META_PREFIX,
  META_CLEAN_SHUTDOWN,
  type MetaRow,
  metaRange,
  offsetRange,
  partitionRange,
  type SegmentRow,
  toSegmentInfo,
  toSegmentRow,
} from './schema.js'

export interface LoadedPartition {
  segments: SegmentInfo[]
  meta: Record<string, string>
  cleanShutdown: boolean
}

/** The object stores recovery touches, inside one readwrite transaction. */
export interface RecoveryStores {
  batches: { delete(query: IDBKeyRange): Promise<void> }
  extents: ExtentStore & { delete(query: IDBKeyRange): Promise<void> }
  segments: { getAll(query: IDBKeyRange): Promise<SegmentRow[]>; put(row: SegmentRow): Promise<unknown> }
  meta: { getAll(query: IDBKeyRange): Promise<MetaRow[]>; delete(key: [string, string]): Promise<void> }
}

export async function loadPartition(
  stores: RecoveryStores,
  partitionKey: string,
  logger: Logger,
): Promise<LoadedPartition> {
  const pk = partitionKey
  const segmentRows = await stores.segments.getAll(partitionRange(pk))
  const metaRows = await stores.meta.getAll(metaRange(pk))
  const meta: Record<string, string> = {}
  let cleanShutdown = false
  for (const row of metaRows) {
    if (row.k === META_CLEAN_SHUTDOWN) cleanShutdown = row.v === '1'
    else if (!row.k.startsWith(INTERNAL_META_PREFIX)) meta[row.k] = row.v
  }
  // Cleared now, so a crash before the next clean close reads as unclean.
  await stores.meta.delete([pk, META_CLEAN_SHUTDOWN])

  const segments = segmentRows.map(toSegmentInfo)
  const first = segments[0]
  if (first === undefined) {
    const orphan = await summarize(stores.extents, pk, -Infinity, Infinity)
    if (orphan.count === 0) return { segments, meta, cleanShutdown }
    // Batches without a segment: keep them as one segment rather than lose data.
    const [firstRow] = await stores.extents.getAll(partitionRange(pk), 1)
    const rebuilt: SegmentInfo = {
      baseOffset: firstRow!.b,
      nextOffset: orphan.last!.l + 1,
      sizeBytes: orphan.sizeBytes,
      maxTimestamp: orphan.maxTimestamp,
      createdAtMs: Date.now(),
    }
    await stores.segments.put(toSegmentRow(pk, rebuilt))
    logger.warn({ partitionKey: pk, segment: rebuilt }, 'IndexedDB batches had no segment; rebuilt one')
    return { segments: [rebuilt], meta, cleanShutdown }
  }

  // Batches below the first segment cannot be reached (the log starts at or after it).
  const stray = await lastBefore(stores.extents, pk, -Infinity, first.baseOffset)
  if (stray !== undefined) {
    await stores.batches.delete(offsetRange(pk, -Infinity, first.baseOffset))
    await stores.extents.delete(offsetRange(pk, -Infinity, first.baseOffset))
    logger.warn({ partitionKey: pk, below: first.baseOffset }, 'removed IndexedDB batches below the first segment')
  }

  for (let i = 0; i < segments.length; i++) {
    const info = segments[i]!
    const end = segments[i + 1]?.baseOffset ?? Infinity
    const last = await lastBefore(stores.extents, pk, info.baseOffset, end)
    const expectedNext = last === undefined ? info.baseOffset : last.l + 1
    if (expectedNext === info.nextOffset) continue
    const summary = await summarize(stores.extents, pk, info.baseOffset, end)
    const fixed: SegmentInfo = {
      ...info,
      nextOffset: expectedNext,
      sizeBytes: summary.sizeBytes,
      maxTimestamp: summary.maxTimestamp,
    }
    segments[i] = fixed
    await stores.segments.put(toSegmentRow(pk, fixed))
    logger.warn(
      { partitionKey: pk, recorded: info, found: fixed },
      'IndexedDB segment info did not match its batches; rebuilt it',
    )
  }
  return { segments, meta, cleanShutdown }
}
