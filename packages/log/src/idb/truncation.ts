import type { SegmentInfo } from '../types.js'
import { type ExtentStore, lastAtOrBefore, lastBefore, summarize } from './extents.js'
import { offsetRange, type SegmentRow, toSegmentRow } from './schema.js'

export interface TruncationStores {
  batches: { delete(query: IDBKeyRange): Promise<void> }
  extents: ExtentStore & { delete(query: IDBKeyRange): Promise<void> }
  segments: { delete(query: IDBKeyRange): Promise<void>; put(row: SegmentRow): Promise<unknown> }
}

/**
 * The body of a truncation: cuts segment `info` before the batch holding `offset`, removes
 * everything of the partition after the cut (later segments included: this one becomes the
 * active segment), and returns the segment's new info. Its size comes from the extents cut;
 * its max timestamp is recomputed from the extents kept only when the cut may have taken it.
 */
export async function truncateSegment(
  stores: TruncationStores,
  partitionKey: string,
  info: SegmentInfo,
  segmentEnd: number,
  offset: number,
): Promise<SegmentInfo> {
  const pk = partitionKey
  const base = info.baseOffset
  const holding = offset > base ? await lastAtOrBefore(stores.extents, pk, base, offset) : undefined
  const cut = holding !== undefined && holding.l >= offset ? holding.b : Math.max(offset, base)
  const removed = await summarize(stores.extents, pk, cut, segmentEnd)
  const kept = await lastBefore(stores.extents, pk, base, cut)
  let sizeBytes = info.sizeBytes - removed.sizeBytes
  let maxTimestamp = info.maxTimestamp
  if (removed.count > 0 && removed.maxTimestamp >= info.maxTimestamp) {
    const remaining = await summarize(stores.extents, pk, base, cut)
    sizeBytes = remaining.sizeBytes
    maxTimestamp = remaining.maxTimestamp
  }
  const truncated: SegmentInfo = {
    ...info,
    nextOffset: kept === undefined ? base : kept.l + 1,
    sizeBytes,
    maxTimestamp,
  }
  const tail = offsetRange(pk, cut, Infinity)
  await Promise.all([
    stores.batches.delete(tail),
    stores.extents.delete(tail),
    stores.segments.delete(IDBKeyRange.bound([pk, base], [pk, Infinity], true, false)),
    stores.segments.put(toSegmentRow(pk, truncated)),
  ])
  return truncated
}
